import type * as pulumi from '@pulumi/pulumi';
import { checkFields, kinds, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import { Failures, LIMITS } from '../../framework/failures';

/** Every field of a TicketUpdate, once (see framework/fields.ts), and its `check`, before any call. */
export const TICKET_UPDATE_FIELDS = {
  /** The ticket to post to. */
  ticketId: {
    type: kinds.integer,
    input: 'required',
    output: true,
    rule: rules.integer({ required: true, min: 1 }),
    change: 'replace',
  },
  /** The text of the update. Changing it adds a new update; updates are never deleted. */
  entry: {
    type: kinds.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, maxLength: LIMITS.ticketEntry }),
    change: 'replace',
    reason: 'updates of a ticket are append-only',
  },
  /** The numeric id of the update. */
  updateId: { type: kinds.integer, output: true },
  /** When it was posted. */
  createDate: { type: kinds.nullable(kinds.string), output: true },
} satisfies Fields;

export function checkTicketUpdate(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
  const failures = new Failures();
  checkFields(TICKET_UPDATE_FIELDS, news, failures);
  return { inputs: news, failures: failures.list };
}

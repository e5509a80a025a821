import { types, readFrom, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import { LIMITS } from '../../framework/failures';
import type { TicketUpdateRecord } from '../../managers';

const onUpdate = readFrom<TicketUpdateRecord>();

/** Every field of a TicketUpdate, once (see framework/fields.ts), and its `check`, before any call. */
export const TICKET_UPDATE_FIELDS = {
  /** The ticket to post to. */
  ticketId: {
    type: types.integer,
    input: 'required',
    output: true,
    rule: rules.integer({ required: true, min: 1 }),
    change: 'replace',
    read: onUpdate('ticketId', (u) => u.ticketId),
  },
  /** The text of the update. Changing it adds a new update; updates are never deleted. */
  entry: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, maxLength: LIMITS.ticketEntry }),
    change: 'replace',
    reason: 'updates of a ticket are append-only',
    read: onUpdate('entry', (u) => u.entry),
  },
  /** The numeric id of the update. */
  updateId: { type: types.integer, output: true, read: onUpdate('id', (u) => u.id) },
  /** When it was posted. */
  createDate: {
    type: types.nullable(types.string),
    output: true,
    read: onUpdate('createDate', (u) => u.createDate ?? null),
  },
} satisfies Fields;

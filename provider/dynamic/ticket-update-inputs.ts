import type * as pulumi from '@pulumi/pulumi';
import { Failures, LIMITS } from './validate';

/** The checks of a TicketUpdate's inputs: one failure per wrong field, before any call. */
export function checkTicketUpdate(news: Record<string, unknown>): pulumi.dynamic.CheckResult {
  const failures = new Failures();
  failures.integer('ticketId', news.ticketId, { required: true, min: 1 });
  failures.string('entry', news.entry, { required: true, maxLength: LIMITS.ticketEntry });
  return { inputs: news, failures: failures.list };
}

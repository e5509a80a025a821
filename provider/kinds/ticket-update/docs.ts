import type { KindDocs } from '../../lookups/define';

/**
 * The update in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). No
 * import: an update is an entry posted to a ticket, which a stack only posts and forgets.
 */
export const TICKET_UPDATE_DOCS: KindDocs = {
  example: {
    title: 'A note on a ticket',
    name: 'rollout',
    args: { ticketId: 4242, entry: 'Rolled out web v2.' },
    exports: ['updateId'],
  },
};

import { TicketManager } from '../../managers';
import { freeWriteWindowMs } from '../../framework/connection';
import { createOnce } from '../../framework/exactly-once';
import { kindProvider, type CreateRequest, type FetchRequest } from '../../framework/kind-provider';
import { TICKET_UPDATE_FIELDS } from './fields';

/**
 * `TicketUpdate`: one update posted to a ticket. Updates are append-only: any change posts a new
 * one (the table marks every field `replace`), and none is ever deleted.
 */

/**
 * Posts the update once. The ids of the ticket's updates are taken before posting; after a post
 * with no definite answer, only an update with this text whose id is not among them can be the
 * one it made (an identical update posted earlier is never taken over).
 */
type Fields = typeof TICKET_UPDATE_FIELDS;

async function create({ connection, inputs }: CreateRequest<Fields>) {
  const tickets = connection.use(TicketManager);
  const { ticketId, entry } = inputs;
  const before = new Set((await tickets.getUpdates(ticketId)).map((u) => u.id));
  const update = await createOnce({
    what: `TicketUpdate on ticket ${ticketId}`,
    write: () => tickets.addUpdate(ticketId, entry),
    find: async () => {
      const made = (await tickets.getUpdates(ticketId)).filter(
        (u) => u.entry === entry && !before.has(u.id),
      );
      return made.length === 1 ? made[0] : undefined;
    },
    windowMs: freeWriteWindowMs(),
    nextRun:
      'The next `pulumi up` posts it (an update that shows up later would then be there twice; check the ticket).',
  });
  return { id: update.id, object: { ...update, ticketId } };
}

/** The API reads updates only through their ticket, which the stored properties name. */
async function fetch({ connection, id, state }: FetchRequest<Fields>) {
  if (state.ticketId === undefined)
    throw new Error(
      `TicketUpdate ${id} cannot be imported: the API reads an update only through its ticket, and an import knows only the update's id. Declare it with its ticketId and entry instead.`,
    );
  const ticketId = Number(state.ticketId);
  const update = (await connection.use(TicketManager).getUpdates(ticketId)).find(
    (u) => String(u.id) === id,
  );
  return update && { ...update, ticketId };
}

export const ticketUpdateProvider = kindProvider(TICKET_UPDATE_FIELDS, {
  describe: (state, id) => `TicketUpdate ${id} on ticket ${state.ticketId}`,
  fetch,
  create,
  delete: async () => 'ticket updates cannot be deleted; it is removed from the stack only',
  owned: true,
});

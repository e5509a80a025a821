import type * as pulumi from '@pulumi/pulumi';
import type { TicketUpdateRecord } from '../../managers';
import { changedFields } from '../../framework/compare';
import { connect, freeWriteWindowMs } from '../../framework/connection';
import { createOnce } from '../../framework/exactly-once';
import { fieldsChanging, type Bag } from '../../framework/fields';
import { requireEngine } from '../../framework/engine-watch';
import { say } from '../../framework/log';
import { accountIdOf, requireOwner } from '../../framework/owner';
import { TICKET_UPDATE_FIELDS, checkTicketUpdate } from './fields';

/** Types and ranges, before any call: fields.ts. */
async function check(_olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  return checkTicketUpdate(news);
}

/** Updates of a ticket are append-only: any change adds a new update (replace). */
async function diff(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedFields(olds, news, fieldsChanging(TICKET_UPDATE_FIELDS, 'replace'));
  return { changes: replaces.length > 0, replaces };
}

const outputs = (inputs: Bag, update: TicketUpdateRecord, accountId: number): Bag => ({
  ...inputs,
  updateId: update.id,
  createDate: update.createDate ?? null,
  accountId,
});

/**
 * Posts the update once. The ids of the ticket's updates are taken before posting; after a post
 * with no definite answer, only an update with this text whose id is not among them can be the
 * one it made (an identical update posted earlier is never taken over).
 */
async function create(inputs: Bag): Promise<pulumi.dynamic.CreateResult> {
  const c = connect();
  const accountId = await accountIdOf(c);
  const ticketId = Number(inputs.ticketId);
  const entry = String(inputs.entry);
  const before = new Set((await c.tickets.getUpdates(ticketId)).map((u) => u.id));
  const update = await createOnce({
    what: `TicketUpdate on ticket ${ticketId}`,
    write: async () => {
      await requireEngine();
      return c.tickets.addUpdate(ticketId, entry);
    },
    find: async () => {
      const made = (await c.tickets.getUpdates(ticketId)).filter(
        (u) => u.entry === entry && !before.has(u.id),
      );
      return made.length === 1 ? made[0] : undefined;
    },
    windowMs: freeWriteWindowMs(),
    nextRun:
      'The next `pulumi up` posts it (an update that shows up later would then be there twice; check the ticket).',
  });
  return { id: String(update.id), outs: outputs(inputs, update, accountId) };
}

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const c = connect();
  const accountId = await requireOwner(
    c,
    props,
    `TicketUpdate ${id} on ticket ${String(props.ticketId)}`,
    'refresh',
  );
  const updates = await c.tickets.getUpdates(Number(props.ticketId));
  const update = updates.find((u) => String(u.id) === id);
  if (!update) return {};
  const refreshed = { ...outputs(props, update, accountId), entry: update.entry };
  return { id, props: refreshed, inputs: { ticketId: props.ticketId, entry: update.entry } };
}

async function update(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: { ...olds, ...news } };
}

async function remove(id: string, props: Bag): Promise<void> {
  say(
    `TicketUpdate ${id} on ticket ${props.ticketId}: ticket updates cannot be deleted; it is removed from the stack only`,
  );
}

export const ticketUpdateProvider = { check, diff, create, read, update, delete: remove };

import type * as pulumi from '@pulumi/pulumi';
import type { TicketUpdateRecord } from '../managers';
import { changedFields } from './checks';
import { connect } from './connection';
import { createOnce } from './exactly-once';
import { say } from './log';
import { checkTicketUpdate } from './ticket-update-inputs';

type Bag = Record<string, unknown>;

/** Types and ranges, before any call: ticket-update-inputs.ts. */
async function check(_olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  return checkTicketUpdate(news);
}

/** Updates of a ticket are append-only: any change adds a new update (replace). */
async function diff(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedFields(olds, news, ['ticketId', 'entry']);
  return { changes: replaces.length > 0, replaces };
}

const outputs = (inputs: Bag, update: TicketUpdateRecord): Bag => ({
  ...inputs,
  updateId: update.id,
  createDate: update.createDate ?? null,
});

async function create(inputs: Bag): Promise<pulumi.dynamic.CreateResult> {
  const { tickets } = connect();
  const ticketId = Number(inputs.ticketId);
  const entry = String(inputs.entry);
  const before = Date.now();
  // A lost response may hide an added update: the one with this text added just now is adopted.
  const update = await createOnce({
    what: `TicketUpdate on ticket ${ticketId}`,
    write: () => tickets.addUpdate(ticketId, entry),
    find: async () =>
      (await tickets.getUpdates(ticketId)).find(
        (u) => u.entry === entry && Date.parse(u.createDate ?? '') >= before - 60_000,
      ),
  });
  return { id: String(update.id), outs: outputs(inputs, update) };
}

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const updates = await connect().tickets.getUpdates(Number(props.ticketId));
  const update = updates.find((u) => String(u.id) === id);
  return update ? { id, props: { ...outputs(props, update), entry: update.entry } } : {};
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

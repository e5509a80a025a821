import { DedicatedHostManager, type DedicatedHost, type HostSize } from '../../managers';
import { cancelBilled, costText, pricedOrder } from '../../framework/billed-order';
import { describeEnding, endingOf } from '../billing-ending';
import { createVerb, differences, orderOnce, takeoverOf, thenHandOver } from '../order-once';
import { noteMark } from '../../framework/handed-mark';
import type { Connection } from '../../framework/connection';
import { creationToken, isNoteMarked, markedNote } from '../../framework/creation-token';
import { readInputs, type InputsOf, type StateOf } from '../../framework/fields';
import {
  goneForStack,
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
  type DeleteRequest,
  type EditRequest,
  type PlanRequest,
} from '../../framework/kind-provider';
import { sayOnce } from '../../framework/log';
import { isKnown } from '../../framework/unknown';
import { DEDICATED_HOST_FIELDS, REPLACING } from './fields';

/**
 * `DedicatedHost`: a host of the DEDICATED_HOST package, ordered once (its order carries the
 * creation token as a tag, so an order whose answer was lost is found, never placed twice),
 * priced by verifyOrder with a BILLING line in the preview, renamed in place, and cancelled
 * through its billing item (at once when hourly or asked, else at its anniversary), only once no
 * guest is on it.
 */

type Fields = typeof DEDICATED_HOST_FIELDS;
type Inputs = InputsOf<Fields>;
type State = StateOf<Fields>;

const hosts = (c: Connection) => c.use(DedicatedHostManager);
const name = (v: Partial<State>) => `DedicatedHost "${v.resourceName ?? ''}"`;
const billing = (hourly: unknown) => (hourly === false ? 'monthly' : 'hourly');
const sizeText = (s: HostSize) =>
  `${s.keyName} (${s.cpuCount} cores, ${s.memoryGb} GB memory, ${s.diskGb} GB disk)`;

const orderOf = (inputs: Inputs, token: string) => ({
  name: inputs.name,
  domain: inputs.domain,
  datacenter: inputs.datacenter,
  size: inputs.size,
  hourly: inputs.hourlyBilling,
  creationToken: token,
});

/** Prices the order: the size the API sells, and in the preview what it bills. */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<Fields>) {
  const ordered = [
    inputs.name,
    inputs.domain,
    inputs.datacenter,
    inputs.size,
    inputs.hourlyBilling,
  ];
  if (!ordered.every((v) => v === undefined || isKnown(v))) return;
  const manager = hosts(c);
  const sizes = await manager.sizes();
  const size = sizes.find((s) => s.keyName === inputs.size);
  if (!size) {
    failures.add(
      'size',
      `size ${JSON.stringify(inputs.size)} is not a host size the API sells; one of ${sizes.map((s) => s.keyName).join(', ')}`,
    );
    return;
  }
  const token = olds.creationToken ?? creationToken(inputs);
  try {
    const container = await manager.orderContainer(orderOf(inputs as Inputs, token));
    const price = pricedOrder(await manager.verify(container));
    if (Object.keys(olds).length > 0) return { creationToken: token, ...price };
    const taken = await takeoverOf(earlier(c, inputs as Inputs, token));
    sayOnce(
      `BILLING create ${name(inputs)} ${createVerb('dedicated host', taken, 'orders a new dedicated host')}: ${sizeText(size)} in ${inputs.datacenter}; ${billing(inputs.hourlyBilling)}, ${costText(price)}`,
    );
    return { creationToken: token, adopts: taken.adopts, ...price };
  } catch (err) {
    const message = (err as Error).message;
    const field = /location|datacenter|router/i.test(message) ? 'datacenter' : 'size';
    failures.add(field, `${field}: the order cannot be priced: ${message}`);
  }
}

/** How `h` differs from what an order of `inputs` makes, in what replaces a host. */
const orderedOtherwise = (h: DedicatedHost, inputs: Inputs) => {
  const read = readInputs(DEDICATED_HOST_FIELDS, h, inputs);
  return differences(REPLACING.map((field) => [field, read[field], inputs[field]]));
};

/** The live hosts carrying the token, which were handed over, and how each differs from the order. */
const earlier = (c: Connection, inputs: Inputs, token: string) => ({
  what: name(inputs),
  noun: 'dedicated host',
  token,
  found: async () =>
    (await hosts(c).findByToken(token)).filter((h) => !h.billingItem?.cancellationDate),
  handed: (h: DedicatedHost) => isNoteMarked(h.notes),
  differs: (h: DedicatedHost) => orderedOtherwise(h, inputs),
});

/** Its handed mark: the last line of its notes (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number, notes: string | undefined) =>
  noteMark(
    `dedicated host ${id}`,
    async () => (await hosts(c).getHost(id, 'id,notes')).notes,
    (note) => hosts(c).edit(id, { notes: note }),
    notes,
  );

async function create({ connection: c, inputs }: CreateRequest<Fields>) {
  const token = inputs.creationToken ?? creationToken(inputs);
  const manager = hosts(c);
  const what = name(inputs);
  const container = await manager.orderContainer(orderOf(inputs, token));
  const host = await orderOnce({
    ...earlier(c, inputs, token),
    place: () => manager.place(container),
  });
  const outs = { creationToken: token };
  // A host is ready once ordered; its notes go with the handover, the create's last write.
  return thenHandOver(
    host,
    handedMark(c, host.id, inputs.notes),
    { ...inputs, ...outs },
    async () => ({ id: host.id, object: await manager.getHost(host.id), outs }),
    (message) =>
      `${what}: dedicated host ${host.id} was ordered, then ${message}; it is kept in the stack and the next \`pulumi up\` sets its notes again`,
  );
}

/**
 * Its name and notes as declared, the notes with the handed mark: written when the host shows
 * otherwise, so an update of one a failed create kept in the state finishes that create.
 */
async function edit({ connection: c, id, inputs }: EditRequest<Fields>) {
  const now = await hosts(c).getHost(Number(id), 'id,name,notes');
  const notes = markedNote(inputs.notes);
  const changes = {
    ...(inputs.name !== undefined && now.name !== inputs.name ? { name: inputs.name } : {}),
    ...(now.notes !== notes ? { notes } : {}),
  };
  if (Object.keys(changes).length > 0) await hosts(c).edit(Number(id), changes);
}

/** A replace orders a new host and cancels this one: the preview says both bills. */
async function plan({ connection: c, id, olds, news, changed }: PlanRequest<Fields>) {
  const replaces = changed.filter((f) => (REPLACING as readonly string[]).includes(f));
  if (replaces.length > 0) {
    const hourly = olds.hourlyBilling !== false;
    const ending = await endingOf(c.client, 'Virtual_DedicatedHost', Number(id), hourly);
    sayOnce(
      `BILLING replace ${name(olds)} (changed: ${replaces.join(', ')}): orders a new dedicated host (${news.size} in ${news.datacenter}; ${billing(news.hourlyBilling)}) at ${costText(news)}, cancels the old one at ${costText(olds)} (${describeEnding(ending)}); its guests must be moved off it first`,
    );
  }
  return { replaces, inPlace: changed.filter((f) => !replaces.includes(f)) };
}

async function remove({ connection: c, id, state }: DeleteRequest<Fields>) {
  const manager = hosts(c);
  const what = `${name(state)} (id ${id})`;
  const host = await manager.findHost(Number(id));
  if (!host?.billingItem || host.billingItem.cancellationDate) return `${what} is already gone`;
  const guests = host.guests ?? [];
  if (guests.length > 0)
    throw new Error(
      `${what} still has ${guests.length} guest(s) on it: ${guests.map((g) => `${g.hostname ?? 'guest'} (id ${g.id})`).join(', ')}. The API cancels a dedicated host only once it is empty, so nothing was cancelled: delete those guests first (remove them from the program, or place them elsewhere, which replaces them), then delete the host`,
    );
  const item = host.billingItem;
  return cancelBilled({
    what,
    billingItem: item,
    cancelImmediately: state.cancelImmediately === true,
    cancel: (immediate) => manager.cancel(item.id, immediate, 'Deleted by Pulumi'),
    cancelled: async () => {
      const now = await manager.findHost(Number(id));
      return now === undefined || now.billingItem?.cancellationDate !== undefined;
    },
  });
}

export const dedicatedHostProvider = kindProvider(DEDICATED_HOST_FIELDS, {
  describe: (state, id) => `${name(state)} (id ${id})`,
  fetch: async ({ connection, id }) => {
    const h = await hosts(connection).findHost(Number(id));
    if (h?.billingItem?.cancellationDate)
      return goneForStack('was cancelled and ends at its billing anniversary');
    return h;
  },
  checkWithApi,
  create,
  edit,
  editAlways: true,
  plan,
  delete: remove,
  owned: true,
});

import { SvcAPIError } from '../../client';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { noteMark } from '../../framework/handed-mark';
import { createVerb, differences, orderOnce, takeoverOf, thenHandOver } from '../order-once';
import type { InputsOf, StateOf } from '../../framework/fields';
import {
  goneForStack,
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
  type EditRequest,
  type DeleteRequest,
  type PlanRequest,
} from '../../framework/kind-provider';
import { sayOnce } from '../../framework/log';
import { isKnown } from '../../framework/unknown';
import { creationToken, isNoteMarked, markedNote } from '../../framework/creation-token';
import {
  cancelFailureReasons,
  cancelVlan,
  editVlan,
  findVlan,
  orderContainer,
  placeOrder,
  verifyOrder,
  vlansOrderedWith,
  type NetworkSpace,
  type Vlan,
} from './api';
import { REPLACING, VLAN_FIELDS } from './fields';
import { describeEnding, endingOf } from '../billing-ending';

/**
 * `Vlan`: a VLAN ordered from the VLAN package (`Product_Order.placeOrder`), billed by the month.
 * The order carries the resource's creation token as its container identifier (the API keeps it
 * with the VLAN's billing item), so an order whose answer was lost is found, never placed twice,
 * and one an unfinished create left is taken over (order-once.ts; its note's last line is the
 * handed mark).
 * Name and notes change in place; the datacenter, network space and router order a new VLAN. A
 * delete cancels the billing item, at the anniversary unless `cancelImmediately`; the API
 * refuses while guests are on the VLAN, and the error says what to do.
 */

type Fields = typeof VLAN_FIELDS;
type Inputs = InputsOf<Fields>;
type State = StateOf<Fields>;

const name = (v: Partial<State>) => `Vlan "${v.resourceName ?? ''}"`;
const money = (n: unknown) => (typeof n === 'number' ? `$${n.toFixed(2)}` : '$(unpriced)');

const order = (c: Connection, inputs: Partial<Inputs>, token: string) =>
  orderContainer(c.client, {
    datacenter: String(inputs.datacenter),
    networkSpace: inputs.networkSpace as NetworkSpace,
    routerHostname: inputs.routerHostname,
    name: inputs.name,
    containerIdentifier: token,
  });

const describeOrder = (v: Partial<Inputs>) =>
  `a ${String(v.networkSpace).toLowerCase()} VLAN in ${v.datacenter}${v.routerHostname ? ` behind ${v.routerHostname}` : ''}`;

/** Prices the order and says in the preview what it bills; a wrong field is named. */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<Fields>) {
  if (
    ![inputs.datacenter, inputs.networkSpace, inputs.routerHostname, inputs.name].every(
      (v) => v === undefined || isKnown(v),
    )
  )
    return;
  const token = olds.creationToken ?? creationToken(inputs);
  try {
    const answer = await verifyOrder(c.client, await order(c, inputs, token));
    const price = {
      estimatedHourlyCost: Number(answer.postTaxRecurringHourly ?? 0),
      estimatedMonthlyCost: Number(answer.postTaxRecurringMonthly ?? 0),
    };
    if (Object.keys(olds).length > 0) return { creationToken: token, ...price };
    const taken = await takeoverOf(earlier(c, inputs, token));
    sayOnce(
      `BILLING create ${name(inputs)} ${createVerb('VLAN', taken, `orders ${describeOrder(inputs)}`)}; monthly, ${money(price.estimatedMonthlyCost)}/month`,
    );
    return { creationToken: token, adopts: taken.adopts, ...price };
  } catch (err) {
    const message = (err as Error).message;
    const field = message.startsWith('routerHostname')
      ? 'routerHostname'
      : /location|datacenter/i.test(message)
        ? 'datacenter'
        : /name/.test(message)
          ? 'name'
          : 'networkSpace';
    failures.add(field, `${field}: the order cannot be priced: ${message}`);
  }
}

/** How `v` differs from what an order of `inputs` makes, in what replaces a VLAN. */
const orderedOtherwise = (v: Vlan, inputs: Partial<Inputs>) =>
  differences([
    ['datacenter', v.primaryRouter?.datacenter?.name, inputs.datacenter],
    ['networkSpace', v.networkSpace, inputs.networkSpace],
    inputs.routerHostname !== undefined && [
      'routerHostname',
      v.primaryRouter?.fullyQualifiedDomainName,
      inputs.routerHostname,
    ],
  ]);

/**
 * The live VLANs carrying the token, which were handed to a state, and how each differs from
 * what an order of `inputs` makes (the token is the URN's, so what replaces a VLAN tells a
 * replace's new one apart).
 */
const earlier = (c: Connection, inputs: Partial<Inputs>, token: string) => ({
  what: name(inputs),
  noun: 'VLAN',
  token,
  found: async () =>
    (await vlansOrderedWith(c.client, token)).filter((v) => !v.billingItem?.cancellationDate),
  handed: (v: Vlan) => isNoteMarked(v.note),
  differs: (v: Vlan) => orderedOtherwise(v, inputs),
});

/**
 * Its name and note as declared, the note with the handed mark: written when the VLAN shows
 * otherwise, so an update of one a failed create kept in the state finishes that create.
 */
async function edit({ connection: c, id, inputs }: EditRequest<Fields>) {
  const wanted = { name: inputs.name ?? '', note: markedNote(inputs.notes) };
  const now = await findVlan(c.client, Number(id), 'id,name,note');
  if ((now?.name ?? '') !== wanted.name || now?.note !== wanted.note)
    await editVlan(c.client, Number(id), wanted);
}

/** Its handed mark: the last line of its note (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number, notes: string | undefined) =>
  noteMark(
    `VLAN ${id}`,
    async () => (await findVlan(c.client, id, 'id,note'))?.note,
    (note) => editVlan(c.client, id, { note }),
    notes,
  );

async function create({ connection: c, inputs }: CreateRequest<Fields>) {
  const token = inputs.creationToken ?? creationToken(inputs);
  const what = name(inputs);
  const container = await order(c, inputs, token);
  const vlan = await orderOnce({
    ...earlier(c, inputs, token),
    place: () => placeOrder(c.client, container),
  });
  const outs = { creationToken: token };
  // A VLAN is ready once ordered; its notes go with the handover, the create's last write.
  return thenHandOver(
    vlan,
    handedMark(c, vlan.id, inputs.notes),
    { ...inputs, ...outs },
    async () => ({ id: vlan.id, object: (await findVlan(c.client, vlan.id)) ?? vlan, outs }),
    (message) =>
      `${what}: VLAN ${vlan.id} was ordered, then ${message}; it is kept in the stack and the next \`pulumi up\` sets its notes again`,
  );
}

/** A replace is a new order, priced beside the old one and how its billing ends. */
async function plan({ connection: c, id, olds, news, changed }: PlanRequest<Fields>) {
  const replaces = changed.filter((f) => (REPLACING as readonly string[]).includes(f));
  if (replaces.length > 0)
    sayOnce(
      `BILLING replace ${name(olds)} (changed: ${replaces.join(', ')}): orders ${describeOrder(news)} at ${money((news as Partial<State>).estimatedMonthlyCost)}/month, cancels the old one at ${money(olds.estimatedMonthlyCost)}/month (${await ending(c, id, olds)})`,
    );
  return { replaces, inPlace: changed.filter((f) => !replaces.includes(f)) };
}

/** How the VLAN's billing ends when it is cancelled now, and what it still owes. */
const ending = async (c: Connection, id: string, state: Partial<State>) =>
  state.cancelImmediately
    ? 'cancelled at once: its billing stops at the cancel'
    : `cancelled at its anniversary unless cancelImmediately: ${describeEnding(await endingOf(c.client, 'Network_Vlan', Number(id), false))}`;

/** What the user must do about what is still on the VLAN. */
const stillInUse = (what: string, reasons: string) =>
  new Error(
    `${what} cannot be cancelled: ${reasons}. The API cancels only an empty VLAN: move those guests to another VLAN or cancel them (and remove its other subnets) first, then delete the VLAN again.`,
  );

async function remove({ connection: c, id, state }: DeleteRequest<Fields>) {
  const vlanId = Number(id);
  const what = `${name(state)} (id ${id})`;
  const current = await findVlan(c.client, vlanId);
  if (!current?.billingItem || current.billingItem.cancellationDate)
    return `${what} is already cancelled`;
  const reasons = await cancelFailureReasons(c.client, vlanId);
  if (reasons.length > 0) throw stillInUse(what, reasons.join('; '));
  const immediate = state.cancelImmediately === true;
  const ends = await ending(c, id, state);
  try {
    await writeIdempotent({
      what: `${what} cancel`,
      write: () => cancelVlan(c.client, current.billingItem!.id, immediate),
      done: async () => {
        const v = await findVlan(c.client, vlanId);
        return v === undefined || v.billingItem?.cancellationDate !== undefined;
      },
      windowMs: freeWriteWindowMs(),
    });
  } catch (err) {
    if (err instanceof SvcAPIError && /still on the VLAN|cannot be cancelled/i.test(err.message))
      throw stillInUse(what, err.faultString);
    throw err;
  }
  return `${what} ${ends} (${money(state.estimatedMonthlyCost)}/month)`;
}

export const vlanProvider = kindProvider(VLAN_FIELDS, {
  describe: (state, id) => `${name(state)} (id ${id})`,
  fetch: async ({ connection, id }) => {
    const v = await findVlan(connection.client, Number(id));
    if (v?.billingItem?.cancellationDate)
      return goneForStack('was cancelled and ends at its billing anniversary');
    return v;
  },
  checkWithApi,
  create,
  edit,
  // Every update: one a failed create kept in the state gets its name, note and mark.
  editAlways: true,
  plan,
  delete: remove,
  owned: true,
});

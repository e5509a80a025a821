import {
  CANCEL_MASK,
  DETAIL_MASK,
  billingMode,
  isReady,
  isReclaiming,
  type VirtualGuest,
} from '../../managers';
import type { Failures } from '../../framework/failures';
import { containsUnknown, isKnown } from '../../framework/unknown';
import { connect, outcomeWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import {
  gone,
  kindProvider,
  type Created,
  type Edited,
  type Gone,
  type PlannedChange,
} from '../../framework/kind-provider';
import { say } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import {
  announceCreate,
  announceReplace,
  announceUpgrade,
  announcedAsReplacement,
  describeFallbacks,
  announceCostDrift,
  describeChanges,
  type BilledCost,
  type Ending,
} from './billing';
import { owedOnCancel } from './anniversary';
import { catalogFrom, type Catalog } from './catalog';
import { claim, converge, createGuest, earlierAttempt } from './create';
import {
  ORDER_FIELDS,
  PRICED_FIELDS,
  UPGRADE_FIELDS,
  checkOffered,
  type GuestInputs,
} from './inputs';
import { observedInputs, progressOf, readyWaitMs } from './observe';
import { billedPrice, costOutputs, guestPrice, priceOrder } from './pricing';
import { importForm } from './import-form';
import { checkPlacement, placementMismatch } from './placement';
import { checkFqdn } from './rules';
import { creationToken } from './provenance';
import { announceReload, checkReloadPrice, reloadInPlace, reloadedBy, replacedBy } from './reload';
import { checkResize, reboots, resize } from './upgrade';
import type { Bag } from '../../framework/fields';
import { GUEST_FIELDS } from './fields';

const catalog = (c: Connection): Promise<Catalog> => catalogFrom(() => c.guests.getCreateOptions());

/** What an adopted guest must have as declared (the rest is converged or upgraded after). */
const ADOPTION_FIELDS = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'hourlyBillingFlag',
] as const;

/** Differences between an existing guest and what the adopting resource declares. */
function adoptionMismatches(guest: VirtualGuest, inputs: Bag, failures: Failures): void {
  const actual: Bag = observedInputs(guest);
  for (const field of ADOPTION_FIELDS) {
    const value = actual[field];
    const declared = inputs[field];
    if (value !== undefined && isKnown(declared) && declared !== value) {
      failures.add(
        field,
        `adoptId: guest ${guest.id} has ${field} ${JSON.stringify(value)} but the resource declares ${JSON.stringify(declared)}`,
      );
    }
  }
  const placement = placementMismatch(guest.datacenter?.name, inputs);
  if (placement) {
    const field = inputs.datacenters === undefined ? 'datacenter' : 'datacenters';
    failures.add(field, `adoptId: guest ${guest.id} has ${placement}`);
  }
}

/**
 * The guest's rules across fields, beyond each field's own (the table's): the host name and
 * domain as one name, where to order, and what a resize may not do. No API call.
 */
export function checkGuestRules(inputs: Bag, olds: Bag, failures: Failures): void {
  checkFqdn(inputs, failures);
  checkPlacement(inputs, failures);
  checkResize(olds, inputs, failures);
}

/**
 * What the account is offered, the guest `adoptId` names, and the price of the order: a create
 * says what it will bill (nothing new when it takes over an existing guest), and the inputs carry
 * the order's creation token and price.
 */
async function checkWithApi(
  c: Connection,
  inputs: Bag,
  olds: Bag,
  failures: Failures,
): Promise<Bag | void> {
  let offered: Catalog;
  try {
    offered = await catalog(c);
  } catch (err) {
    failures.add(
      'svc:endpointUrl',
      `cannot read the options this account is offered: ${(err as Error).message}`,
    );
    return;
  }
  checkOffered(inputs, offered, failures);
  let adoptable: VirtualGuest | undefined;
  if (isKnown(inputs.adoptId)) {
    adoptable = await c.guests.findInstance(Number(inputs.adoptId));
    if (!adoptable)
      failures.add('adoptId', `adoptId: there is no guest ${inputs.adoptId} on this account`);
    else adoptionMismatches(adoptable, inputs, failures);
  }
  // The price needs only what is priced: a key id or user data known after apply still shows it.
  if (failures.list.length > 0 || containsUnknown(PRICED_FIELDS.map((f) => inputs[f]))) return;
  const known = inputs as unknown as GuestInputs;
  let price;
  try {
    price = await priceOrder(c.guests, known);
  } catch (err) {
    failures.add('startCpus', `the API cannot price this order: ${(err as Error).message}`);
    return;
  }
  const orderKnown = !containsUnknown(ORDER_FIELDS.map((f) => inputs[f]));
  const token = known.adoptId || !orderKnown ? undefined : creationToken(known);
  if (Object.keys(olds).length > 0) {
    await checkReloadPrice(c, olds, known, price, failures);
    if (failures.list.length > 0) return;
    return {
      creationToken: token,
      adopts: olds.adopts as number | undefined,
      ...costOutputs(price),
    };
  }
  const { guest = adoptable, conflict } =
    token && !announcedAsReplacement(known)
      ? await earlierAttempt(c, known.resourceName, token, known, 'seen')
      : {};
  const billed = guest && billedPrice(guest);
  const derived = { creationToken: token, adopts: guest?.id, ...costOutputs(billed ?? price) };
  const fallbacks = guest
    ? ''
    : await describeFallbacks(known, costOutputs(price), async (datacenter) =>
        costOutputs(await priceOrder(c.guests, { ...known, datacenters: undefined, datacenter })),
      );
  announceCreate(known.resourceName, { ...known, ...derived }, conflict, fallbacks);
  return derived;
}

/**
 * What a change bills, said in the preview: a replace (what the old guest still owes, what both
 * cost while they overlap), a reload (the same bill), an upgrade (the new price). A change of the
 * size upgrades in place; the table's other replacing fields replace the guest, except the image
 * with `onImageChange: reload` and a new `datacenters` list the guest is in (reload.ts).
 */
async function announce(id: string, olds: Bag, news: Bag, change: PlannedChange): Promise<void> {
  const name = String(news.resourceName ?? id);
  const guest = news as unknown as GuestInputs;
  if (change.replaces.length > 0) {
    announceReplace(name, change.replaces, olds, guest, await endingOf(id, olds));
    return;
  }
  const reloads = reloadedBy(olds, news);
  if (reloads.length > 0) announceReload(name, reloads);
  const upgrades = change.inPlace.filter((field) => (UPGRADE_FIELDS as string[]).includes(field));
  if (upgrades.length > 0) announceUpgrade(name, upgrades, olds, guest, reboots(olds, news));
}

/** When the guest's billing ends if it is cancelled now (monthly: one call for its billing cycle). */
async function endingOf(id: string, props: Bag): Promise<Ending> {
  if (billingMode(props.hourlyBillingFlag) === 'hourly') return { mode: 'hourly' };
  try {
    const owed = await owedOnCancel(connect().client, Number(id));
    return owed
      ? { mode: 'monthly', ...owed }
      : { mode: 'monthly', unknown: 'the API shows no billing cycle for it' };
  } catch (err) {
    return { mode: 'monthly', unknown: (err as Error).message };
  }
}

/** The outputs the table cannot read: where the guest is, and what it is billed. */
async function outputs(c: Connection, object: object, inputs: Bag): Promise<Bag> {
  const guest = object as VirtualGuest;
  const price = await guestPrice(c.guests, guest, inputs as unknown as GuestInputs);
  return { datacenter: guest.datacenter?.name ?? inputs.datacenter, ...costOutputs(price) };
}

/**
 * Waits for the guest if asked (a timeout raises `WaitTimeoutError`; the wait's last round is
 * also the read), else reads it. The wait is bounded by `readyTimeoutMinutes` and by the engine's
 * deadline for the operation.
 */
function settle(
  c: Connection,
  id: number,
  inputs: GuestInputs,
  request?: OperationRequest,
): Promise<VirtualGuest> {
  if (!inputs.waitForReady) return c.guests.getInstance(id, DETAIL_MASK);
  return c.guests.waitForReady(id, {
    timeoutMs: readyWaitMs(inputs, request),
    onProgress: progressOf(`VirtualGuest "${inputs.resourceName}" (id ${id})`),
  });
}

async function create(c: Connection, news: Bag, request?: OperationRequest): Promise<Created> {
  const inputs = news as unknown as GuestInputs;
  const made = await createGuest(c, inputs, (id) => settle(c, id, inputs, request));
  return { id: made.id, object: made.guest, outs: made.outs };
}

const describe = (props: Bag, id: string) =>
  `VirtualGuest "${String(props.resourceName ?? '')}" (id ${id})`;

/**
 * A guest being reclaimed was cancelled (outside the stack, or by a destroy that did not wait):
 * it is gone for the stack, and a later `up` orders a new one (it never adopts it).
 */
async function fetch(c: Connection, id: string): Promise<object | Gone | undefined> {
  const guest = await c.guests.findInstance(Number(id), DETAIL_MASK);
  return guest && isReclaiming(guest) ? gone('was cancelled and is being reclaimed') : guest;
}

/**
 * Drift is against what the account was quoted (states older than the source were quoted too);
 * a list-price estimate differs from the bill by design.
 */
function refreshed(id: string, stored: Bag, now: Bag, object: object): void {
  const quoted = !String(stored.estimatedCostSource ?? 'account').startsWith('list');
  if (!quoted || !billedPrice(object as VirtualGuest)) return;
  const resized = describeChanges(UPGRADE_FIELDS, stored, now);
  announceCostDrift(describe(stored, id), stored, now as unknown as BilledCost, resized);
}

/**
 * Brings the guest to the inputs in place: its names, tags and notes, its size (an upgrade
 * order), its image (a reload); marks it owned if the create that ordered it could not; and
 * answers it ready.
 */
async function edit(
  c: Connection,
  id: string,
  news: Bag,
  _changed: string[],
  olds: Bag,
  request?: OperationRequest,
): Promise<Edited> {
  const guestId = Number(id);
  const inputs = news as unknown as GuestInputs;
  await converge(c, guestId, inputs);
  await resize(c, guestId, inputs, request);
  await reloadInPlace(c, guestId, olds, inputs, request);
  const guest = await c.guests.getInstance(guestId, DETAIL_MASK);
  // With the tags just read: the same read serves the outputs.
  await claim(c, guestId, guest);
  return { object: isReady(guest) ? guest : await settle(c, guestId, inputs, request) };
}

/** Deletes are refused while a transaction runs; a guest still provisioning is waited for this long. */
const DELETE_WAIT_MS = 6 * 60 * 60_000;

/**
 * Cancels the guest and returns once the API has accepted the cancel and the guest's billing
 * stops (hourly: at once; monthly: at its anniversary, which the message names). The reclaim
 * that follows (the guest stays visible for minutes) is waited for only with `waitForReclaim`.
 * A guest already reclaiming is not cancelled again.
 */
async function remove(
  c: Connection,
  id: string,
  props: Bag,
  request?: OperationRequest,
): Promise<string> {
  const what = describe(props, id);
  const guestId = Number(id);
  const before = await c.guests.findInstance(guestId, CANCEL_MASK);
  let ending: Ending = { mode: 'hourly' };
  if (before && !isReclaiming(before)) {
    await c.guests.waitForIdle(
      guestId,
      boundedWait(request, DELETE_WAIT_MS),
      progressOf(what, 'waiting to cancel it'),
    );
    // What a monthly guest still owes, read right before the cancel ends its cycle (a wait for
    // provisioning can last hours).
    ending = await endingOf(id, props);
    await writeIdempotent({
      what: `${what} cancellation`,
      write: () => c.guests.cancelInstance(guestId),
      done: async () => {
        const guest = await c.guests.findInstance(guestId, CANCEL_MASK);
        return guest === undefined || isReclaiming(guest);
      },
      windowMs: outcomeWindowMs(),
    });
  }
  const billingId = before?.billingItem?.id;
  const billedTo = billingId === undefined ? undefined : await c.guests.billedUntil(billingId);
  if (billingId !== undefined && billedTo === undefined && before && !isReclaiming(before)) {
    throw new Error(
      `${what}: the API accepted the cancel but billing item ${billingId} shows no cancellation date; the guest stays in the stack and the next \`pulumi destroy\` checks again (it is not cancelled twice)`,
    );
  }
  const owed = 'owed' in ending ? `: $${ending.owed.toFixed(2)} still owed after the cancel` : '';
  const monthly = billingMode(props.hourlyBillingFlag) === 'monthly';
  const billing = !before
    ? 'it was already gone'
    : monthly
      ? `monthly billing item cancelled, billed to its anniversary ${billedTo ?? '(unknown)'}${owed}`
      : `hourly billing stopped at ${billedTo ?? 'the cancel'}`;
  if (props.waitForReclaim !== true) {
    return `cancelled (${billing}); the API reclaims the guest for some minutes more (not waited for: set waitForReclaim: true to wait until it is gone)`;
  }
  say(`${what}: cancelled (${billing}); waiting for the API to reclaim it`);
  await c.guests.waitForIdle(
    guestId,
    boundedWait(request, DELETE_WAIT_MS),
    progressOf(what, 'waiting for its reclaim'),
    'gone',
  );
  return 'reclaimed, gone';
}

/**
 * `VirtualGuest`: a guest ordered exactly once (create.ts), whose check prices the order and says
 * what it bills, and whose size, image, names and tags change in place where the API allows.
 */
export const virtualGuestProvider = kindProvider(GUEST_FIELDS, {
  describe,
  fetch,
  create,
  edit,
  editAlways: true,
  delete: remove,
  checkRules: checkGuestRules,
  checkWithApi,
  replaces: replacedBy,
  announce,
  outputs,
  refreshed,
  importForm: async (c, inputs) => importForm(inputs, await catalog(c)),
  owned: true,
});

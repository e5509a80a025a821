import type * as pulumi from '@pulumi/pulumi';
import {
  CANCEL_MASK,
  DETAIL_MASK,
  billingMode,
  isReady,
  isReclaiming,
  type VirtualGuest,
} from '../../managers';
import { Failures } from '../../framework/failures';
import { containsUnknown, isKnown } from '../../framework/unknown';
import { connect, outcomeWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { say } from '../../framework/log';
import { requireOwner } from '../../framework/owner';
import {
  announceCreate,
  announceReplace,
  announceUpgrade,
  announcedAsReplacement,
  describeFallbacks,
  announceCostDrift,
  describeChanges,
  type Ending,
} from './billing';
import { owedOnCancel } from './anniversary';
import { catalogFrom, type Catalog } from './catalog';
import { claim, converge, createGuest, earlierAttempt } from './create';
import {
  EDIT_FIELDS,
  LOCAL_FIELDS,
  ORDER_FIELDS,
  PRICED_FIELDS,
  UPGRADE_FIELDS,
  checkOffered,
  checkShape,
  withDefaults,
  type GuestInputs,
} from './inputs';
import { computedOutputs, observedInputs, progressOf } from './observe';
import { billedPrice, priceOrder, type Price } from './pricing';
import { importForm } from './import-form';
import { placementKept, placementMismatch } from './placement';
import { creationToken } from './provenance';
import { announceReload, checkReloadPrice, reloadInPlace, reloadedBy, replacedBy } from './reload';
import { checkResize, reboots, resize } from './upgrade';
import { changedBetween, type Bag } from '../../framework/fields';
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

async function check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  const inputs = withDefaults(olds, news);
  const failures = new Failures();
  checkShape(inputs, failures);
  checkResize(olds, inputs, failures);
  if (failures.list.length > 0) return { inputs, failures: failures.list };
  const c = connect();
  let offered: Catalog;
  try {
    offered = await catalog(c);
  } catch (err) {
    failures.add(
      'svc:endpointUrl',
      `cannot read the options this account is offered: ${(err as Error).message}`,
    );
    return { inputs, failures: failures.list };
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
  if (failures.list.length > 0 || containsUnknown(PRICED_FIELDS.map((f) => inputs[f]))) {
    return { inputs, failures: failures.list };
  }
  const known = inputs as unknown as GuestInputs;
  let price;
  try {
    price = await priceOrder(c.guests, known);
  } catch (err) {
    failures.add('startCpus', `the API cannot price this order: ${(err as Error).message}`);
    return { inputs, failures: failures.list };
  }
  const orderKnown = !containsUnknown(ORDER_FIELDS.map((f) => inputs[f]));
  const token = known.adoptId || !orderKnown ? undefined : creationToken(known);
  if (Object.keys(olds).length > 0) {
    await checkReloadPrice(c, olds, known, price, failures);
    if (failures.list.length > 0) return { inputs, failures: failures.list };
    const checked = { ...known, creationToken: token, adopts: olds.adopts as number | undefined };
    return { inputs: { ...checked, ...costs(price) }, failures: [] };
  }
  // A create: say what it will bill, which is nothing new when it takes over an existing guest.
  const { guest = adoptable, conflict } =
    token && !announcedAsReplacement(known)
      ? await earlierAttempt(c, known.resourceName, token, known, 'seen')
      : {};
  const billed = guest && billedPrice(guest);
  const checked = { ...known, creationToken: token, adopts: guest?.id, ...costs(billed ?? price) };
  const fallbacks = guest
    ? ''
    : await describeFallbacks(known, costs(price), async (datacenter) =>
        costs(await priceOrder(c.guests, { ...known, datacenters: undefined, datacenter })),
      );
  announceCreate(known.resourceName, checked, conflict, fallbacks);
  return { inputs: checked, failures: [] };
}

const costs = (price: Price) => ({
  estimatedHourlyCost: price.hourly,
  estimatedMonthlyCost: price.monthly,
  estimatedCostSource: price.source,
});

/**
 * A change to what was ordered replaces the guest, except the size (CPUs, memory, port speed,
 * disks), which one upgrade order changes in place. Other changes are left for the engine to diff
 * (`changes` unknown): it compares the old and new inputs itself and so knows which properties
 * changed, which is what `replaceOnChanges`, `ignoreChanges` and `--diff` work from (the dynamic
 * provider protocol of @pulumi/pulumi 3.248 carries no detailed diff). `read` keeps the stored
 * inputs in step with what it observes, so drift shows in that comparison as well.
 */
async function diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const name = String(news.resourceName ?? id);
  const replaces = replacedBy(olds, news);
  if (replaces.length > 0) {
    const ending = await endingOf(id, olds);
    announceReplace(name, replaces, olds, news as unknown as GuestInputs, ending);
    return { changes: true, replaces, deleteBeforeReplace: false };
  }
  const reloads = reloadedBy(olds, news);
  if (reloads.length > 0) announceReload(name, reloads);
  const upgrades = changedBetween(GUEST_FIELDS, olds, news, UPGRADE_FIELDS);
  if (upgrades.length > 0) {
    announceUpgrade(name, upgrades, olds, news as unknown as GuestInputs, reboots(olds, news));
  }
  const edits = [
    ...changedBetween(GUEST_FIELDS, olds, news, [...EDIT_FIELDS, ...LOCAL_FIELDS]),
    ...placementKept(olds, news),
  ];
  return edits.length + upgrades.length + reloads.length > 0
    ? { replaces: [], deleteBeforeReplace: false }
    : { changes: false };
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

/** The outputs: what the guest is billed (its billing item), else the price of its order. */
async function priced(c: Connection, guest: VirtualGuest, inputs: GuestInputs) {
  const price = billedPrice(guest) ?? (await priceOrder(c.guests, inputs));
  return computedOutputs(guest, price);
}

/** The inputs and what the API computes, `datacenter` saying where the guest is. */
async function outputs(c: Connection, guest: VirtualGuest, inputs: GuestInputs): Promise<Bag> {
  const datacenter = guest.datacenter?.name ?? inputs.datacenter;
  return { ...inputs, datacenter, ...(await priced(c, guest, inputs)) };
}

/**
 * Waits for the guest if asked (a timeout raises `WaitTimeoutError`; the wait's last round is
 * also the read), else reads it; then the outputs.
 */
async function settle(c: Connection, id: number, inputs: GuestInputs) {
  const guest = inputs.waitForReady
    ? await waitReady(c, id, inputs)
    : await c.guests.getInstance(id, DETAIL_MASK);
  return { guest, outs: await outputs(c, guest, inputs) };
}

function waitReady(c: Connection, id: number, inputs: GuestInputs): Promise<VirtualGuest> {
  const name = inputs.resourceName;
  return c.guests.waitForReady(id, {
    timeoutMs: inputs.readyTimeoutMinutes * 60_000,
    onProgress: progressOf(`VirtualGuest "${name}" (id ${id})`),
  });
}

async function create(news: Bag): Promise<pulumi.dynamic.CreateResult> {
  const c = connect();
  const inputs = news as unknown as GuestInputs;
  return createGuest(c, inputs, (id) => settle(c, id, inputs));
}

const describe = (props: Bag, id: string) =>
  `VirtualGuest "${String(props.resourceName ?? '')}" (id ${id})`;

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const c = connect();
  const accountId = await requireOwner(c, props, describe(props, id), 'refresh');
  const guest = await c.guests.findInstance(Number(id), DETAIL_MASK);
  // A guest being reclaimed was cancelled (outside the stack, or by a destroy that did not wait):
  // it is gone for the stack, and a later `up` orders a new one (it never adopts it).
  if (!guest || isReclaiming(guest)) {
    const why = guest ? 'was cancelled and is being reclaimed' : 'no longer exists';
    say(
      `${describe(props, id)} ${why} in account ${accountId}, which owns it; it leaves the stack`,
    );
    return {};
  }
  // No properties: an import, which knows only the id; the inputs are all read from the guest.
  const declared = Object.keys(props).length > 0 ? (props as unknown as GuestInputs) : undefined;
  const observed = observedInputs(guest, declared);
  const computed = await priced(c, guest, observed);
  // Drift is against what the account was quoted (states older than the source were quoted
  // too); a list-price estimate differs from the bill by design.
  const quoted = !String(props.estimatedCostSource ?? 'account').startsWith('list');
  if (declared && quoted && billedPrice(guest)) {
    const resized = describeChanges(UPGRADE_FIELDS, props, observed as unknown as Bag);
    announceCostDrift(describe(props, id), props, computed, resized);
  }
  // The inputs as observed, for later diffs: the outputs less those that are not inputs (the
  // estimated costs are both: check prices the order).
  const {
    estimatedHourlyCost: _hourly,
    estimatedMonthlyCost: _monthly,
    estimatedCostSource: _source,
    ...notInputs
  } = computed;
  const computedOnly = new Set([...Object.keys(notInputs), 'accountId']);
  // With `datacenters` declared, `datacenter` is an output only (where the guest is).
  if (declared?.datacenters !== undefined) computedOnly.add('datacenter');
  const inputs = Object.fromEntries(
    Object.entries(observed).filter(([key]) => !computedOnly.has(key)),
  );
  // An import's program says what a user writes (import-form.ts); check fills the defaults in.
  const stored = declared ? inputs : importForm(inputs, await catalog(c));
  return { id, props: { ...observed, ...computed, accountId }, inputs: stored };
}

async function update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  const c = connect();
  const accountId = await requireOwner(c, olds, describe(olds, id), 'update');
  const guestId = Number(id);
  // The outputs keep the token the guest was ordered with (older versions derived it otherwise).
  const inputs = {
    ...(news as unknown as GuestInputs),
    creationToken: olds.creationToken as string | undefined,
  };
  await converge(c, guestId, inputs);
  await resize(c, guestId, inputs);
  await reloadInPlace(c, guestId, olds, inputs);
  const guest = await c.guests.getInstance(guestId, DETAIL_MASK);
  // A create that failed after its order may not have marked the guest owned; do it now (with
  // the tags just read: the same read serves the outputs).
  await claim(c, guestId, guest);
  const { outs } = isReady(guest)
    ? { outs: await outputs(c, guest, inputs) }
    : await settle(c, guestId, inputs);
  return { outs: { ...outs, accountId } };
}

/** Deletes are refused while a transaction runs; a guest still provisioning is waited for this long. */
const DELETE_WAIT_MS = 6 * 60 * 60_000;

/**
 * Cancels the guest and returns once the API has accepted the cancel and the guest's billing
 * stops (hourly: at once; monthly: at its anniversary, which the message names). The reclaim
 * that follows (the guest stays visible for minutes) is waited for only with `waitForReclaim`.
 * A guest already reclaiming is not cancelled again.
 */
async function remove(id: string, props: Bag): Promise<void> {
  const c = connect();
  const what = describe(props, id);
  await requireOwner(c, props, what, 'delete');
  const guestId = Number(id);
  const before = await c.guests.findInstance(guestId, CANCEL_MASK);
  let ending: Ending = { mode: 'hourly' };
  if (before && !isReclaiming(before)) {
    await c.guests.waitForIdle(guestId, DELETE_WAIT_MS, progressOf(what, 'waiting to cancel it'));
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
    say(
      `${what}: cancelled (${billing}); the API reclaims the guest for some minutes more (not waited for: set waitForReclaim: true to wait until it is gone)`,
    );
    return;
  }
  say(`${what}: cancelled (${billing}); waiting for the API to reclaim it`);
  await c.guests.waitForIdle(
    guestId,
    DELETE_WAIT_MS,
    progressOf(what, 'waiting for its reclaim'),
    'gone',
  );
  say(`${what}: reclaimed, gone`);
}

export const virtualGuestProvider = { check, diff, create, read, update, delete: remove };

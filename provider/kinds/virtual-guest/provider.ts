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
import { outcomeWindowMs, type Connection } from '../../framework/connection';
import { configKey } from '../../framework/settings';
import { writeIdempotent } from '../../framework/exactly-once';
import {
  goneForStack,
  kindProvider,
  type CheckRulesRequest,
  type CheckWithApiRequest,
  type CreateRequest,
  type Created,
  type DeleteRequest,
  type EditRequest,
  type Edited,
  type FetchRequest,
  type GoneForStack,
  type OutputsRequest,
  type PlanRequest,
  type PlannedChange,
} from '../../framework/kind-provider';
import { say } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { guests } from './guests';
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
import { endingOf as sharedEnding } from '../billing-ending';
import { catalogFrom, type Catalog } from './catalog';
import { converge, createGuest, earlierAttempt, handOverGuest } from './create';
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
import { checkPlacementGroup } from './placement-group';
import { checkDedicatedHost, checkHostRules, quotedInPlace } from './dedicated-host';
import { checkVlanRules, checkVlans } from './vlans';
import { checkImageRules, checkImageTemplate } from './image-template';
import { checkFqdn } from './rules';
import { checkMachineType } from './machine-type';
import { checkFlavorLocation } from './flavor-locations';
import {
  INTERFACES,
  checkSecurityGroupRules,
  checkSecurityGroupsExist,
  releaseSecurityGroups,
  syncSecurityGroups,
} from './security-groups';
import { creationToken } from '../../framework/creation-token';
import { announceReload, checkReloadPrice, reloadInPlace, reloadedBy, replacedBy } from './reload';
import { checkResize, reboots, resize } from './upgrade';
import type { FieldName, StateOf } from '../../framework/fields';
import { GUEST_FIELDS } from './fields';

type GuestFields = typeof GUEST_FIELDS;
type GuestState = Partial<StateOf<GuestFields>>;

const catalog = (c: Connection): Promise<Catalog> =>
  catalogFrom(() => guests(c).getCreateOptions());

/** What an adopted guest must have as declared (the rest is converged or upgraded after). */
const ADOPTION_FIELDS = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'flavorKeyName',
  'hourlyBillingFlag',
  'transientGuestFlag',
] as const;

/** Differences between an existing guest and what the adopting resource declares. */
function adoptionMismatches(guest: VirtualGuest, inputs: GuestInputs, failures: Failures): void {
  const actual = observedInputs(guest);
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
export function checkGuestRules({ inputs, olds, failures }: CheckRulesRequest<GuestFields>): void {
  checkFqdn(inputs, failures);
  checkMachineType(inputs, failures);
  checkPlacement(inputs, failures);
  checkSecurityGroupRules(inputs, failures);
  checkVlanRules(inputs, failures);
  checkHostRules(inputs, failures);
  checkImageRules(inputs, failures);
  checkResize(olds, inputs, failures);
}

/**
 * What the account is offered, the guest `adoptId` names, and the price of the order: a create
 * says what it will bill (nothing new when it takes over an existing guest), and the inputs carry
 * the order's creation token and price.
 */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<GuestFields>): Promise<GuestState | void> {
  let offered: Catalog;
  try {
    offered = await catalog(c);
  } catch (err) {
    failures.add(
      configKey('endpointUrl'),
      `cannot read the options this account is offered: ${(err as Error).message}`,
    );
    return;
  }
  checkOffered(inputs, offered, failures);
  await checkFlavorLocation(c, inputs, failures);
  await checkSecurityGroupsExist(c, inputs, failures);
  await checkPlacementGroup(c, inputs, olds, failures);
  await checkDedicatedHost(c, inputs, olds, failures);
  await checkVlans(c, inputs, failures);
  await checkImageTemplate(c, inputs, failures);
  let adoptable: VirtualGuest | undefined;
  if (isKnown(inputs.adoptId)) {
    adoptable = await guests(c).findInstance(Number(inputs.adoptId));
    if (!adoptable)
      failures.add('adoptId', `adoptId: there is no guest ${inputs.adoptId} on this account`);
    else adoptionMismatches(adoptable, inputs, failures);
  }
  // The price needs only what is priced: a key id or user data known after apply still shows it.
  if (failures.list.length > 0 || containsUnknown(PRICED_FIELDS.map((f) => inputs[f]))) return;
  const known = inputs;
  let price;
  try {
    const placed = Object.keys(olds).length > 0 || isKnown(known.adoptId);
    price = await priceOrder(guests(c), placed ? quotedInPlace(known) : known);
  } catch (err) {
    failures.add('startCpus', `the API cannot price this order: ${(err as Error).message}`);
    return;
  }
  const orderKnown = !containsUnknown(ORDER_FIELDS.map((f) => inputs[f]));
  const token = known.adoptId || !orderKnown ? undefined : creationToken(known);
  if (Object.keys(olds).length > 0) {
    await checkReloadPrice(c, olds, known, price, failures);
    if (failures.list.length > 0) return;
    return { creationToken: token, adopts: olds.adopts, ...costOutputs(price) };
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
        costOutputs(await priceOrder(guests(c), { ...known, datacenters: undefined, datacenter })),
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
async function plan({
  connection: c,
  id,
  olds,
  news,
  changed,
}: PlanRequest<GuestFields>): Promise<PlannedChange<GuestFields>> {
  const replaces: FieldName<GuestFields>[] = replacedBy(olds, news);
  const change = { replaces, inPlace: changed.filter((field) => !replaces.includes(field)) };
  const name = news.resourceName ?? id;
  if (replaces.length > 0) {
    announceReplace(name, replaces, olds, news, await endingOf(c, id, olds));
    return change;
  }
  const reloads = reloadedBy(olds, news);
  if (reloads.length > 0) announceReload(name, reloads);
  const upgrades = change.inPlace.filter((field) => (UPGRADE_FIELDS as string[]).includes(field));
  if (upgrades.length > 0) announceUpgrade(name, upgrades, olds, news, reboots(olds, news));
  return change;
}

/** When the guest's billing ends if it is cancelled now (monthly: one call for its billing cycle). */
const endingOf = (c: Connection, id: string, state: GuestState): Promise<Ending> =>
  sharedEnding(
    c.client,
    'Virtual_Guest',
    Number(id),
    billingMode(state.hourlyBillingFlag) === 'hourly',
  );

/**
 * The outputs the table cannot read: where the guest is, what it runs, and what it is billed. On a refresh,
 * what the guest now costs is said against what the account was quoted (states older than the
 * source were quoted too); a list-price estimate differs from the bill by design.
 */
async function outputs({
  connection: c,
  id,
  object: guest,
  state,
  before,
}: OutputsRequest<GuestFields, VirtualGuest>): Promise<GuestState> {
  const price = await guestPrice(guests(c), guest, state);
  const more = {
    datacenter: guest.datacenter?.name ?? state.datacenter,
    // Made from an image template: the OS it runs, the template's.
    operatingSystemReferenceCode:
      state.operatingSystemReferenceCode ?? guest.operatingSystemReferenceCode,
    // Sized by a flavor: its cores and memory, as the guest has them now.
    ...(state.flavorKeyName
      ? { startCpus: guest.startCpus ?? guest.maxCpu, maxMemory: guest.maxMemory }
      : {}),
    ...costOutputs(price),
  };
  const quoted = !String(before?.estimatedCostSource ?? 'account').startsWith('list');
  if (before && quoted && billedPrice(guest)) {
    const now = { ...state, ...more };
    const resized = describeChanges(UPGRADE_FIELDS, before, now);
    announceCostDrift(describe(before, id), before, now, resized);
  }
  return more;
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
  if (!inputs.waitForReady) return guests(c).getInstance(id, DETAIL_MASK);
  return guests(c).waitForReady(id, {
    timeoutMs: readyWaitMs(inputs, request),
    onProgress: progressOf(`VirtualGuest "${inputs.resourceName}" (id ${id})`),
  });
}

async function create({
  connection: c,
  inputs,
  request,
}: CreateRequest<GuestFields>): Promise<Created<GuestFields, VirtualGuest>> {
  const made = await createGuest(c, inputs, (id) => settle(c, id, inputs, request));
  return { id: made.id, object: made.guest, outs: made.outs };
}

const describe = (state: GuestState, id: string) =>
  `VirtualGuest "${state.resourceName ?? ''}" (id ${id})`;

/**
 * A guest being reclaimed was cancelled (outside the stack, or by a destroy that did not wait):
 * it is gone for the stack, and a later `up` orders a new one (it never adopts it).
 */
async function fetch({
  connection: c,
  id,
}: FetchRequest<GuestFields>): Promise<VirtualGuest | GoneForStack | undefined> {
  const guest = await guests(c).findInstance(Number(id), DETAIL_MASK);
  return guest && isReclaiming(guest)
    ? goneForStack('was cancelled and is being reclaimed')
    : guest;
}

/**
 * Brings the guest to the inputs in place: its names, tags and notes, its security groups, its size (an upgrade
 * order), its image (a reload); marks it owned if the create that ordered it could not; and
 * answers it ready.
 */
async function edit({
  connection: c,
  id,
  inputs,
  olds,
  changed,
  request,
}: EditRequest<GuestFields>): Promise<Edited<GuestFields, VirtualGuest>> {
  const guestId = Number(id);
  await converge(c, guestId, inputs);
  if (INTERFACES.some(({ field }) => changed.includes(field))) {
    const declared = {
      securityGroupIds: inputs.securityGroupIds ?? [],
      privateSecurityGroupIds: inputs.privateSecurityGroupIds ?? [],
    };
    const waitMs = readyWaitMs(inputs, request);
    await syncSecurityGroups(c, guestId, describe(inputs, id), declared, waitMs);
  }
  await resize(c, guestId, inputs, request);
  await reloadInPlace(c, guestId, olds, inputs, request);
  const guest = await guests(c).getInstance(guestId, DETAIL_MASK);
  // With the tags just read: the same read serves the outputs.
  await handOverGuest(c, guestId, guest);
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
async function remove({
  connection: c,
  id,
  state,
  request,
}: DeleteRequest<GuestFields>): Promise<string> {
  const what = describe(state, id);
  const guestId = Number(id);
  const before = await guests(c).findInstance(guestId, CANCEL_MASK);
  let ending: Ending = { mode: 'hourly' };
  if (before && !isReclaiming(before)) {
    await guests(c).waitForIdle(
      guestId,
      boundedWait(request, DELETE_WAIT_MS),
      progressOf(what, 'waiting to cancel it'),
    );
    await releaseSecurityGroups(c, guestId, what, request);
    // What a monthly guest still owes, read right before the cancel ends its cycle (a wait for
    // provisioning can last hours).
    ending = await endingOf(c, id, state);
    await writeIdempotent({
      what: `${what} cancellation`,
      write: () => guests(c).cancelInstance(guestId),
      done: async () => {
        const guest = await guests(c).findInstance(guestId, CANCEL_MASK);
        return guest === undefined || isReclaiming(guest);
      },
      windowMs: outcomeWindowMs(),
    });
  }
  const billingId = before?.billingItem?.id;
  const billedTo = billingId === undefined ? undefined : await guests(c).billedUntil(billingId);
  if (billingId !== undefined && billedTo === undefined && before && !isReclaiming(before)) {
    throw new Error(
      `${what}: the API accepted the cancel but billing item ${billingId} shows no cancellation date; the guest stays in the stack and the next \`pulumi destroy\` checks again (it is not cancelled twice)`,
    );
  }
  const owed = 'owed' in ending ? `: $${ending.owed.toFixed(2)} still owed after the cancel` : '';
  const monthly = billingMode(state.hourlyBillingFlag) === 'monthly';
  const billing = !before
    ? 'it was already gone'
    : monthly
      ? `monthly billing item cancelled, billed to its anniversary ${billedTo ?? '(unknown)'}${owed}`
      : `hourly billing stopped at ${billedTo ?? 'the cancel'}`;
  if (state.waitForReclaim !== true) {
    return `cancelled (${billing}); the API reclaims the guest for some minutes more (not waited for: set waitForReclaim: true to wait until it is gone)`;
  }
  say(`${what}: cancelled (${billing}); waiting for the API to reclaim it`);
  await guests(c).waitForIdle(
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
  plan,
  outputs,
  importForm: async ({ connection, inputs }) => importForm(inputs, await catalog(connection)),
  owned: true,
});

import {
  HardwareManager,
  hardwareStatus,
  tagNames,
  isCancelled,
  isProvisioned,
  provisioningFailed,
  type BareMetalServer,
} from '../../managers';
import { poll } from '../../client/poll';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { createVerb, differences, orderOnce, takeoverOf, thenHandOver } from '../order-once';
import { OWNED_TAG } from '../../framework/creation-token';
import { putMark, tagMark } from '../../framework/handed-mark';
import { creationToken } from '../../framework/creation-token';
import {
  goneForStack,
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
  type DeleteRequest,
  type EditRequest,
  type PlanRequest,
} from '../../framework/kind-provider';
import { sayOnce, sayStatus } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { initFailure } from '../../framework/runtime-provider';
import { containsUnknown } from '../../framework/unknown';
import { readComputed, readInputs, type Bag } from '../../framework/fields';
import { describeEnding, endingOf } from '../billing-ending';
import { checkOrder, describeCost, describeOrder, orderOf, type Inputs, type State } from './order';
import { converge, portsOf, reloadInPlace, reloadedBy, replacedBy } from './changes';
import { setNetworkSpeed } from './port-speed';
import { BARE_METAL_FIELDS, type BareMetalFields } from './fields';

/**
 * `BareMetalServer`: a server of the bare-metal package, ordered once (its order carries a
 * creation token as a tag written with the server, so an order whose answer was lost, or a server
 * still provisioning when the CLI was killed, is found and never ordered twice), waited for
 * through hours of provisioning (bounded by `readyTimeoutMinutes` and `customTimeouts`, the id
 * kept when the wait runs out or the provisioning fails), edited and reloaded in place, and
 * cancelled through its billing item: an hourly one at once, a monthly one at its anniversary
 * unless `cancelImmediately`.
 */

export const SERVICE = 'Hardware_Server';
const hardware = (c: Connection) => c.use(HardwareManager);
const name = (v: Partial<State>) => `BareMetalServer "${v.resourceName ?? ''}"`;
const describe = (v: Partial<State>, id: string) => `${name(v)} (id ${id})`;

/** Resources whose replacement `plan` announced (the new half's check prints no second line). */
const replacing = new Set<string>();
const identityOf = (v: Partial<Inputs>) => String(v.provenance ?? v.identity ?? v.resourceName);

/** How long a wait for the server may last from now (its input, cut to the engine's deadline). */
const waitMs = (inputs: Partial<Inputs>, request?: OperationRequest) =>
  boundedWait(request, Number(inputs.readyTimeoutMinutes ?? 480) * 60_000);

/**
 * Waits until the server is provisioned and idle. The id is kept (`initFailure`) when the wait
 * runs out (the next `up` waits again, it never orders again) and when its provisioning failed
 * (said as such: `pulumi destroy` cancels it).
 */
async function settled(
  c: Connection,
  id: number,
  inputs: Partial<Inputs>,
  request: OperationRequest | undefined,
  kept: Record<string, unknown>,
): Promise<BareMetalServer> {
  const what = describe(inputs, String(id));
  const timeoutMs = waitMs(inputs, request);
  const { value, done } = await poll(
    () => hardware(c).getServer(id),
    (s) => provisioningFailed(s) || (isProvisioned(s) && !s.activeTransaction?.id),
    {
      timeoutMs,
      firstMs: 500,
      growth: 1.5,
      maxMs: 30_000,
      onPending: (s, elapsedMs) => sayStatus(what, hardwareStatus(s), elapsedMs),
    },
  );
  const keep = (message: string) => initFailure(message, String(id), { ...inputs, ...kept });
  if (provisioningFailed(value))
    throw keep(
      `${what}: its provisioning failed (${hardwareStatus(value)}); the server is kept in the stack so that \`pulumi destroy\` cancels it (nothing more is ordered)`,
    );
  if (!done)
    throw keep(
      `${what}: not ready after ${Math.round(timeoutMs / 1000)} s (${hardwareStatus(value)}); it is kept in the stack and the next \`pulumi up\` waits for it again (no new order)`,
    );
  return value;
}

/** How `s` differs from what an order of `inputs` makes, in what replaces a server. */
const orderedOtherwise = (s: BareMetalServer, inputs: Inputs) => {
  // Its own ports, not the declared `maxNetworkSpeed` (check's, of the new order): against those,
  // the faster speed a replace orders would read as one set in place on the server it replaces.
  const read: Bag = {
    ...readInputs(BARE_METAL_FIELDS, s, inputs),
    maxNetworkSpeed: readComputed(BARE_METAL_FIELDS, s).maxNetworkSpeed,
  };
  const declared: Record<string, unknown> = inputs;
  return differences(replacedBy(read, inputs).map((f) => [f, read[f], declared[f]]));
};

/** Checks every input against the package and prices the order; says what a create bills. */
async function checkWithApi({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<BareMetalFields>) {
  const token = olds.creationToken ?? creationToken(inputs);
  const price = await checkOrder(hardware(c), inputs, olds, token, failures);
  if (!price || Object.keys(olds).length > 0) return price && { creationToken: token, ...price };
  const taken = containsUnknown(Object.values(inputs))
    ? {}
    : await takeoverOf(earlier(c, inputs as Inputs, token));
  const adopts = taken.adopts;
  if (!replacing.has(identityOf(inputs))) {
    const verb = createVerb('server', taken, 'orders a new bare metal server');
    sayOnce(
      `BILLING create ${name(inputs)} ${verb}: ${describeOrder(inputs)}; ${describeCost({ ...inputs, ...price })}`,
    );
  }
  return { creationToken: token, adopts, ...price };
}

/** Its handed mark: the owned tag beside its token (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number) =>
  tagMark(
    `server ${id}`,
    async () => tagNames(await hardware(c).getServer(id, 'id,tagReferences.tag.name')),
    (tags) => hardware(c).setTags(id, tags),
  );

/** The live servers carrying the token, which were handed, and how each differs from the order. */
const earlier = (c: Connection, inputs: Inputs, token: string) => ({
  what: name(inputs),
  noun: 'server',
  token,
  found: async () => (await hardware(c).listTagged(token)).filter((s) => !isCancelled(s)),
  handed: (s: BareMetalServer) => tagNames(s).includes(OWNED_TAG),
  differs: (s: BareMetalServer) => orderedOtherwise(s, inputs),
});

async function create({ connection: c, inputs, request }: CreateRequest<BareMetalFields>) {
  const token = inputs.creationToken ?? creationToken(inputs);
  const manager = hardware(c);
  const what = name(inputs);
  const container = await manager.orderContainer(orderOf(inputs, token));
  const server = await orderOnce({
    ...earlier(c, inputs, token),
    place: () => manager.place(container),
  });
  const outs = { creationToken: token };
  return thenHandOver(
    server,
    handedMark(c, server.id),
    { ...inputs, ...outs },
    async () => {
      await converge(c, server.id, inputs, what);
      const ready = await settled(c, server.id, inputs, request, outs);
      return { id: server.id, object: ready, outs };
    },
    (message) =>
      `${what}: server ${server.id} was ordered, then ${message}; it is kept in the stack and the next \`pulumi up\` sets its names, notes and tags again`,
  );
}

/**
 * Brings the server to the inputs in place: waits for a provisioning an earlier create left
 * running, then its names, notes and tags, its uplinks' speed, then its OS (a reload) when asked.
 */
async function edit({ connection: c, id, inputs, olds, request }: EditRequest<BareMetalFields>) {
  const serverId = Number(id);
  const what = describe(olds, id);
  await settled(c, serverId, inputs, request, {});
  await converge(c, serverId, inputs, what);
  // The state holds it: a server kept by a create that failed (or a cancelled one) is marked now.
  await putMark(handedMark(c, serverId));
  await setNetworkSpeed(c, serverId, inputs, what, waitMs(inputs, request));
  if (await reloadInPlace(c, serverId, olds, inputs, what))
    return { object: await settled(c, serverId, inputs, request, {}) };
}

/** A replace is priced (the new order, the old server's cost and ending); a reload is said. */
async function plan({ connection: c, id, olds, news, changed }: PlanRequest<BareMetalFields>) {
  const replaces = replacedBy(olds, news);
  const inPlace = changed.filter((f) => !replaces.includes(f));
  if (replaces.length > 0) {
    replacing.add(identityOf(news));
    const ending = await endingOf(c.client, SERVICE, Number(id), olds.hourlyBilling !== false);
    const immediate =
      olds.hourlyBilling === false && olds.cancelImmediately
        ? '; cancelImmediately: it is cancelled at once, what is left of its month still owed'
        : '';
    sayOnce(
      `BILLING replace ${describe(olds, id)} (changed: ${replaces.join(', ')}): orders a new bare metal server (${describeOrder(news)}) at ${describeCost(news)}, cancels the old one at ${describeCost(olds)} (${describeEnding(ending)}${immediate}); the new server starts from a fresh install`,
    );
  } else {
    if (inPlace.includes('networkSpeed'))
      sayOnce(
        `${describe(olds, id)} runs its uplinks at ${news.networkSpeed} Mbps, set in place (its ports are ${portsOf(olds)} Mbps): same server and bill`,
      );
    const reloads = reloadedBy(olds, news);
    if (reloads.length > 0)
      sayOnce(
        `${describe(olds, id)} is reloaded in place (changed: ${reloads.join(', ')}): same server, id, addresses and bill; its disks are erased`,
      );
  }
  return { replaces, inPlace };
}

async function remove({ connection: c, id, state }: DeleteRequest<BareMetalFields>) {
  const manager = hardware(c);
  const serverId = Number(id);
  const what = describe(state, id);
  const current = await manager.findServer(serverId);
  if (!current?.billingItem) return `${what} is already gone`;
  if (isCancelled(current))
    return `${what} was already cancelled (billed until ${current.billingItem.cancellationDate})`;
  const hourly = current.billingItem.hourlyFlag === true;
  const immediate = hourly || state.cancelImmediately === true;
  const ending = await endingOf(c.client, SERVICE, serverId, hourly);
  const billingItemId = current.billingItem.id;
  await writeIdempotent({
    what: `${what} cancel`,
    write: () => manager.cancel(billingItemId, immediate, 'Deleted by Pulumi'),
    done: async () => {
      const s = await manager.findServer(serverId);
      return s === undefined || isCancelled(s);
    },
    windowMs: freeWriteWindowMs(),
  });
  if (hourly) return `${what} cancelled at once: its hourly billing stops now`;
  const owed = 'owed' in ending ? `$${ending.owed.toFixed(2)}` : 'what is left of its month';
  return immediate
    ? `${what} cancelled at once (cancelImmediately): ${owed} of its month is still owed`
    : `${what} cancelled at its billing anniversary (${describeEnding(ending)}); it runs until then, then it is gone`;
}

export const bareMetalServerProvider = kindProvider(BARE_METAL_FIELDS, {
  describe,
  fetch: async ({ connection, id }) => {
    const s = await hardware(connection).findServer(Number(id));
    if (s && isCancelled(s))
      return goneForStack('was cancelled and ends at its billing anniversary');
    return s;
  },
  checkWithApi,
  create,
  edit,
  editAlways: true,
  plan,
  delete: remove,
  owned: true,
});

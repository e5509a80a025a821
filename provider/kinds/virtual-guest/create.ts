import { guests } from './guests';
import {
  DETAIL_MASK,
  WaitTimeoutError,
  isReclaiming,
  tagNames,
  type VirtualGuest,
} from '../../managers';
import { changedFields } from '../../framework/compare';
import { initFailure } from '../../framework/runtime-provider';
import { freeWriteWindowMs, outcomeWindowMs, type Connection } from '../../framework/connection';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { handOver, tagMark } from '../../framework/handed-mark';
import { say } from '../../framework/log';
import { accountIdOf } from '../../framework/owner';
import { describeCost, type BilledCost } from './billing';
import { ORDER_FIELDS, guestTemplate, type GuestInputs } from './inputs';
import { observedInputs } from './observe';
import { PLACEMENT_FIELDS, choices, isCapacityFault, placementMismatch } from './placement';
import { OWNED_TAG, isOwned, providerTags } from './provenance';
import { TOKEN_TAG_PREFIX, creationToken, isProviderTag } from '../../framework/creation-token';
import type { StateOf } from '../../framework/fields';
import type { GUEST_FIELDS } from './fields';

/**
 * What the order fixes: a candidate that differs in any of these is not this resource's guest
 * (where it is: in any of the datacenters the inputs may order it in).
 */
const ORDERED_FIELDS = ORDER_FIELDS.filter(
  (field) => field !== 'adoptId' && !PLACEMENT_FIELDS.includes(field),
);

const ids = (guests: VirtualGuest[]) => guests.map((g) => g.id).join(', ');

/** The ordered fields where `guest` differs from the inputs, as `field: guest's vs declared`. */
function orderedMismatches(guest: VirtualGuest, inputs: GuestInputs): string[] {
  const observed = observedInputs(guest, inputs);
  const declared = inputs;
  const placement = placementMismatch(guest.datacenter?.name, declared);
  return [
    ...(placement ? [placement] : []),
    ...changedFields(declared, observed, ORDERED_FIELDS).map(
      (field) =>
        `${field} ${JSON.stringify(observed[field] ?? null)} (declared ${JSON.stringify(declared[field] ?? null)})`,
    ),
  ];
}

/** Guests carrying `token` that no completed create has handed to a state yet. */
async function unfinished(c: Connection, token: string): Promise<VirtualGuest[]> {
  return (await guests(c).listTagged(token, DETAIL_MASK)).filter(
    (guest) => !isOwned(guest) && !isReclaiming(guest),
  );
}

/**
 * What earlier creates of this resource left: guests handed to a state since (never adopted), and
 * the one guest an unfinished create made, if any. Several such guests, or one whose ordered
 * fields differ from the inputs, are a conflict: neither is adopted, nothing is ordered.
 */
export interface EarlierAttempt {
  owned: VirtualGuest[];
  guest?: VirtualGuest;
  conflict?: string;
}

/** How long the checks of a run answer from one listing of the tokens in use. */
const TOKENS_SEEN_MS = 60_000;
const tokenListings = new WeakMap<Connection, { at: number; tokens: Promise<Set<string>> }>();

/**
 * The provider's tags carried by the account's guests, from one listing (ids and tags) shared by
 * the checks of a run: the engine checks resources one after the other, so a listing per check was
 * the largest share of an `up`'s calls. A check only announces what its create will bill; the
 * create itself always looks again before it orders.
 */
function tokensInUse(c: Connection): Promise<Set<string>> {
  const seen = tokenListings.get(c);
  if (seen && Date.now() - seen.at < TOKENS_SEEN_MS) return seen.tokens;
  const tokens = guests(c)
    .listInstances({ tagPrefix: TOKEN_TAG_PREFIX, mask: 'id,tagReferences.tag.name' })
    .then((guests) => new Set(guests.flatMap((guest) => tagNames(guest).filter(isProviderTag))));
  tokens.catch(() => tokenListings.delete(c));
  tokenListings.set(c, { at: Date.now(), tokens });
  return tokens;
}

export async function earlierAttempt(
  c: Connection,
  name: string,
  token: string,
  inputs: GuestInputs,
  listing: 'gathered' | 'now' | 'seen' = 'gathered',
): Promise<EarlierAttempt> {
  // Creates run in parallel and share one listing (gathered); a cancelled create asks at once;
  // checks ask only for a token that the run's listing of tokens in use holds (seen).
  if (listing === 'seen' && !(await tokensInUse(c)).has(token)) return { owned: [] };
  const tagged =
    listing === 'gathered'
      ? await guests(c).listTagged(token, DETAIL_MASK)
      : await guests(c).listInstances({ tags: [token], mask: DETAIL_MASK });
  // A guest being reclaimed was cancelled: never adopted, never in the way of a new order.
  const live = tagged.filter((guest) => !isReclaiming(guest));
  const owned = live.filter(isOwned);
  const candidates = live.filter((guest) => !isOwned(guest));
  if (candidates.length > 1) {
    return {
      owned,
      conflict: `VirtualGuest "${name}": guests ${ids(candidates)} all carry this resource's creation token ${token} from unfinished creates; none is adopted and nothing is ordered. Keep one by setting adoptId to its id, and cancel the others.`,
    };
  }
  const [candidate] = candidates;
  const mismatches = candidate ? orderedMismatches(candidate, inputs) : [];
  if (mismatches.length > 0) {
    return {
      owned,
      conflict: `VirtualGuest "${name}": guest ${candidate.id} was ordered by an earlier unfinished create of this resource (creation token ${token}) but does not match what the resource declares now: ${mismatches.join(', ')}. It is not adopted and nothing is ordered: declare what it has, or adopt it with adoptId: "${candidate.id}" and change it through a replacement, or cancel guest ${candidate.id} if it is not wanted.`,
    };
  }
  return { owned, guest: candidate };
}

/**
 * Orders the guest, or finds the one an earlier attempt of this very create (or `adoptId`) names.
 * `ordered` says it was ordered just now, with everything declared, so it needs no converging.
 */
async function orderOrRecover(
  c: Connection,
  inputs: GuestInputs,
): Promise<{ guest: VirtualGuest; ordered: boolean }> {
  const name = inputs.resourceName;
  if (inputs.adoptId) {
    const guest = await guests(c).getInstance(Number(inputs.adoptId), DETAIL_MASK);
    if (isOwned(guest)) {
      throw new Error(
        `VirtualGuest "${name}": adoptId ${inputs.adoptId} names a guest that a Pulumi stack already owns (it carries the tag ${OWNED_TAG}); two stacks managing one guest would delete it under each other. Remove it from the stack that owns it and remove that tag first.`,
      );
    }
    say(`VirtualGuest "${name}": adopting existing guest ${guest.id}`);
    return { guest, ordered: false };
  }
  const token = inputs.creationToken ?? creationToken(inputs);
  const { owned, guest: earlier, conflict } = await earlierAttempt(c, name, token, inputs);
  if (owned.length > 0) {
    say(
      `VirtualGuest "${name}": guest(s) ${ids(owned)} carry this resource's creation token but were handed to a state by a completed create (replaced, retained, forgotten, or another stack's); not adopted`,
    );
  }
  if (conflict) throw new Error(conflict);
  if (earlier) {
    say(
      `VirtualGuest "${name}": guest ${earlier.id} was ordered by an earlier unfinished create of this resource; adopting it, no new order`,
    );
    return { guest: earlier, ordered: false };
  }
  say(
    `VirtualGuest "${name}": ordering ${inputs.hostname}.${inputs.domain} (${describeCost(inputs as GuestInputs & Partial<BilledCost>)})`,
  );
  const guest = await orderInTurn(c, inputs, token);
  return { guest, ordered: true };
}

/**
 * Orders the guest in each datacenter of its choices in turn, on to the next only while the API
 * answers that one has no room (nothing was ordered there). Every order carries the one creation
 * token, so an unknown outcome is looked for, and found, wherever it landed; an unknown outcome
 * or any other fault stops here (the next `up` looks for the token before it orders).
 */
async function orderInTurn(c: Connection, inputs: GuestInputs, token: string) {
  const name = inputs.resourceName;
  const full: string[] = [];
  const datacenters = choices(inputs);
  for (const datacenter of datacenters) {
    try {
      return await createOnce({
        what: `VirtualGuest "${name}" order${datacenters.length > 1 ? ` in ${datacenter}` : ''}`,
        write: () =>
          guests(c).createFromTemplate(
            guestTemplate({ ...inputs, datacenter }, [...inputs.tags, token]),
          ),
        find: async () => {
          const found = await unfinished(c, token);
          if (found.length > 1) throw new Error(`guests ${ids(found)} all carry token ${token}`);
          return found[0];
        },
        windowMs: outcomeWindowMs(),
        nextRun: `The next \`pulumi up\` looks for a guest tagged ${token} again before it orders one.`,
      });
    } catch (err) {
      if (!isCapacityFault(err)) throw err;
      full.push(`${datacenter} (${err.faultCode}: ${err.faultString})`);
      say(`VirtualGuest "${name}": ${datacenter} has no room; nothing was ordered there`);
    }
  }
  throw new Error(
    `VirtualGuest "${name}": no datacenter it may be ordered in has room, so nothing was ordered: ${full.join('; ')}. Run \`pulumi up\` again later, or list more datacenters in datacenters`,
  );
}

/** The guest's tags as they are now. */
const tagsNow = async (c: Connection, id: number) =>
  tagNames(await guests(c).getInstance(id, 'id,tagReferences.tag.name'));

/** Its handed mark: the owned tag beside its token (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number) =>
  tagMark(
    `guest ${id}`,
    () => tagsNow(c, id),
    (tags) => guests(c).setTags(id, tags),
  );

/**
 * Marks the guest handed to a state (the owned tag, its other tags kept), with the claim
 * registered before the write (framework/handed-mark.ts). Done last, right before the engine
 * records the id, so that a create killed before it leaves a guest the next attempt can still
 * recognise as its own. `known`: the guest as just read, which spares a read when it is marked.
 */
export async function handOverGuest(c: Connection, id: number, known?: VirtualGuest) {
  if (known && isOwned(known)) return;
  await handOver(handedMark(c, id));
}

/**
 * Hostname, domain, notes and user tags as declared (an adopted earlier attempt may differ). Reads
 * the guest first: the provider's own tags must be kept, and an order's answer does not list them.
 */
export async function converge(c: Connection, id: number, inputs: GuestInputs): Promise<void> {
  const guest = await guests(c).getInstance(id, DETAIL_MASK);
  const observed = observedInputs(guest, inputs);
  const declared = inputs;
  const changed = new Set(
    changedFields(observed, declared, ['hostname', 'domain', 'notes', 'tags']),
  );
  const fields = (['hostname', 'domain', 'notes'] as const).filter((f) => changed.has(f));
  const edit = Object.fromEntries(fields.map((f) => [f, inputs[f] ?? '']));
  const tags = changed.has('tags') ? [...inputs.tags, ...providerTags(guest)] : undefined;
  if (fields.length === 0 && !tags) return;
  say(
    `VirtualGuest "${inputs.resourceName}" (id ${guest.id}): updating ${[...changed].join(', ')} in place`,
  );
  const current = async () =>
    observedInputs(await guests(c).getInstance(guest.id, DETAIL_MASK), inputs);
  await writeIdempotent({
    what: `VirtualGuest "${inputs.resourceName}" (id ${guest.id}) edit`,
    write: () => guests(c).editInstance(guest.id, { ...edit, tags }),
    done: async () => changedFields(await current(), declared, [...changed]).length === 0,
    windowMs: freeWriteWindowMs(),
  });
}

export interface Settle {
  /** Waits for readiness (if asked) and reads the guest. */
  (id: number): Promise<VirtualGuest>;
}

/**
 * Orders (or recovers) the guest, then, with its id known, brings it to the declared state. Every
 * failure after the id is known keeps it: the error carries the id, so the engine records the
 * guest in the state and `refresh`, `up` and `destroy` see it.
 */
export function createGuest(
  c: Connection,
  inputs: GuestInputs,
  settle: Settle,
): Promise<{ id: number; guest: VirtualGuest; outs: Partial<StateOf<typeof GUEST_FIELDS>> }> {
  return (async () => {
    const { guest, ordered } = await orderOrRecover(c, inputs);
    const id = guest.id;
    const token = inputs.adoptId ? undefined : (inputs.creationToken ?? creationToken(inputs));
    const datacenter = guest.datacenter?.name ?? inputs.datacenter;
    // The order's answer names the account (no call); read inside, so a failure keeps the id.
    let accountId: number | undefined;
    try {
      accountId = await accountIdOf(c, guest);
      if (!ordered) await converge(c, id, inputs);
      const settled = await settle(id);
      await handOverGuest(c, id, settled);
      return { id, guest: settled, outs: { creationToken: token, accountId } };
    } catch (err) {
      await handOverGuest(c, id).catch((claimErr: Error) =>
        say(
          `VirtualGuest "${inputs.resourceName}" (id ${id}): could not mark it owned yet (${claimErr.message}); the next \`pulumi up\` does`,
        ),
      );
      const message =
        err instanceof WaitTimeoutError
          ? `${err.message}; the guest is kept in the stack and the next \`pulumi up\` waits for it again (no new order)`
          : `VirtualGuest "${inputs.resourceName}": guest ${id} was ordered, then this failed: ${(err as Error).message}. The guest is kept in the stack (id ${id}); the next \`pulumi up\` carries on with it (no new order), \`pulumi destroy\` cancels it`;
      const kept = { ...inputs, datacenter, creationToken: token, guestId: id, accountId };
      throw initFailure(message, String(id), { ...kept, status: 'unknown' });
    }
  })();
}

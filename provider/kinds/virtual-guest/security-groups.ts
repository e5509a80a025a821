import { SvcAPIError } from '../../client';
import { poll } from '../../client/poll';
import {
  INTERFACE_MASK,
  SecurityGroupManager,
  type GuestNetworkComponent,
  type VirtualGuest,
} from '../../managers';
import { IDLE_PACE } from '../../managers/paces';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { boundGroupIds } from './api-forms';
import { guests } from './guests';

/**
 * A guest's security groups, one list per interface (`securityGroupIds` the public one,
 * `privateSecurityGroupIds` the private one): given in the order, then attached and detached in
 * place. The API applies an attach or a detach later than it answers it, so a change is waited
 * for until the bindings in force are the declared ones; a write whose answer was lost is looked
 * for, and a repeat the API answers with "already bound" / "not bound" is that write's effect.
 */

export const INTERFACES = [
  { field: 'securityGroupIds', nic: 'primaryNetworkComponent', what: 'public' },
  { field: 'privateSecurityGroupIds', nic: 'primaryBackendNetworkComponent', what: 'private' },
] as const;

type GroupField = (typeof INTERFACES)[number]['field'];
type GroupInputs = Record<GroupField, number[]>;

const BINDINGS_MASK = `id,primaryNetworkComponent[${INTERFACE_MASK}],primaryBackendNetworkComponent[${INTERFACE_MASK}]`;

const groups = (c: Connection) => c.use(SecurityGroupManager);

const given = (ids: unknown): ids is number[] => Array.isArray(ids) && ids.length > 0;

/** A private-only guest has no public interface to bind groups to (no API call). */
export function checkSecurityGroupRules(
  inputs: { privateNetworkOnly?: unknown; securityGroupIds?: unknown },
  failures: Failures,
): void {
  if (inputs.privateNetworkOnly === true && given(inputs.securityGroupIds))
    failures.add(
      'securityGroupIds',
      'securityGroupIds binds groups to the public interface, which a guest with privateNetworkOnly does not have: bind them with privateSecurityGroupIds',
    );
}

/** Each group named is one of the account's (one listing for both fields). */
export async function checkSecurityGroupsExist(
  c: Connection,
  inputs: Partial<Record<GroupField, unknown>>,
  failures: Failures,
): Promise<void> {
  const named = INTERFACES.filter(({ field }) => given(inputs[field]) && isKnown(inputs[field]));
  if (named.length === 0) return;
  const mine = new Set((await groups(c).listGroups('id')).map((g) => g.id));
  for (const { field } of named) {
    for (const id of inputs[field] as unknown[]) {
      if (typeof id === 'number' && !mine.has(id))
        failures.add(
          field,
          `${field}: there is no security group ${id} on this account (it does not exist, or belongs to another account)`,
        );
    }
  }
}

/** The bindings in force on each interface, as declared inputs. */
const boundNow = (guest: VirtualGuest): GroupInputs =>
  Object.fromEntries(
    INTERFACES.map(({ field, nic }) => [field, boundGroupIds(guest[nic])]),
  ) as GroupInputs;

const sameIds = (a: number[], b: number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

const sameGroups = (now: GroupInputs, declared: GroupInputs) =>
  INTERFACES.every(({ field }) => sameIds(now[field], declared[field]));

/** A repeat of a write whose first send the API applied: its effect, not a failure. */
const alreadyDone = (err: unknown) =>
  err instanceof SvcAPIError && /already bound|is not bound/i.test(err.faultString);

/** Sends one attach or detach of `group` on `nic`, at most once more after a lost answer. */
async function bindingWrite(
  c: Connection,
  what: string,
  action: 'attach' | 'detach',
  group: number,
  nic: GuestNetworkComponent,
  isDone: () => Promise<boolean>,
): Promise<void> {
  await writeIdempotent({
    what: `${what}: ${action} security group ${group} (interface ${nic.id})`,
    write: async () => {
      try {
        await groups(c)[action](group, [nic.id]);
      } catch (err) {
        if (!alreadyDone(err)) throw err;
      }
    },
    done: isDone,
    windowMs: freeWriteWindowMs(),
  });
}

/**
 * Makes the groups bound to the guest's interfaces the declared ones (`declared` undefined: none,
 * as before a cancel) and waits until the API shows them in force, bounded by `waitMs`.
 */
export async function syncSecurityGroups(
  c: Connection,
  guestId: number,
  what: string,
  declared: GroupInputs,
  waitMs: number,
): Promise<void> {
  const read = () => guests(c).getInstance(guestId, BINDINGS_MASK);
  const guest = await read();
  const now = boundNow(guest);
  if (sameGroups(now, declared)) return;
  for (const { field, nic, what: side } of INTERFACES) {
    const component = guest[nic];
    const wanted = declared[field];
    if (!component) {
      if (wanted.length > 0)
        throw new Error(`${what}: ${field}: the guest has no ${side} interface to bind groups to`);
      continue;
    }
    const inForce = async (group: number, bound: boolean) =>
      boundNow(await read())[field].includes(group) === bound;
    for (const group of now[field].filter((id) => !wanted.includes(id)))
      await bindingWrite(c, what, 'detach', group, component, () => inForce(group, false));
    for (const group of wanted.filter((id) => !now[field].includes(id)))
      await bindingWrite(c, what, 'attach', group, component, () => inForce(group, true));
  }
  const { value, done } = await poll(read, (g) => sameGroups(boundNow(g), declared), {
    ...IDLE_PACE,
    timeoutMs: waitMs,
  });
  if (!done) {
    const shown = INTERFACES.map(
      ({ field }) => `${field} ${JSON.stringify(boundNow(value)[field])}`,
    );
    throw new Error(
      `${what}: the API accepted the security group changes but had not applied them after ${Math.round(waitMs / 1000)} s (in force: ${shown.join(', ')}); the next \`pulumi up\` checks again`,
    );
  }
}

/** Detaching a guest's groups before its cancel is waited for this long at most. */
const RELEASE_WAIT_MS = 10 * 60_000;

/**
 * Before a guest is cancelled: its security groups are detached and the detach waited for, so a
 * group deleted in the same run (after the guest) is no longer bound to it. Nothing when none is.
 */
export function releaseSecurityGroups(
  c: Connection,
  guestId: number,
  what: string,
  request: OperationRequest | undefined,
): Promise<void> {
  const none = { securityGroupIds: [], privateSecurityGroupIds: [] };
  return syncSecurityGroups(c, guestId, what, none, boundedWait(request, RELEASE_WAIT_MS));
}

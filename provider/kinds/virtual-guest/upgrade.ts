import { guests } from './guests';
import {
  SIZE_MASK,
  WaitTimeoutError,
  guestStatus,
  sizeOf,
  upgradeChanges,
  type UpgradeSpec,
} from '../../managers';
import { changedFields } from '../../framework/compare';
import type { Failures } from '../../framework/failures';
import { isKnown, isUnknown } from '../../framework/unknown';
import { outcomeWindowMs, type Connection } from '../../framework/connection';
import { createOnce } from '../../framework/exactly-once';
import { say } from '../../framework/log';
import { fieldsWhere } from '../../framework/fields';
import { GUEST_FIELDS, type GuestField } from './fields';
import { progressOf, readyWaitMs } from './observe';
import type { OperationRequest } from '../../framework/operation';
import { UPGRADE_FIELDS, type GuestInputs } from './inputs';
import { replacedBy } from './reload';

/**
 * CPUs, memory, port speed and disks change in place through one upgrade order: the guest keeps
 * its id, addresses, disks' data, notes and tags. The order is placed at most once: before
 * ordering, the guest's size and transactions are read (an earlier run's upgrade may be running
 * or done), and an order whose answer is lost is looked for, never sent again.
 */

/** The upgrade order's size of the inputs, under the names the field table gives (`upgradeAs`). */
export const upgradeSpec = (inputs: GuestInputs): UpgradeSpec =>
  Object.fromEntries(
    // A field left out (null included: a size a flavor gives) is not changed.
    UPGRADE_FIELDS.map((field) => [
      (GUEST_FIELDS[field] as GuestField).upgradeAs,
      inputs[field] ?? undefined,
    ]),
  ) as UpgradeSpec;

const REBOOTING_FIELDS = fieldsWhere(GUEST_FIELDS, 'reboots', true);
const REBOOTING_SPEC = REBOOTING_FIELDS.map(
  (field) => (GUEST_FIELDS[field] as GuestField).upgradeAs as 'flavor' | 'cpus' | 'memory',
);

/** Whether going from `olds` to `news` reboots the guest (a CPU or memory change does). */
export const reboots = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
  changedFields(olds, news, REBOOTING_FIELDS).length > 0;

const knownList = (value: unknown): number[] | undefined =>
  Array.isArray(value) && !value.some(isUnknown) ? (value as number[]) : undefined;

/**
 * In `check`, before any call: a disk that would shrink or disappear on a guest that is kept (no
 * change replaces it) is refused, naming the disk, since the API cannot do that to a running guest.
 */
export function checkResize(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  failures: Failures,
): void {
  const before = knownList(olds.disks);
  const after = knownList(news.disks);
  if (!before || !after || !isKnown(news.disks)) return;
  if (replacedBy(olds, news).length > 0) return; // a new guest is ordered
  const fix =
    'keep it, or order a new guest with it by replacing this one (`pulumi up --replace <urn>`)';
  if (after.length < before.length) {
    failures.add(
      'disks',
      `disks: the guest has ${before.length} disks (${before.join(', ')} GB) and ${after.length} are declared: a disk cannot be removed from a running guest; ${fix}`,
    );
    return;
  }
  const shrunk = after.findIndex((gb, i) => before[i] !== undefined && gb < before[i]);
  if (shrunk >= 0) {
    failures.add(
      'disks',
      `disks[${shrunk}] ${before[shrunk]} GB -> ${after[shrunk]} GB: a disk can only grow, the API cannot shrink the disk of a running guest; ${fix}`,
    );
  }
}

/** Brings the guest to the declared size (no order when it has it already). */
export async function resize(
  c: Connection,
  id: number,
  inputs: GuestInputs,
  request?: OperationRequest,
): Promise<void> {
  const what = `VirtualGuest "${inputs.resourceName}" (id ${id})`;
  const spec = upgradeSpec(inputs);
  const progress = progressOf(what);
  let guest = await guests(c).getInstance(id, SIZE_MASK);
  if (guest.activeTransaction?.id) {
    // An earlier run's upgrade (or anything else) is running: let it finish, then look again.
    say(`${what}: a transaction is running (${guestStatus(guest)}); waiting before resizing`);
    await guests(c).waitForIdle(id, readyWaitMs(inputs, request), progress);
    guest = await guests(c).getInstance(id, SIZE_MASK);
  }
  const size = sizeOf(guest);
  const changes = upgradeChanges(id, size, spec);
  if (changes.length === 0) return;
  const reboot = REBOOTING_SPEC.some((k) => spec[k] !== undefined && spec[k] !== size[k])
    ? '; the guest reboots'
    : '';
  say(`${what}: upgrading in place (${changes.join(', ')}) with one upgrade order${reboot}`);
  const order = await guests(c).priceUpgrade(id, size, spec);
  await guests(c).verifyUpgrade(order); // the API's refusals, before anything is ordered
  await createOnce({
    what: `${what} upgrade order`,
    write: async () => {
      await guests(c).upgrade(order);
      return true;
    },
    find: async () =>
      (await guests(c).upgradeProgress(id, spec)) === 'not-seen' ? undefined : true,
    windowMs: outcomeWindowMs(),
    nextRun:
      "The next `pulumi up` reads the guest's size and transactions again before it orders an upgrade.",
  });
  try {
    await guests(c).waitForUpgrade(id, spec, {
      timeoutMs: readyWaitMs(inputs, request),
      onProgress: progress,
    });
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
    throw new Error(
      `${err.message}: the upgrade was ordered; the next \`pulumi up\` waits for it again (no second order)`,
    );
  }
  say(`${what}: upgraded in place (${changes.join(', ')})`);
}

import type { Connection } from '../../framework/connection';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';
import { findObject } from './account-object';
import { withFlavorSize } from './catalog';
import { API_ORDER_DEFAULTS } from './import-form';
import { choices } from './placement';

/**
 * `dedicatedHostId`: the account's dedicated host a guest is ordered onto (the order's
 * `dedicatedHost: {id}`, as the reference client's `host_id`), or `dedicatedAccountHostOnlyFlag`:
 * a host of the account's own that the API chooses. A guest stays on its host, so a change of
 * either replaces it. The API refuses an order onto a host of another datacenter or without room
 * for the guest's cores, memory and disk (its capacity fault, after nothing is billed); `check`
 * says so first, naming the field, the host and what it has free.
 */

const FIELD = 'dedicatedHostId';

/** `Svc_Virtual_DedicatedHost` as the check reads it. */
interface Host {
  id: number;
  name?: string;
  datacenter?: { name?: string };
  allocationStatus?: { cpuAvailable?: number; memoryAvailable?: number; diskAvailable?: number };
}

const MASK = 'id,name,datacenter.name,allocationStatus[cpuAvailable,memoryAvailable,diskAvailable]';

interface HostInputs {
  adoptId?: unknown;
  dedicatedHostId?: unknown;
  dedicatedAccountHostOnlyFlag?: unknown;
  flavorKeyName?: unknown;
  startCpus?: unknown;
  maxMemory?: unknown;
  disks?: unknown;
  datacenter?: unknown;
  datacenters?: unknown;
}

/** The guest is on its host already (an update, an adoption): it takes no new room there. */
const onItAlready = (inputs: HostInputs, olds: HostInputs) =>
  olds.dedicatedHostId === inputs.dedicatedHostId || isKnown(inputs.adoptId);

/**
 * The inputs a guest that exists is quoted by: one on a dedicated host as an order onto a host
 * of the account's own (the API refuses an order onto its very host when the host is full, and
 * that guest takes no new room there). What it is billed is its billing item's.
 */
export const quotedInPlace = <T extends HostInputs>(inputs: T): T =>
  typeof inputs.dedicatedHostId === 'number'
    ? { ...inputs, dedicatedHostId: undefined, dedicatedAccountHostOnlyFlag: true }
    : inputs;

/** A named host and the flag are two ways of saying where: one at most. */
export function checkHostRules(inputs: HostInputs, failures: Failures): void {
  const named = inputs.dedicatedHostId !== undefined && inputs.dedicatedHostId !== null;
  if (named && inputs.dedicatedAccountHostOnlyFlag === true)
    failures.add(
      'dedicatedAccountHostOnlyFlag',
      'dedicatedAccountHostOnlyFlag conflicts with dedicatedHostId: a guest on a named dedicated host is on the account’s own host already; give one of them',
    );
}

/**
 * What a guest of these inputs takes of a host: cores, memory (GB), disk (GB); a flavor's are
 * its cores, memory and boot disk (a flavor guest gives neither `startCpus` nor `maxMemory`).
 */
function needs(given: HostInputs): { cpu: number; memory: number; disk: number } | undefined {
  const inputs = withFlavorSize(given);
  const disks = Array.isArray(inputs.disks) ? inputs.disks : API_ORDER_DEFAULTS.disks;
  const { startCpus: cpu, maxMemory } = inputs;
  if (typeof cpu !== 'number' || typeof maxMemory !== 'number' || !disks.every(isKnown))
    return undefined;
  return { cpu, memory: maxMemory / 1024, disk: (disks as number[]).reduce((a, b) => a + b, 0) };
}

/** How the inputs give the guest's size, for the error: its flavor, or its cores and memory. */
function sizeOf(inputs: HostInputs): string {
  const flavor = inputs.flavorKeyName;
  const size =
    flavor !== undefined
      ? `flavorKeyName ${flavor}`
      : `startCpus ${inputs.startCpus}, maxMemory ${inputs.maxMemory}`;
  const disks = inputs.disks ?? (flavor === undefined ? API_ORDER_DEFAULTS.disks : undefined);
  return disks === undefined ? size : `${size}, disks ${JSON.stringify(disks)}`;
}

/**
 * The host is the account's, in the datacenter the guest is ordered in (each of `datacenters`),
 * with room for the guest when it is not on it yet, or for what it grows by when it is (an
 * upgrade of its size is an order the host must have room for too).
 */
export async function checkDedicatedHost(
  c: Connection,
  inputs: HostInputs,
  olds: HostInputs,
  failures: Failures,
): Promise<void> {
  const id = inputs.dedicatedHostId;
  if (typeof id !== 'number' || failures.has(FIELD)) return;
  const host = await findObject<Host>(c, 'Virtual_DedicatedHost', id, MASK);
  if (!host) {
    failures.add(FIELD, `${FIELD}: there is no dedicated host ${id} on this account`);
    return;
  }
  const named = `dedicated host ${id} (${JSON.stringify(host.name ?? '')})`;
  const at = host.datacenter?.name;
  const elsewhere = choices(inputs).filter((dc) => isKnown(dc) && at !== undefined && dc !== at);
  if (elsewhere.length > 0)
    failures.add(
      FIELD,
      `${FIELD}: ${named} is in ${at}, the guest is ordered in ${elsewhere.join(', ')}: order the guest in ${at}, or use a host of its datacenter`,
    );
  const wanted = needs(inputs);
  const free = host.allocationStatus;
  if (isKnown(inputs.adoptId)) return;
  const on = onItAlready(inputs, olds) ? needs(olds) : undefined;
  if (!wanted || !free || (onItAlready(inputs, olds) && !on)) return;
  const more = (what: 'cpu' | 'memory' | 'disk') => wanted[what] - (on?.[what] ?? 0);
  const short = [
    ['cores', more('cpu'), free.cpuAvailable],
    ['GB of memory', more('memory'), free.memoryAvailable],
    ['GB of disk', more('disk'), free.diskAvailable],
  ].filter(([, want, left]) => left !== undefined && (want as number) > (left as number));
  if (short.length > 0)
    failures.add(
      FIELD,
      `${FIELD}: ${named} has ${free.cpuAvailable} cores, ${free.memoryAvailable} GB of memory and ${free.diskAvailable} GB of disk free; the guest needs ${short.map(([what, want]) => `${want}${on ? ' more' : ''} ${what}`).join(', ')} (${sizeOf(inputs)}): choose a host with room, or a smaller guest`,
    );
}

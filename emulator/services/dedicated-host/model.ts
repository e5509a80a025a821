/**
 * Dedicated hosts: a physical host of one account, of a size of the DEDICATED_HOST package
 * (cores, memory and disk), in a datacenter behind one backend router, ordered through
 * Product_Order (./host-order.ts) and billed by its billing item. Guests ordered onto it
 * (`dedicatedHost: {id}` in their template) use its capacity (an upgrade's size from its order
 * on): an order or an upgrade that does not fit is refused with the API's capacity fault. A host is gone once its billing item's cancellation
 * date has passed; it cannot be cancelled while guests are on it.
 *
 * The order's tags (`hardware[0].tagReferences`) are written with the host, so a tag can serve
 * as a creation token: a client that lost the order's answer finds the host it made by it.
 */
import { ApiFault, publicFault } from '../../errors';
import { table, type RecordsOf, type Store } from '../../store';
import type { ViewContext } from '../../schema';
import type { AuthedContext } from '../context';
import type { GuestOrder, GuestRec, GuestSize } from '../virtual-guest/model';
import { CAPACITY_FAULT } from '../virtual-guest/capacity';

export interface DedicatedHostRec {
  id: number;
  accountId: number;
  name: string;
  domain: string;
  notes?: string;
  flavorKeyName: string;
  cpuCount: number;
  /** GB. */
  memoryCapacity: number;
  /** GB. */
  diskCapacity: number;
  datacenterId: number;
  backendRouterId: number;
  hourly: boolean;
  billingItemId: number;
  orderId: number;
  containerIdentifier?: string;
  tagRefs: { id: number; tagId: number }[];
  createDate: number;
  modifyDate: number;
}

export const tables = { dedicatedHosts: table<DedicatedHostRec>(880001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

/** Whether the host still exists at `now` (a cancel at the anniversary ends it then). */
export function isLive(store: Store, h: DedicatedHostRec, now: number): boolean {
  const cancelled = store.get('billingItems', h.billingItemId)?.cancellationDate;
  return cancelled === undefined || cancelled > now;
}

export const hostsOf = (ctx: ViewContext, accountId: number) =>
  ctx.store
    .by('dedicatedHosts', 'accountId', accountId)
    .filter((h) => isLive(ctx.store, h, ctx.now));

/** The guests on a host: a guest being reclaimed has left it. */
export const guestsOn = (ctx: ViewContext, host: DedicatedHostRec): GuestRec[] =>
  ctx.store.by('guests', 'dedicatedHostId', host.id).filter((g) => !g.reclaim);

const guestDisk = (g: { blockDevices: { capacity: number }[] }) =>
  g.blockDevices.reduce((sum, d) => sum + d.capacity, 0);

/** What a guest holds of its host: the size an upgrade ordered, from the order on. */
const reserved = (g: GuestRec): GuestSize => (g.upgrade ? { ...g, ...g.upgrade.size } : g);

/** What the host's guests use and what is left (`Svc_Container_Virtual_DedicatedHost_AllocationStatus`). */
export function allocation(ctx: ViewContext, host: DedicatedHostRec) {
  const guests = guestsOn(ctx, host).map(reserved);
  const cpuAllocated = guests.reduce((sum, g) => sum + g.startCpus, 0);
  const memoryAllocated = guests.reduce((sum, g) => sum + g.maxMemory / 1024, 0);
  const diskAllocated = guests.reduce((sum, g) => sum + guestDisk(g), 0);
  return {
    cpuCount: host.cpuCount,
    cpuAllocated,
    cpuAvailable: host.cpuCount - cpuAllocated,
    memoryCapacity: host.memoryCapacity,
    memoryAllocated,
    memoryAvailable: host.memoryCapacity - memoryAllocated,
    diskCapacity: host.diskCapacity,
    diskAllocated,
    diskAvailable: host.diskCapacity - diskAllocated,
    guestCount: guests.length,
  };
}

/**
 * Faults unless the guests ordered onto host `id` (all of one call) fit: the host is the
 * caller's and live, in each guest's datacenter, with cores, memory and disk left for all.
 */
export function checkHostRoom(ctx: AuthedContext, id: number, orders: readonly GuestOrder[]) {
  const host = ctx.store.get('dedicatedHosts', id);
  if (!host || host.accountId !== ctx.account.id || !isLive(ctx.store, host, ctx.now))
    throw publicFault(`dedicatedHost.id: dedicated host ${id} does not exist on this account.`);
  const elsewhere = orders.find((o) => o.datacenter.id !== host.datacenterId);
  if (elsewhere)
    throw publicFault(
      `dedicatedHost.id: dedicated host ${id} is in another datacenter than ${elsewhere.datacenter.name}; order the guest in the host's datacenter.`,
    );
  const wanted = {
    cpu: orders.reduce((sum, o) => sum + o.startCpus, 0),
    memory: orders.reduce((sum, o) => sum + o.maxMemory / 1024, 0),
    disk: orders.reduce((sum, o) => sum + guestDisk(o), 0),
  };
  requireRoom(
    ctx,
    host,
    wanted,
    `for ${orders.map((o) => o.hostname).join(', ')}`,
    'the order needs',
  );
}

/** What an order takes of a host: cores, memory (GB), disk (GB). */
interface HostNeed {
  cpu: number;
  memory: number;
  disk: number;
}

/** The API's capacity fault unless `need` fits in what the host has free. */
function requireRoom(
  ctx: ViewContext,
  host: DedicatedHostRec,
  need: HostNeed,
  what: string,
  needs: string,
): void {
  const free = allocation(ctx, host);
  if (
    need.cpu <= free.cpuAvailable &&
    need.memory <= free.memoryAvailable &&
    need.disk <= free.diskAvailable
  )
    return;
  throw new ApiFault(
    CAPACITY_FAULT,
    `Could not place order. Dedicated host ${host.id} has insufficient capacity ${what}: it has ${free.cpuAvailable} cores, ${free.memoryAvailable} GB of memory and ${free.diskAvailable} GB of disk free; ${needs} ${need.cpu} cores, ${need.memory} GB and ${need.disk} GB.`,
  );
}

/**
 * Faults unless the host of `guest` (when it is on one) has room for it to grow to `size` (an
 * upgrade order), as an order onto the host is refused.
 */
export function checkHostGrowth(ctx: AuthedContext, guest: GuestRec, size: GuestSize): void {
  const host =
    guest.dedicatedHostId === undefined
      ? undefined
      : ctx.store.get('dedicatedHosts', guest.dedicatedHostId);
  if (!host) return;
  const now = reserved(guest);
  const grows = {
    cpu: size.startCpus - now.startCpus,
    memory: (size.maxMemory - now.maxMemory) / 1024,
    disk: guestDisk(size) - guestDisk(now),
  };
  const more = (n: number) => Math.max(0, n);
  requireRoom(
    ctx,
    host,
    { cpu: more(grows.cpu), memory: more(grows.memory), disk: more(grows.disk) },
    `to upgrade ${guest.hostname}`,
    'the upgrade needs more:',
  );
}

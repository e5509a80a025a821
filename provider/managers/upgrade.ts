import type { Client } from '../client';
import { SvcError } from '../client/errors';
import type { VirtualGuest } from './types';

/**
 * Upgrades of a running guest, as the reference client's `VSManager.upgrade` places them: one
 * `Product_Order` with an upgrade container naming the guest, the item prices wanted (picked by
 * category and size from `Virtual_Guest.getUpgradeItemPrices`) and a `MAINTENANCE_WINDOW` of now.
 */

/** The size wanted; a field left out is not changed. */
export interface UpgradeSpec {
  /** A flavor's key name (`B1_2X8X25`): its cores, memory and boot disk, instead of `cpus`/`memory`. */
  flavor?: string;
  cpus?: number;
  /** Memory in MB (the API prices it in GB). */
  memory?: number;
  /** Network port speed in Mbps. */
  nicSpeed?: number;
  /** Disk sizes in GB by position, the boot disk first: each may only grow, and more may be added. */
  disks?: number[];
}

/** A guest's size as the API reports it. */
export interface GuestSize {
  /** The flavor it was ordered or last upgraded as (none: sized by cores and memory). */
  flavor?: string;
  cpus?: number;
  memory?: number;
  nicSpeed?: number;
  /** Disk sizes in GB, the boot disk first (swap, device 1, is not counted). */
  disks: number[];
}

export const SIZE_MASK =
  'id,startCpus,maxCpu,maxMemory,networkComponents[maxSpeed],blockDevices[device,diskImage[capacity]],' +
  'billingItem[id,orderItem[preset[keyName]]],' +
  'activeTransaction[id,transactionStatus[name,friendlyName]]';

const PRICE_MASK = 'id,categories[categoryCode],item[capacity,units,description]';

const UPGRADE_CONTAINER = 'Svc_Container_Product_Order_Virtual_Guest_Upgrade';

/** The disks of a guest read with `blockDevices[device,diskImage.capacity]`, boot disk first. */
export function diskSizes(guest: VirtualGuest): number[] {
  return (guest.blockDevices ?? [])
    .filter((d) => d.device !== '1' && d.diskImage?.capacity !== undefined)
    .sort((a, b) => Number(a.device) - Number(b.device))
    .map((d) => d.diskImage!.capacity!);
}

export function sizeOf(guest: VirtualGuest): GuestSize {
  return {
    flavor: guest.billingItem?.orderItem?.preset?.keyName ?? undefined,
    cpus: guest.startCpus ?? guest.maxCpu,
    memory: guest.maxMemory,
    nicSpeed: guest.networkComponents?.[0]?.maxSpeed,
    disks: diskSizes(guest),
  };
}

/** A change that the API cannot make to a running guest (a disk shrunk or removed). */
export class UpgradeRefused extends SvcError {}

/** What must change, as `field old -> new` lines; throws `UpgradeRefused` for a shrink or removal. */
export function upgradeChanges(id: number, size: GuestSize, spec: UpgradeSpec): string[] {
  const changes: string[] = [];
  const scalar = (label: string, now: number | undefined, wanted: number | undefined) => {
    if (wanted !== undefined && wanted !== now) changes.push(`${label} ${now ?? '?'} -> ${wanted}`);
  };
  if (spec.flavor !== undefined && spec.flavor !== size.flavor)
    changes.push(`flavor ${size.flavor ?? 'none'} -> ${spec.flavor}`);
  scalar('cpus', size.cpus, spec.cpus);
  scalar('memory', size.memory, spec.memory);
  scalar('nicSpeed', size.nicSpeed, spec.nicSpeed);
  if (spec.disks) {
    if (spec.disks.length < size.disks.length) {
      throw new UpgradeRefused(
        `guest ${id} has ${size.disks.length} disks (${size.disks.join(', ')} GB), ${spec.disks.length} wanted: a disk cannot be removed from a running guest`,
      );
    }
    spec.disks.forEach((gb, i) => {
      const now = size.disks[i];
      if (now !== undefined && gb < now) {
        throw new UpgradeRefused(
          `disk ${i} of guest ${id} is ${now} GB, ${gb} GB wanted: a disk can only grow`,
        );
      }
      if (now === undefined || gb > now) changes.push(`disk${i} ${now ?? 'none'} -> ${gb} GB`);
    });
  }
  return changes;
}

/** Whether the guest has the size of `spec` (every field it names). */
export function hasSize(size: GuestSize, spec: UpgradeSpec): boolean {
  const same = (now: number | undefined, wanted: number | undefined) =>
    wanted === undefined || now === wanted;
  return (
    (spec.flavor === undefined || size.flavor === spec.flavor) &&
    same(size.cpus, spec.cpus) &&
    same(size.memory, spec.memory) &&
    same(size.nicSpeed, spec.nicSpeed) &&
    (spec.disks === undefined ||
      (spec.disks.length === size.disks.length &&
        spec.disks.every((gb, i) => size.disks[i] === gb)))
  );
}

const isUpgradeTransaction = (guest: VirtualGuest) =>
  /UPGRADE/i.test(guest.activeTransaction?.transactionStatus?.name ?? '');

/** Where an upgrade to `spec` stands: done, running (an UPGRADE transaction), or not seen. */
export type UpgradeProgress = 'done' | 'running' | 'not-seen';

export function upgradeProgress(guest: VirtualGuest, spec: UpgradeSpec): UpgradeProgress {
  if (isUpgradeTransaction(guest)) return 'running';
  if (hasSize(sizeOf(guest), spec)) return guest.activeTransaction?.id ? 'running' : 'done';
  return 'not-seen';
}

/** `2026-05-01 12:00:00+0000`, the MAINTENANCE_WINDOW format of the reference client. */
function maintenanceWindow(now = new Date()): string {
  return `${now.toISOString().slice(0, 19).replace('T', ' ')}+0000`;
}

interface ItemPrice {
  id: number;
  categories?: { categoryCode?: string }[];
  item?: { capacity?: number | string; units?: string; description?: string };
}

/**
 * The upgrade container that takes the guest from `size` to `spec`, priced from the upgrades the
 * API offers it. Only for a guest that `upgradeChanges` finds something to change on.
 */
export async function upgradeOrder(
  client: Client,
  id: number,
  size: GuestSize,
  spec: UpgradeSpec,
): Promise<Record<string, unknown>> {
  const offered = (await client.call('Virtual_Guest', 'getUpgradeItemPrices', {
    id,
    args: [true],
    mask: PRICE_MASK,
  })) as ItemPrice[];
  const pick = (category: string, capacity: number, what: string) => {
    const price = offered.find(
      (p) =>
        Number(p.item?.capacity) === capacity &&
        (p.categories ?? []).some((c) => c.categoryCode === category),
    );
    if (!price)
      throw new UpgradeRefused(`guest ${id} is not offered ${what} as an upgrade (${category})`);
    return price.id;
  };
  const prices: Record<string, unknown>[] = [];
  // A flavor is ordered by its preset (reference client: `VSManager.upgrade(preset=)`).
  const preset =
    spec.flavor !== undefined && spec.flavor !== size.flavor
      ? { presetId: await presetId(client, id, spec.flavor) }
      : {};
  if (spec.cpus !== undefined && spec.cpus !== size.cpus)
    prices.push({ id: pick('guest_core', spec.cpus, `${spec.cpus} CPUs`) });
  if (spec.memory !== undefined && spec.memory !== size.memory)
    prices.push({ id: pick('ram', spec.memory / 1024, `${spec.memory} MB of memory`) });
  if (spec.nicSpeed !== undefined && spec.nicSpeed !== size.nicSpeed)
    prices.push({ id: pick('port_speed', spec.nicSpeed, `a ${spec.nicSpeed} Mbps port`) });
  (spec.disks ?? []).forEach((gb, i) => {
    if (size.disks[i] !== undefined && gb <= size.disks[i]) return;
    const categoryCode = `guest_disk${i}`;
    prices.push({
      id: pick(categoryCode, gb, `a ${gb} GB disk ${i}`),
      categories: [{ categoryCode }],
    });
  });
  return {
    complexType: UPGRADE_CONTAINER,
    virtualGuests: [{ id }],
    ...preset,
    prices,
    properties: [{ name: 'MAINTENANCE_WINDOW', value: maintenanceWindow() }],
  };
}

/** The id of the flavor `keyName` among the presets of the guest's package. */
async function presetId(client: Client, id: number, keyName: string): Promise<number> {
  const guest = (await client.call('Virtual_Guest', 'getObject', {
    id,
    mask: 'id,billingItem[id,package[id]]',
  })) as { billingItem?: { package?: { id?: number } } };
  const packageId = guest.billingItem?.package?.id;
  if (packageId === undefined)
    throw new UpgradeRefused(`guest ${id} shows no package to find the flavor ${keyName} in`);
  const presets = (await client.call('Product_Package', 'getActivePresets', {
    id: packageId,
    mask: 'id,keyName',
  })) as { id: number; keyName?: string }[];
  const found = presets.find((p) => p.keyName === keyName);
  if (!found)
    throw new UpgradeRefused(`guest ${id} is not offered the flavor ${keyName} as an upgrade`);
  return found.id;
}

/**
 * Upgrades of a guest, as the API takes them: `Virtual_Guest.getUpgradeItemPrices` lists the
 * prices a guest may move to (CPUs, memory, port speed, disks; priced for its datacenter), and
 * `Product_Order.verifyOrder` / `placeOrder` hand this folder an upgrade container
 * (`Svc_Container_Product_Order_Virtual_Guest_Upgrade`: `virtualGuests: [{id}]`, `prices: [{id,
 * categories?}]`, `properties: [{name: 'MAINTENANCE_WINDOW', value}]`). A placed order starts an
 * UPGRADE transaction (see `sized` in ./model.ts) that leaves the guest with its new size and its
 * billing item with the new fees. Refused as the API refuses them: a disk that would shrink, a
 * price the package does not offer the guest, two prices for one category, and any upgrade while
 * a transaction runs.
 */
import { invalidValue, publicFault } from '../../errors';
import { isStruct } from '../../validators';
import { owned, type AuthedContext } from '../context';
import {
  presetById,
  GUEST_PACKAGE,
  type PresetView,
  type PriceView,
} from '../product-package/model';
import { discounted } from '../account/discounts';
import type { OrderOwner } from '../service';
import {
  activeTransaction,
  datacenterOf,
  diskSizeOf,
  sized,
  upgradePrices,
  type GuestRec,
  type GuestSize,
} from './model';
import { UPGRADE, container, placeUpgrade, type CheckedUpgrade } from './upgrade-receipt';
import { checkHostGrowth } from '../dedicated-host/model';

export { UPGRADE };

function items(value: unknown, field: string): unknown[] {
  if (isStruct(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value))
    throw invalidValue(`Invalid value provided for '${field}'. Expected an array.`);
  return value;
}

function intOf(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw invalidValue(`Invalid value provided for '${field}': expected an integer.`);
  return n;
}

/** The order container, checked in the API's order: shape, guest, window, idle guest, prices. */
function checkUpgradeOrder(ctx: AuthedContext, order: Record<string, unknown>): CheckedUpgrade {
  const guests = items(order.virtualGuests, 'virtualGuests');
  if (guests.length !== 1 || !isStruct(guests[0]))
    throw invalidValue("An upgrade order names exactly one guest: 'virtualGuests': [{id}].");
  const id = intOf(guests[0].id, 'virtualGuests[0].id');
  const guest = sized(owned(ctx, ctx.store.get('guests', id), id), ctx.now);
  const properties = items(order.properties ?? [], 'properties');
  const window = properties.find((p) => isStruct(p) && p.name === 'MAINTENANCE_WINDOW');
  if (!isStruct(window) || typeof window.value !== 'string' || window.value.trim() === '') {
    throw publicFault(
      "An upgrade order needs the property MAINTENANCE_WINDOW: {name: 'MAINTENANCE_WINDOW', value: '<date and time it may run>'}.",
    );
  }
  const running = activeTransaction(guest, ctx.now);
  if (running) {
    const status = (running.transactionStatus as { name: string }).name;
    throw publicFault(
      `Virtual guest ${guest.id} has an active transaction (${status}); it can be upgraded once that has finished.`,
    );
  }
  const flavor = order.presetId === undefined ? undefined : readFlavor(order.presetId);
  const asked = order.prices === undefined && flavor ? [] : items(order.prices, 'prices');
  const { size, ordered } = orderPrices(guest, asked, flavor);
  const discounts = ctx.account.discounts;
  const atAccount = ordered.map((o) => ({ ...o, price: discounted(o.price, discounts) }));
  return { guest, size, ordered: atAccount, properties };
}

/** The guest's size after the upgrade while the ordered prices are checked one by one. */
interface Sizing {
  size: GuestSize;
  ordered: CheckedUpgrade['ordered'];
  /** Disks in positions the guest has none in yet. */
  added: { slot: number; capacity: number }[];
}

/** `presetId`: a flavor of the guest package (reference client: `VSManager.upgrade(preset=)`). */
function readFlavor(value: unknown): PresetView {
  const id = intOf(value, 'presetId');
  const preset = presetById(id);
  if (!preset || preset.packageId !== GUEST_PACKAGE.id)
    throw publicFault(
      `Invalid preset #${id}: package ${GUEST_PACKAGE.id} has no such active preset.`,
    );
  return preset;
}

function orderPrices(
  guest: GuestRec,
  asked: unknown[],
  flavor: PresetView | undefined,
): Pick<Sizing, 'size' | 'ordered'> {
  if (asked.length === 0 && !flavor)
    throw publicFault('An upgrade order needs at least one price (or a presetId).');
  const offered = upgradePrices(guest, true);
  const sizing: Sizing = {
    size: {
      startCpus: guest.startCpus,
      maxMemory: guest.maxMemory,
      networkSpeed: guest.networkSpeed,
      blockDevices: guest.blockDevices.map((d) => ({ ...d })),
      flavorKeyName: guest.flavorKeyName,
    },
    ordered: [],
    added: [],
  };
  for (const [i, entry] of asked.entries()) orderPrice(guest, offered, sizing, entry, i);
  // Cores or memory sized by prices: the guest no longer has a flavor's size.
  const { size } = sizing;
  if (size.startCpus !== guest.startCpus || size.maxMemory !== guest.maxMemory)
    size.flavorKeyName = undefined;
  if (flavor) orderFlavor(guest, offered, sizing, flavor);
  addDisks(guest, sizing);
  return { size, ordered: sizing.ordered };
}

/**
 * The prices that take the guest to `flavor`'s cores, memory and boot disk (those it has already
 * need none); the boot disk only grows.
 */
function orderFlavor(
  guest: GuestRec,
  offered: PriceView[],
  { size, ordered }: Sizing,
  flavor: PresetView,
): void {
  const boot = size.blockDevices[0];
  if (boot && flavor.disk < boot.capacity)
    throw publicFault(
      `The flavor ${flavor.keyName} has a ${flavor.disk} GB boot disk and virtual guest ${guest.id} has ${boot.capacity} GB: a disk can only grow.`,
    );
  const wanted: [string, number, number | undefined][] = [
    ['guest_core', flavor.cpus, size.startCpus],
    ['ram', flavor.memory / 1024, size.maxMemory / 1024],
    ['guest_disk0', flavor.disk, boot?.capacity],
  ];
  for (const [category, capacity, now] of wanted) {
    if (capacity === now) continue;
    if (ordered.some((o) => o.category === category))
      throw publicFault(
        `Only one price per category: ${category} comes with the flavor ${flavor.keyName}; leave it out of prices.`,
      );
    const option = offered.find(
      (o) => o.categories.includes(category) && o.item.capacity === capacity,
    );
    if (!option)
      throw publicFault(
        `The flavor ${flavor.keyName} is not an upgrade offered for virtual guest ${guest.id} (${category}).`,
      );
    ordered.push({ price: option.price, category });
  }
  size.startCpus = flavor.cpus;
  size.maxMemory = flavor.memory;
  if (boot) boot.capacity = flavor.disk;
  size.flavorKeyName = flavor.keyName;
}

/** Checks `prices[i]` (offered, a category it fills, no shrinking disk) and applies it to the size. */
function orderPrice(
  guest: GuestRec,
  offered: PriceView[],
  { size, ordered, added }: Sizing,
  entry: unknown,
  i: number,
): void {
  if (!isStruct(entry)) throw invalidValue(`Invalid value provided for 'prices[${i}]'.`);
  const id = intOf(entry.id, `prices[${i}].id`);
  const categories = entry.categories === undefined ? [] : items(entry.categories, 'categories');
  const named = isStruct(categories[0]) ? categories[0].categoryCode : undefined;
  const category = typeof named === 'string' ? named : undefined;
  const slot = category?.startsWith('guest_disk') ? Number(category.slice(10)) : undefined;
  const disk = slot === undefined ? undefined : size.blockDevices[slot];
  const gb = diskSizeOf(guest, id);
  if (disk && gb !== undefined && gb <= disk.capacity) {
    throw publicFault(
      `${category} of virtual guest ${guest.id} is ${disk.capacity} GB: a disk can only grow, it cannot be shrunk or removed (price #${id} is ${gb} GB).`,
    );
  }
  const option = offered.find((o) => o.price.id === id);
  if (!option) {
    throw publicFault(
      `Price #${id} is not an upgrade offered for virtual guest ${guest.id} (package 835 in ${datacenterOf(guest).name}); see Virtual_Guest::getUpgradeItemPrices.`,
    );
  }
  const fills = category ?? (option.categories.length === 1 ? option.categories[0] : undefined);
  if (!fills || !option.categories.includes(fills)) {
    throw publicFault(
      `Price #${id} (${option.price.description}) fills ${option.categories.join(', ')}; name the one meant in prices[${i}].categories[0].categoryCode.`,
    );
  }
  if (ordered.some((o) => o.category === fills))
    throw publicFault(`Only one price per category: ${fills} is given twice.`);
  ordered.push({ price: option.price, category: fills });
  const capacity = option.item.capacity;
  if (fills === 'guest_core') size.startCpus = capacity;
  else if (fills === 'ram') size.maxMemory = capacity * 1024;
  else if (fills === 'port_speed') size.networkSpeed = capacity;
  else if (disk) disk.capacity = capacity;
  else added.push({ slot: slot!, capacity });
}

/** New disks go in the next free positions, in order (devices 2, 3, ... after the boot disk). */
function addDisks(guest: GuestRec, { size, added }: Sizing): void {
  for (const disk of added.sort((a, b) => a.slot - b.slot)) {
    const next = size.blockDevices.length;
    if (disk.slot !== next) {
      throw publicFault(
        `guest_disk${disk.slot}: virtual guest ${guest.id} has ${next} disk(s), so the next one added is guest_disk${next}.`,
      );
    }
    const last = Number(size.blockDevices[next - 1]?.device ?? -1);
    size.blockDevices.push({
      id: 0,
      device: String(last === 0 ? 2 : last + 1),
      capacity: disk.capacity,
    });
  }
}

/** The owner of upgrade containers (see Product_Order). */
export const upgradeOrder: OrderOwner = {
  check: (ctx, order) => {
    const checked = checkUpgradeOrder(ctx, order);
    // The API refuses an upgrade its dedicated host has no room for when it verifies.
    checkHostGrowth(ctx, checked.guest, checked.size);
    return {
      verified: container(checked),
      place: (placing, orderId) => ({
        ops: placeUpgrade(placing, checked, orderId),
        details: container(checked),
      }),
    };
  },
};

/**
 * Upgrades of a guest, as the API takes them: `Virtual_Guest.getUpgradeItemPrices` lists the
 * prices a guest may move to (CPUs, memory, port speed, disks; priced for its datacenter), and
 * `Product_Order.verifyOrder` / `placeOrder` take an upgrade container
 * (`Svc_Container_Product_Order_Virtual_Guest_Upgrade`: `virtualGuests: [{id}]`, `prices: [{id,
 * categories?}]`, `properties: [{name: 'MAINTENANCE_WINDOW', value}]`). A placed order starts an
 * UPGRADE transaction (../upgrade.ts) that leaves the guest with its new size and its billing
 * item with the new fees. Refused as the API refuses them: a disk that would shrink, a price the
 * package does not offer the guest, two prices for one category, and any upgrade while a
 * transaction runs. Only upgrade containers are modeled: guests are ordered with createObject.
 */
import {
  CPU_OPTIONS,
  DEFAULT_DATACENTER,
  DISK_SIZES,
  EXTRA_DISK_SIZES,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  cpuPrice,
  datacenterById,
  diskPrice,
  itemPrice,
  memoryPrice,
  money,
  monthlyFromHourly,
  networkPrice,
  priceAt,
  type Price,
} from '../catalog';
import { formatApiDate } from '../dates';
import { invalidParams, invalidValue, publicFault } from '../errors';
import { activeTransaction } from '../provisioning';
import type { GuestRec, GuestSize, GuestUpgradeRec } from '../records';
import type { WriteOp } from '../store';
import { guestPrices } from '../types/billing';
import type { UpgradePriceView } from '../types/product';
import { sized } from '../upgrade';
import { expectArgs, list, ok, owned, requireId, type AuthedContext } from './context';
import { readFlag } from './guest-template';
import { defineService, type MethodDef } from './registry';

const UPGRADE = 'Svc_Container_Product_Order_Virtual_Guest_Upgrade';
const MAX_DISKS = 5;
const ALL_DISK_SIZES = [...new Set([...DISK_SIZES, ...EXTRA_DISK_SIZES])].sort((a, b) => a - b);

const isStruct = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

const datacenterOf = (g: GuestRec) => datacenterById(g.datacenterId) ?? DEFAULT_DATACENTER;

/**
 * The prices `g` may be upgraded to at its datacenter: other CPU counts, memory sizes and port
 * speeds (smaller ones only with `downgrades`), and for each disk position a larger size, or any
 * size for a position the guest has no disk in yet. Disks never shrink.
 */
export function upgradePrices(g: GuestRec, downgrades: boolean): UpgradePriceView[] {
  const dc = datacenterOf(g);
  const at = (price: Price, categories: string[], capacity: number, units: string) => ({
    price: priceAt(price, dc),
    categories,
    capacity,
    units,
  });
  const wanted = (value: number, now: number) => value !== now && (downgrades || value > now);
  const prices: UpgradePriceView[] = [
    ...CPU_OPTIONS.filter((n) => wanted(n, g.startCpus)).map((n) =>
      at(cpuPrice(n), ['guest_core'], n, 'CORE'),
    ),
    ...MEMORY_OPTIONS.filter((mb) => wanted(mb, g.maxMemory)).map((mb) =>
      at(memoryPrice(mb), ['ram'], mb / 1024, 'GB'),
    ),
    ...NETWORK_SPEEDS.filter((s) => wanted(s, g.networkSpeed)).map((s) =>
      at(networkPrice(s), ['port_speed'], s, 'Mbps'),
    ),
  ];
  for (const gb of ALL_DISK_SIZES) {
    const categories = [];
    for (let i = 0; i < MAX_DISKS; i += 1) {
      const disk = g.blockDevices[i];
      const offered = (i === 0 ? DISK_SIZES : EXTRA_DISK_SIZES).includes(gb);
      if (offered && (disk ? gb > disk.capacity : i > 0)) categories.push(`guest_disk${i}`);
    }
    if (categories.length > 0)
      prices.push(at(diskPrice(gb, g.localDiskFlag), categories, gb, 'GB'));
  }
  return prices;
}

/** The size of a disk price id for a guest's kind of disk (local or SAN), at any location. */
function diskSizeOf(g: GuestRec, id: number): number | undefined {
  return ALL_DISK_SIZES.find((gb) => diskPrice(gb, g.localDiskFlag).id === id % 100_000);
}

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

interface CheckedUpgrade {
  /** The guest as it is now (a finished earlier upgrade applied). */
  guest: GuestRec;
  size: GuestSize;
  ordered: { price: Price; category: string }[];
  properties: unknown[];
}

function loadGuest(ctx: AuthedContext, id: number): GuestRec {
  return sized(owned(ctx, ctx.store.get('guests', id), id), ctx.now);
}

function checkUpgradeOrder(ctx: AuthedContext): CheckedUpgrade {
  const order = ctx.args[0];
  if (!isStruct(order))
    throw invalidParams(`Product_Order::${ctx.method}(orderData): expected a struct.`);
  if (order.complexType !== UPGRADE) {
    throw publicFault(
      `This emulator's Product_Order takes upgrade orders only (complexType ${UPGRADE}); order a guest with Virtual_Guest::createObject.`,
    );
  }
  const guests = items(order.virtualGuests, 'virtualGuests');
  if (guests.length !== 1 || !isStruct(guests[0]))
    throw invalidValue("An upgrade order names exactly one guest: 'virtualGuests': [{id}].");
  const guest = loadGuest(ctx, intOf(guests[0].id, 'virtualGuests[0].id'));

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

  const asked = items(order.prices, 'prices');
  if (asked.length === 0) throw publicFault('An upgrade order needs at least one price.');
  const offered = upgradePrices(guest, true);
  const size: GuestSize = {
    startCpus: guest.startCpus,
    maxMemory: guest.maxMemory,
    networkSpeed: guest.networkSpeed,
    blockDevices: guest.blockDevices.map((d) => ({ ...d })),
  };
  const ordered: CheckedUpgrade['ordered'] = [];
  const added: { slot: number; capacity: number }[] = [];
  for (const [i, entry] of asked.entries()) {
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
    if (fills === 'guest_core') size.startCpus = option.capacity;
    else if (fills === 'ram') size.maxMemory = option.capacity * 1024;
    else if (fills === 'port_speed') size.networkSpeed = option.capacity;
    else if (disk) disk.capacity = option.capacity;
    else added.push({ slot: slot!, capacity: option.capacity });
  }
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
  return { guest, size, ordered, properties };
}

/** The checked order as the API echoes it, priced (the recurring fees of the prices ordered). */
function container(checked: CheckedUpgrade): Record<string, unknown> {
  const hourly = checked.ordered.reduce((sum, o) => sum + o.price.hourly, 0);
  return {
    complexType: UPGRADE,
    packageId: 835,
    location: String(checked.guest.datacenterId),
    quantity: 1,
    useHourlyPricing: checked.guest.hourlyBillingFlag,
    virtualGuests: [{ id: checked.guest.id }],
    properties: checked.properties,
    prices: checked.ordered.map((o) => ({
      ...itemPrice(o.price),
      categories: [{ categoryCode: o.category }],
    })),
    postTaxRecurringHourly: money(hourly, 4),
    postTaxRecurringMonthly: money(monthlyFromHourly(hourly), 2),
    postTaxRecurring: money(monthlyFromHourly(hourly), 2),
  };
}

async function place(
  ctx: AuthedContext,
  checked: CheckedUpgrade,
): Promise<Record<string, unknown>> {
  const { guest, size } = checked;
  const stored = ctx.store.get('guests', guest.id)!;
  const ops: WriteOp[] = [];
  // A finished earlier upgrade becomes the guest's own size and its billing item's fees.
  const billing = ctx.store.get('billingItems', guest.billingItemId);
  if (stored.upgrade && billing) {
    const { hourlyRecurringFee, recurringFee } = stored.upgrade;
    ops.push({ put: 'billingItems', record: { ...billing, hourlyRecurringFee, recurringFee } });
  }
  const total = guestPrices({ ...guest, ...size }).reduce((sum, p) => sum + p.hourly, 0);
  const upgrade: GuestUpgradeRec = {
    orderId: ctx.store.nextSubId(),
    transactionId: ctx.store.nextSubId(),
    createDate: ctx.now,
    readyAt: ctx.now + ctx.settings.provisioningDelayMs,
    size: {
      ...size,
      blockDevices: size.blockDevices.map((d) => (d.id ? d : { ...d, id: ctx.store.nextSubId() })),
    },
    hourlyRecurringFee: money(total, 4),
    recurringFee: money(monthlyFromHourly(total), 2),
  };
  ops.push({ put: 'guests', record: { ...guest, upgrade, modifyDate: ctx.now } });
  await ctx.store.write(ops);
  const details = container(checked);
  return {
    orderId: upgrade.orderId,
    orderDate: formatApiDate(ctx.now),
    placedOrder: {
      id: upgrade.orderId,
      accountId: guest.accountId,
      status: 'APPROVED',
      items: details.prices,
    },
    orderDetails: details,
  };
}

defineService({
  name: 'Product_Order',
  methods: {
    verifyOrder: {
      handler: (ctx) => {
        expectArgs(ctx, ['orderData']);
        return ok(container(checkUpgradeOrder(ctx)));
      },
    },
    placeOrder: {
      handler: async (ctx) => {
        expectArgs(ctx, ['orderData', 'saveAsQuote'], 1);
        const quote = ctx.args[1] === undefined ? false : readFlag(ctx.args[1], 'saveAsQuote');
        const checked = checkUpgradeOrder(ctx);
        if (quote)
          throw publicFault('Quotes are not modeled by this emulator; set saveAsQuote to false.');
        return ok(await place(ctx, checked));
      },
    },
  },
});

/** `Virtual_Guest.getUpgradeItemPrices(includeDowngradeItemPrices)`. */
export const getUpgradeItemPrices: MethodDef = {
  handler: (ctx) => {
    expectArgs(ctx, ['includeDowngradeItemPrices'], 0);
    const downgrades =
      ctx.args[0] === undefined || ctx.args[0] === null
        ? false
        : readFlag(ctx.args[0], 'includeDowngradeItemPrices');
    const id = requireId(ctx);
    return list(ctx, 'Svc_Product_Item_Price', upgradePrices(loadGuest(ctx, id), downgrades), null);
  },
};

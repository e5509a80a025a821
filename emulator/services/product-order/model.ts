/**
 * A guest's upgrade orders: the prices it may move to at its datacenter, the checked order as
 * the API echoes it (priced), and placing it: an UPGRADE transaction (see `sized` in
 * ../virtual-guest/model.ts) that leaves the guest with its new size and its billing item with
 * the new fees.
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
} from '../../catalog';
import { formatApiDate } from '../../dates';
import type { WriteOp } from '../../store';
import type { AuthedContext } from '../context';
import {
  guestPrices,
  type GuestRec,
  type GuestSize,
  type GuestUpgradeRec,
} from '../virtual-guest/model';

export const UPGRADE = 'Svc_Container_Product_Order_Virtual_Guest_Upgrade';
const MAX_DISKS = 5;
const ALL_DISK_SIZES = [...new Set([...DISK_SIZES, ...EXTRA_DISK_SIZES])].sort((a, b) => a - b);

/** One upgrade price: a catalog price at a datacenter, the categories it fills and its size. */
export interface UpgradePriceView {
  price: Price;
  /** `guest_core`, `ram`, `port_speed`, `guest_disk0` .. `guest_disk4`. */
  categories: readonly string[];
  capacity: number;
  units: string;
}

/** A checked upgrade order: what `place` writes and `container` echoes. */
export interface CheckedUpgrade {
  /** The guest as it is now (a finished earlier upgrade applied). */
  guest: GuestRec;
  size: GuestSize;
  ordered: { price: Price; category: string }[];
  properties: unknown[];
}

export const datacenterOf = (g: GuestRec) => datacenterById(g.datacenterId) ?? DEFAULT_DATACENTER;

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
export function diskSizeOf(g: GuestRec, id: number): number | undefined {
  return ALL_DISK_SIZES.find((gb) => diskPrice(gb, g.localDiskFlag).id === id % 100_000);
}

/** The checked order as the API echoes it, priced (the recurring fees of the prices ordered). */
export function container(checked: CheckedUpgrade): Record<string, unknown> {
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

export async function place(
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

/**
 * The prices of a new-guest order (./guest-order.ts), checked as the API checks them: each an
 * item price of the package (a default price is taken at the order's location, a location's
 * price only there), each filling one category once, local and SAN disks not mixed, and every
 * category a guest needs present. What they buy is the guest's size.
 */
import {
  DATACENTERS,
  datacenterById,
  findDatacenter,
  priceAt,
  priceGroupOf,
  type Datacenter,
} from '../../catalog';
import { ApiFault, FaultCodes, invalidValue, publicFault } from '../../errors';
import { present, readInt, readString, structAt } from '../../validators';
import {
  CATEGORIES,
  packageById,
  priceById,
  priceView,
  PACKAGES,
  type PackageView,
  type PriceView,
} from '../product-package/model';
import type { GuestOrder } from './model';

export interface OrderedPrice {
  view: PriceView;
  category: string;
}

/** What every guest needs (more disks are optional). */
const REQUIRED = ['guest_core', 'ram', 'os', 'port_speed', 'guest_disk0'];

export function readPackage(value: unknown): PackageView {
  if (!present(value)) throw invalidValue("The order needs a 'packageId'.");
  const id = readInt(value, 'packageId');
  const found = packageById(id);
  if (!found) {
    const known = PACKAGES.map((p) => `${p.id} (${p.keyName})`).join(', ');
    throw publicFault(`Invalid package #${id}: guests are ordered from package ${known}.`);
  }
  return found;
}

/** A datacenter by id, short name (`dal10`) or region keyname (`DALLAS10`). */
export function readLocation(value: unknown): Datacenter {
  const text = present(value) ? readString(String(value), 'location').trim() : '';
  const found = /^\d+$/.test(text)
    ? datacenterById(Number(text))
    : (findDatacenter(text) ?? DATACENTERS.find((d) => d.region === text.toUpperCase()));
  if (!found) {
    throw new ApiFault(
      FaultCodes.orderInvalidLocation,
      `The location provided for this order is invalid: '${text}' is no datacenter id, name or region keyname.`,
    );
  }
  return found;
}

const conflict = (a: PriceView, b: PriceView) =>
  new ApiFault(
    FaultCodes.orderItemConflict,
    `You cannot order ${a.item.description} (#${a.price.id}) with ${b.item.description} (#${b.price.id}).`,
  );

/** Each entry of `prices`, at the order's location and in the category it fills. */
export function orderedPrices(
  pkg: PackageView,
  datacenter: Datacenter,
  entries: unknown[],
): OrderedPrice[] {
  const ordered: OrderedPrice[] = [];
  entries.forEach((entry, i) => {
    const e = structAt(entry, `prices[${i}]`);
    const id = readInt(e.id, `prices[${i}].id`);
    const found = priceById(id);
    if (!found) {
      throw new ApiFault(
        FaultCodes.orderItemInvalid,
        `Invalid price #${id} provided on the order container: package ${pkg.id} (${pkg.keyName}) has no such price.`,
      );
    }
    const view = atLocation(found, datacenter);
    const category = categoryOf(view, e.categories, ordered);
    const clash = ordered.find((o) => o.category === category);
    if (clash) throw conflict(clash.view, view);
    ordered.push({ view, category });
  });
  const missing = REQUIRED.filter((code) => !ordered.some((o) => o.category === code));
  if (missing.length > 0) {
    const names = missing.map((code) => CATEGORIES[code].name).join(', ');
    throw new ApiFault(
      FaultCodes.orderMissingCategory,
      `Order is missing the following ${missing.length > 1 ? 'categories' : 'category'}: ${names}.`,
    );
  }
  return ordered;
}

/** A default price becomes the location's; another location's price is refused. */
function atLocation(found: PriceView, datacenter: Datacenter): PriceView {
  const group = priceGroupOf(datacenter);
  if (found.price.locationGroupId === undefined)
    return priceView(priceAt(found.price, datacenter), found.categories);
  if (found.price.locationGroupId === group?.id) return found;
  throw publicFault(
    `The price for ${found.item.description} (#${found.price.id}) is not valid for location ${datacenter.name}.`,
  );
}

/** The category named in `categories[0]`, else the price's one (a disk: the next free position). */
function categoryOf(view: PriceView, categories: unknown, ordered: OrderedPrice[]): string {
  const named = Array.isArray(categories) ? categories[0] : undefined;
  const code = present(named) ? structAt(named, 'categories[0]').categoryCode : undefined;
  if (typeof code === 'string') {
    if (view.categories.includes(code)) return code;
    throw publicFault(
      `Price #${view.price.id} (${view.item.description}) fills ${view.categories.join(', ')}, not ${code}.`,
    );
  }
  const free = view.categories.find((c) => !ordered.some((o) => o.category === c));
  return free ?? view.categories[view.categories.length - 1];
}

/** The size the prices buy: cores, memory, OS, port speed and disks (device 1 is swap). */
export function sizeOf(
  ordered: OrderedPrice[],
): Pick<
  GuestOrder,
  'startCpus' | 'maxMemory' | 'os' | 'networkSpeed' | 'localDisk' | 'blockDevices'
> {
  const item = (code: string) => ordered.find((o) => o.category === code)!.view.item;
  const disks = ordered
    .filter((o) => o.category.startsWith('guest_disk'))
    .map((o) => ({ ...o, position: Number(o.category.slice('guest_disk'.length)) }))
    .sort((a, b) => a.position - b.position);
  const localDisk = disks[0].view.item.local === true;
  const mixed = disks.find((d) => (d.view.item.local === true) !== localDisk);
  if (mixed) throw conflict(disks[0].view, mixed.view);
  return {
    startCpus: item('guest_core').capacity,
    maxMemory: item('ram').capacity * 1024,
    os: item('os').os!,
    networkSpeed: item('port_speed').capacity,
    localDisk,
    blockDevices: disks.map((d) => ({
      device: d.position === 0 ? '0' : String(d.position + 1),
      capacity: d.view.item.capacity,
    })),
  };
}

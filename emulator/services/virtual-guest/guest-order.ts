/**
 * New guests ordered the way real clients order them: `Product_Order.verifyOrder` / `placeOrder`
 * with a `Svc_Container_Product_Order_Virtual_Guest` (package, location, quantity, preset or item
 * prices of `Product_Package`, hostnames in `virtualGuests[]`, SSH keys, user data, hourly or
 * monthly). The prices are the catalog's (../product-package/model.ts derives the package from
 * it); each guest is built and provisioned exactly as `createObject` builds one, and all of an
 * order's guests are written in one journal transaction. Refused as the API refuses them, naming
 * the item: an unknown price, a price of another location, two items of one category or local
 * with SAN disks, a missing category.
 */
import { findOs, itemPrice, money, monthlyFromHourly } from '../../catalog';
import { invalidValue, propertyNotValid, publicFault } from '../../errors';
import { project } from '../../query/project';
import { typeDef } from '../../schema';
import {
  checkDomain,
  checkHostname,
  listOf,
  present,
  readFlag,
  readInt,
  readString,
  structAt,
} from '../../validators';
import type { AuthedContext } from '../context';
import { presetById, type PresetView } from '../product-package/model';
import type { CheckedOrder, OrderOwner } from '../service';
import { checkSshKeyIds } from '../ssh-key/model';
import { requireRoom } from './capacity';
import { imagesFor } from './capture';
import { imageById } from '../image-template/model';
import { buildGuest, type GuestOrder, type GuestRec } from './model';
import {
  orderedPrices,
  readLocation,
  readPackage,
  sizeOf,
  type OrderedPrice,
} from './guest-order-prices';
import { discounted } from '../account/discounts';

export const GUEST_ORDER = 'Svc_Container_Product_Order_Virtual_Guest';
const CONTAINER = typeDef(GUEST_ORDER);
/** Container properties that would change the order and that this emulator does not model. */
const UNMODELED = ['hardware', 'hostId'];
/** Properties of a guest in `virtualGuests[]` read here; others must be null. */
const GUEST_FIELDS = new Set(['hostname', 'domain', 'userData', 'complexType']);

interface CheckedGuestOrder {
  container: Record<string, unknown>;
  prices: OrderedPrice[];
  orders: GuestOrder[];
  preset?: PresetView;
}

function checkGuestOrder(ctx: AuthedContext, c: Record<string, unknown>): CheckedGuestOrder {
  for (const key of Object.keys(c)) {
    const known =
      CONTAINER.locals.has(key) || CONTAINER.relations.has(key) || key === 'complexType';
    if (!known && !CONTAINER.onDemand.has(key)) throw propertyNotValid(key, GUEST_ORDER);
    if (UNMODELED.includes(key) && present(c[key]))
      throw publicFault(`${GUEST_ORDER}.${key} is not modeled by this emulator; leave it out.`);
  }
  const pkg = readPackage(c.packageId);
  const datacenter = readLocation(c.location);
  const preset = present(c.presetId) ? readPreset(c.presetId, pkg.id) : undefined;
  const prices = orderedPrices(pkg, datacenter, [
    ...(preset?.prices.map((p) => ({ id: p.price.id })) ?? []),
    ...listOf(c.prices ?? [], 'prices'),
  ]).map((p) => ({
    ...p,
    view: { ...p.view, price: discounted(p.view.price, ctx.account.discounts) },
  }));
  const size = sizeOf(prices);
  const quantity = present(c.quantity) ? readInt(c.quantity, 'quantity') : 1;
  if (quantity < 1 || quantity > 20)
    throw invalidValue(`Invalid value provided for 'quantity': ${quantity} (1 to 20 per order).`);
  const hosts = readGuests(c.virtualGuests, quantity);
  const keys = perGuest(c.sshKeys, 'sshKeys', quantity, (entry, i) =>
    listOf(structAt(entry, `sshKeys[${i}]`).sshKeyIds ?? [], `sshKeys[${i}].sshKeyIds`).map(
      (id, j) => readInt(id, `sshKeys[${i}].sshKeyIds[${j}]`),
    ),
  );
  for (const ids of keys) checkSshKeyIds(ctx, ids);
  const scripts = perGuest(c.provisionScripts, 'provisionScripts', quantity, (uri, i) =>
    readString(uri, `provisionScripts[${i}]`),
  );
  const hourly = present(c.useHourlyPricing)
    ? readFlag(c.useHourlyPricing, 'useHourlyPricing')
    : false;
  const image = readImage(ctx, c, datacenter.id);
  const orders = hosts.map((host, i) => ({
    ...host,
    ...size,
    ...image,
    hourly,
    datacenter,
    flavorKeyName: preset?.keyName,
    privateOnly: false,
    dedicated: false,
    sshKeyIds: keys[i] ?? [],
    postInstallScriptUri: scripts[i],
    tags: [],
    securityGroups: { PUBLIC: [], PRIVATE: [] },
    prices: prices.map((p) => p.view.price),
  }));
  return { container: c, prices, orders, preset };
}

/** The image template the guests are made from (`imageTemplateGlobalIdentifier` or `imageTemplateId`). */
function readImage(
  ctx: AuthedContext,
  c: Record<string, unknown>,
  datacenterId: number,
): Pick<GuestOrder, 'os' | 'imageTemplateId'> | undefined {
  let gid: string | undefined;
  if (present(c.imageTemplateGlobalIdentifier)) {
    gid = readString(c.imageTemplateGlobalIdentifier, 'imageTemplateGlobalIdentifier');
  } else if (present(c.imageTemplateId)) {
    const id = readInt(c.imageTemplateId, 'imageTemplateId');
    const found = imageById(ctx.store, ctx.account.id, id);
    if (!found)
      throw invalidValue(`Invalid value provided for 'imageTemplateId': no image template ${id}.`);
    gid = found.globalIdentifier;
  }
  if (gid === undefined) return undefined;
  const image = imagesFor(ctx)(gid.trim(), datacenterId);
  return { os: findOs(image.osCode)!, imageTemplateId: image.id };
}

function readPreset(value: unknown, packageId: number): PresetView {
  const id = readInt(value, 'presetId');
  const preset = presetById(id);
  if (!preset || preset.packageId !== packageId)
    throw publicFault(`Invalid preset #${id}: package ${packageId} has no such active preset.`);
  return preset;
}

/** Hostnames, domains and user data of each guest ordered. */
function readGuests(
  value: unknown,
  quantity: number,
): Pick<GuestOrder, 'hostname' | 'domain' | 'userData'>[] {
  const guests = listOf(value ?? [], 'virtualGuests');
  if (guests.length !== quantity) {
    throw invalidValue(
      `The order has quantity ${quantity} and ${guests.length} entries in 'virtualGuests': give one {hostname, domain} per guest.`,
    );
  }
  return guests.map((entry, i) => {
    const g = structAt(entry, `virtualGuests[${i}]`);
    for (const [key, v] of Object.entries(g)) {
      if (GUEST_FIELDS.has(key)) continue;
      const type = typeDef('Svc_Virtual_Guest');
      if (!type.locals.has(key) && !type.relations.has(key))
        throw propertyNotValid(key, 'Svc_Virtual_Guest');
      if (present(v))
        throw publicFault(
          `virtualGuests[${i}].${key} is not modeled by this emulator; leave it out.`,
        );
    }
    const userData = listOf(g.userData ?? [], `virtualGuests[${i}].userData`).map((u, j) =>
      readString(structAt(u, `userData[${j}]`).value, `virtualGuests[${i}].userData[${j}].value`),
    );
    return {
      hostname: checkHostname(g.hostname, `virtualGuests[${i}].hostname`),
      domain: checkDomain(g.domain, `virtualGuests[${i}].domain`),
      userData,
    };
  });
}

/** A list given once for every guest, or once for all of them. */
function perGuest<T>(
  value: unknown,
  field: string,
  quantity: number,
  read: (entry: unknown, i: number) => T,
): T[] {
  const entries = present(value) ? listOf(value, field).map(read) : [];
  if (entries.length === 0) return [];
  if (entries.length === 1) return Array.from({ length: quantity }, () => entries[0]);
  if (entries.length !== quantity)
    throw invalidValue(`'${field}' has ${entries.length} entries for ${quantity} guests.`);
  return entries;
}

/** The container as verifyOrder answers it: priced (the recurring fees of all its guests). */
function verified(checked: CheckedGuestOrder): Record<string, unknown> {
  const { orders, prices, preset } = checked;
  const first = orders[0];
  const hourly = prices.reduce((sum, p) => sum + p.view.price.hourly, 0) * orders.length;
  return {
    complexType: GUEST_ORDER,
    packageId: checked.container.packageId,
    // Absent, not null: an undefined member would go out as an empty <value/>.
    ...(preset ? { presetId: preset.id } : {}),
    location: String(first.datacenter.id),
    locationObject: {
      id: first.datacenter.id,
      name: first.datacenter.name,
      longName: first.datacenter.longName,
    },
    quantity: orders.length,
    useHourlyPricing: first.hourly,
    prices: prices.map(({ view, category }) => ({
      ...itemPrice(view.price),
      categories: [{ categoryCode: category }],
      item: {
        id: view.item.id,
        keyName: view.item.keyName,
        description: view.item.description,
        capacity: String(view.item.capacity),
      },
    })),
    virtualGuests: orders.map((o) => ({ hostname: o.hostname, domain: o.domain })),
    sshKeys: orders.map((o) => ({ sshKeyIds: o.sshKeyIds })),
    postTaxRecurringHourly: money(hourly, 4),
    postTaxRecurringMonthly: money(monthlyFromHourly(hourly), 2),
    postTaxRecurring: money(monthlyFromHourly(hourly), 2),
  };
}

function place(
  ctx: AuthedContext,
  checked: CheckedGuestOrder,
  orderId: number,
): ReturnType<CheckedOrder['place']> {
  const options = {
    now: ctx.now,
    readyAt: ctx.now + ctx.settings.provisioningDelayMs,
    userId: ctx.user.id,
    orderId,
  };
  const built = checked.orders.map((o) => buildGuest(ctx.store, ctx.account.id, o, options));
  const guestType = typeDef('Svc_Virtual_Guest');
  const shown = (g: GuestRec) => project(guestType, g, undefined, ctx);
  return {
    ops: built.flatMap((b) => b.ops),
    details: { ...verified(checked), virtualGuests: built.map((b) => shown(b.guest)) },
  };
}

/** The owner of new-guest containers (see Product_Order). */
export const guestOrder: OrderOwner = {
  check: (ctx, container) => {
    const checked = checkGuestOrder(ctx, container);
    // verifyOrder answers the capacity fault too: the real API checks room when it verifies.
    requireRoom(ctx, checked.orders);
    return {
      verified: verified(checked),
      place: (placing, orderId) => place(placing, checked, orderId),
    };
  },
};

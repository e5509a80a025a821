/**
 * VLANs ordered and cancelled as the reference clients do it:
 *
 * - `Svc_Container_Product_Order_Network_Vlan` through Product_Order (softlayer-python
 *   `slcli vlan create`, terraform-provider-ibm `ibm_network_vlan`): the VLAN package, one
 *   `PUBLIC_NETWORK_VLAN` or `PRIVATE_NETWORK_VLAN` price, a `location`, optionally `name` and a
 *   `routerId` of that datacenter and network space (a frontend router for a public VLAN, a
 *   backend one for a private VLAN). The order's `containerIdentifier` is kept as the billing
 *   item's `notes`, where a client that lost the order's answer finds its VLAN. A VLAN is billed
 *   by the month whatever `useHourlyPricing` says.
 * - its billing item cancelled (`Billing_Item.cancelItem`, slcli's `vlan cancel`): at once, the
 *   VLAN is gone; otherwise it stays, billed, until the anniversary, then it is gone. Refused
 *   while guests are on it, with the reasons `Network_Vlan.getCancelFailureReasons` lists.
 */
import { orderTotals, orderedPrice } from '../../catalog';
import { invalidValue, publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import { isStruct, listOf, present, readInt, readString } from '../../validators';
import { discounted } from '../account/discounts';
import { newBillingItem, type BillingItemRec } from '../billing-item/model';
import type { AuthedContext } from '../context';
import {
  VLAN_CATEGORY,
  VLAN_PACKAGE,
  vlanItemByPrice,
  type VlanItem,
} from '../product-package/vlan-items';
import { placedAsVerified } from '../service';
import { readLocation } from '../virtual-guest/guest-order-prices';
import {
  isLiveVlan,
  networkComponents,
  routerFor,
  routerHostname,
  vlanOfNic,
  type VlanRec,
} from './model';

export const VLAN_ORDER = 'Svc_Container_Product_Order_Network_Vlan';

const ORDER_KEYS = new Set([
  'complexType',
  'packageId',
  'prices',
  'quantity',
  'location',
  'useHourlyPricing',
  'name',
  'routerId',
  'containerIdentifier',
]);
/** The longest VLAN name the API takes. */
export const VLAN_NAME_MAX = 20;

function checkKeys(c: Record<string, unknown>): void {
  for (const key of Object.keys(c)) {
    if (!ORDER_KEYS.has(key) && present(c[key]))
      throw publicFault(`${VLAN_ORDER}.${key} is not modeled by this emulator; leave it out.`);
  }
  const pkg = present(c.packageId) ? readInt(c.packageId, 'packageId') : undefined;
  if (pkg !== VLAN_PACKAGE.id)
    throw publicFault(
      `Invalid package #${pkg ?? 'none'}: VLANs are ordered from package ${VLAN_PACKAGE.id} (${VLAN_PACKAGE.keyName}).`,
    );
  if (present(c.quantity) && readInt(c.quantity, 'quantity') !== 1)
    throw invalidValue("Invalid value provided for 'quantity': a VLAN order is for 1 VLAN.");
}

function readItem(value: unknown): VlanItem {
  const prices = listOf(value ?? [], 'prices');
  if (prices.length !== 1)
    throw publicFault(
      'The order needs exactly one price: PUBLIC_NETWORK_VLAN or PRIVATE_NETWORK_VLAN.',
    );
  const entry = prices[0];
  if (!isStruct(entry)) throw invalidValue("Invalid value provided for 'prices[0]'.");
  const id = readInt(entry.id, 'prices[0].id');
  const item = vlanItemByPrice(id);
  if (!item)
    throw publicFault(
      `Price #${id} (prices[0]) is not a price of package ${VLAN_PACKAGE.id}; see Product_Package::getItems.`,
    );
  return item;
}

export function readName(value: unknown): string | undefined {
  if (!present(value)) return undefined;
  const name = readString(value, 'name').trim();
  if (name.length > VLAN_NAME_MAX)
    throw invalidValue(
      `Invalid value provided for 'name': a VLAN name is at most ${VLAN_NAME_MAX} characters.`,
    );
  return name || undefined;
}

interface CheckedVlan {
  item: VlanItem;
  datacenterId: number;
  name?: string;
  containerIdentifier?: string;
  hourly: number;
  verified: Record<string, unknown>;
}

function checkVlanOrder(ctx: AuthedContext, c: Record<string, unknown>): CheckedVlan {
  checkKeys(c);
  const datacenter = readLocation(c.location);
  const item = readItem(c.prices);
  const router = routerFor(datacenter, item.space);
  if (present(c.routerId) && readInt(c.routerId, 'routerId') !== router.id)
    throw publicFault(
      `routerId: router ${readInt(c.routerId, 'routerId')} cannot take a ${item.space.toLowerCase()} VLAN in ${datacenter.name}; its ${item.space === 'PUBLIC' ? 'frontend' : 'backend'} router is ${router.id} (${routerHostname(router)}).`,
    );
  const hourly = discounted(item.price, ctx.account.discounts).hourly;
  const name = readName(c.name);
  const verified = {
    complexType: VLAN_ORDER,
    packageId: VLAN_PACKAGE.id,
    location: String(datacenter.id),
    locationObject: { id: datacenter.id, name: datacenter.name, longName: datacenter.longName },
    quantity: 1,
    useHourlyPricing: false,
    routerId: router.id,
    ...(name ? { name } : {}),
    prices: [orderedPrice(item.price, item)],
    ...orderTotals(hourly),
  };
  const containerIdentifier = present(c.containerIdentifier)
    ? readString(c.containerIdentifier, 'containerIdentifier').slice(0, 100)
    : undefined;
  return { item, datacenterId: datacenter.id, name, containerIdentifier, hourly, verified };
}

function placeVlan(ctx: AuthedContext, v: CheckedVlan, orderId: number): WriteOp[] {
  const id = ctx.store.nextId('vlans');
  const billingItemId = ctx.store.nextId('billingItems');
  const vlan: VlanRec = {
    id,
    accountId: ctx.account.id,
    datacenterId: v.datacenterId,
    space: v.item.space,
    vlanNumber: 3000 + (id % 1000),
    name: v.name,
    billingItemId,
    orderId,
    createDate: ctx.now,
    modifyDate: ctx.now,
  };
  const item = {
    id: billingItemId,
    categoryCode: v.item.category,
    description: v.item.description,
    hourlyFlag: false,
    resourceTableId: id,
    ...(v.containerIdentifier ? { notes: v.containerIdentifier } : {}),
  };
  return [newBillingItem(ctx, item, v.hourly), { put: 'vlans', record: vlan }];
}

/** The owner of VLAN order containers (see Product_Order). */
export const vlanOrder = placedAsVerified(checkVlanOrder, placeVlan);

// ---------------------------------------------------------------------------------------------
// Cancelling

/** Why the VLAN cannot be cancelled now (`getCancelFailureReasons`): what is still on it. */
export function cancelFailureReasons(ctx: AuthedContext, vlan: VlanRec): string[] {
  const guests = ctx.store
    .by('guests', 'accountId', vlan.accountId)
    .filter((g) => networkComponents(g).some((n) => vlanOfNic(n, ctx).id === vlan.id));
  return guests.length > 0 ? [`${guests.length} virtual guest(s) still on the VLAN`] : [];
}

/** The live ordered VLAN `item` bills for, if it bills for one. */
export function vlanBilledBy(ctx: AuthedContext, item: BillingItemRec): VlanRec | undefined {
  if (item.resourceTableId === undefined || item.categoryCode !== VLAN_CATEGORY) return undefined;
  const vlan = ctx.store.get('vlans', item.resourceTableId);
  return vlan?.billingItemId === item.id && isLiveVlan(ctx.store, vlan, ctx.now) ? vlan : undefined;
}

/** The writes that end `vlan` at `at` (now: gone at once); refused while anything is on it. */
export function cancelVlanOps(
  ctx: AuthedContext,
  vlan: VlanRec,
  item: BillingItemRec,
  at: number,
): WriteOp[] {
  const reasons = cancelFailureReasons(ctx, vlan);
  if (reasons.length > 0)
    throw publicFault(
      `VLAN ${vlan.id} cannot be cancelled: ${reasons.join('; ')}. Move or cancel them first.`,
    );
  const cancelled = { put: 'billingItems' as const, record: { ...item, cancellationDate: at } };
  if (at > ctx.now) return item.cancellationDate === undefined ? [cancelled] : [];
  return [cancelled, { del: 'vlans', id: vlan.id }];
}

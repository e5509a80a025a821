/**
 * Svc_Billing_Item (Svc_Billing_Item_Virtual_Guest for a guest's item): what a guest costs. The
 * stored item carries the guest's total fee (this emulator keeps it on the top-level item); its
 * children, the order it came from and its location are derived from the guest.
 */
import { datacenterById, money, monthlyFromHourly } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, sameAccount, type ViewContext } from '../../schema';
import { GUEST_PACKAGE, flavorByKey } from '../product-package/model';
import { guestPrices, sized, type GuestRec } from '../virtual-guest/model';
import { endOfBillingMonth, type BillingItemRec } from './model';
import { discountsOf } from '../account/discounts';
import type { DedicatedHostRec } from '../dedicated-host/model';

/** A stored billing item, or a child derived from its guest (with `parentId`). */
export type BillingItemView = BillingItemRec & { parentId?: number };

const CHILD_BASE = 330_000_000;
const ORDER_ITEM_BASE = 310_000_000;
const ORDER_BASE = 320_000_000;

/** The guest a top-level item bills for, while it exists. */
function guestOf(b: BillingItemView, ctx: ViewContext): GuestRec | undefined {
  if (b.parentId !== undefined || b.resourceTableId === undefined) return undefined;
  const guest = ctx.store.get('guests', b.resourceTableId);
  return guest && guest.billingItemId === b.id ? sized(guest, ctx.now) : undefined;
}

/** The dedicated host a top-level item bills for (../dedicated-host/). */
function hostOf(b: BillingItemView, ctx: ViewContext): DedicatedHostRec | undefined {
  if (b.parentId !== undefined || b.resourceTableId === undefined) return undefined;
  const host = ctx.store.get('dedicatedHosts', b.resourceTableId);
  return host?.billingItemId === b.id ? host : undefined;
}

/** The item as it bills now: a guest's fees follow its last upgrade once that is done. */
function current(b: BillingItemView, ctx: ViewContext): BillingItemView {
  const upgrade = guestOf(b, ctx)?.upgrade;
  if (!upgrade || ctx.now < upgrade.readyAt) return b;
  return {
    ...b,
    hourlyRecurringFee: upgrade.hourlyRecurringFee,
    recurringFee: upgrade.recurringFee,
  };
}

/** A volume's snapshot space, billed as a child of the volume's item (its fee part of the item's). */
function snapshotChild(b: BillingItemView, ctx: ViewContext): BillingItemView[] {
  if (b.parentId !== undefined || b.categoryCode !== 'storage_as_a_service') return [];
  const volume =
    b.resourceTableId === undefined ? undefined : ctx.store.get('volumes', b.resourceTableId);
  const space = volume?.billingItemId === b.id ? volume.snapshotSpace : undefined;
  if (!space) return [];
  return [
    {
      id: CHILD_BASE + b.id * 16,
      accountId: b.accountId,
      parentId: b.id,
      categoryCode: 'storage_snapshot_space',
      description: `${space.gb} GB Storage Space (snapshot space)`,
      hourlyFlag: b.hourlyFlag,
      hourlyRecurringFee: money(space.hourly, 4),
      recurringFee: money(monthlyFromHourly(space.hourly), 2),
      createDate: space.createDate,
      cancellationDate: b.cancellationDate,
    },
  ];
}

function children(b: BillingItemView, ctx: ViewContext): BillingItemView[] {
  const guest = guestOf(b, ctx);
  if (!guest) return snapshotChild(b, ctx);
  return guestPrices(guest, discountsOf(ctx.store, b.accountId))
    .slice(1)
    .map((price, i) => ({
      id: CHILD_BASE + b.id * 16 + i,
      accountId: b.accountId,
      parentId: b.id,
      categoryCode: price.categoryCode,
      description: price.description,
      hourlyFlag: b.hourlyFlag,
      hourlyRecurringFee: money(price.hourly, 4),
      recurringFee: money(monthlyFromHourly(price.hourly), 2),
      createDate: b.createDate,
      cancellationDate: b.cancellationDate,
    }));
}

/** Start of the billing cycle holding `now` (the first of the month, in UTC). */
const cycleStart = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** Hours billed in the current cycle up to now (or the cancellation). */
function hoursUsed(b: BillingItemView, now: number): number {
  const end = Math.min(now, b.cancellationDate ?? now);
  const start = Math.max(b.createDate, cycleStart(now));
  return Math.max(0, Math.ceil((end - start) / 3_600_000));
}

/** The recurring amount of the next invoice: the month's fee, or hourly usage so far. */
const nextInvoiceAmount = (item: BillingItemView, ctx: ViewContext) => {
  const b = current(item, ctx);
  return b.hourlyFlag
    ? Number(money(Number(b.hourlyRecurringFee) * hoursUsed(b, ctx.now), 2))
    : Number(b.recurringFee);
};

const billingLocals = {
  id: (b: BillingItemView) => b.id,
  parentId: (b: BillingItemView) => b.parentId,
  categoryCode: (b: BillingItemView) => b.categoryCode,
  description: (b: BillingItemView) => b.description,
  hourlyFlag: (b: BillingItemView) => b.hourlyFlag,
  hourlyRecurringFee: (b: BillingItemView, ctx: ViewContext) => current(b, ctx).hourlyRecurringFee,
  recurringFee: (b: BillingItemView, ctx: ViewContext) => current(b, ctx).recurringFee,
  recurringMonths: () => 1,
  laborFee: () => '0',
  oneTimeFee: () => '0',
  setupFee: () => '0',
  allowCancellationFlag: (b: BillingItemView) =>
    b.parentId === undefined && b.cancellationDate === undefined ? 1 : 0,
  createDate: (b: BillingItemView) => formatApiDate(b.createDate),
  modifyDate: (b: BillingItemView) => formatApiDate(b.cancellationDate ?? b.createDate),
  cycleStartDate: (b: BillingItemView, ctx: ViewContext) =>
    formatApiDate(Math.max(b.createDate, cycleStart(ctx.now))),
  nextBillDate: (b: BillingItemView, ctx: ViewContext) =>
    b.cancellationDate === undefined ? formatApiDate(endOfBillingMonth(ctx.now)) : undefined,
  cancellationDate: (b: BillingItemView) =>
    b.cancellationDate === undefined ? undefined : formatApiDate(b.cancellationDate),
  hoursUsed: (b: BillingItemView, ctx: ViewContext) =>
    b.hourlyFlag ? String(hoursUsed(b, ctx.now)) : undefined,
  hostName: (b: BillingItemView, ctx: ViewContext) =>
    guestOf(b, ctx)?.hostname ?? hostOf(b, ctx)?.name,
  domainName: (b: BillingItemView, ctx: ViewContext) =>
    guestOf(b, ctx)?.domain ?? hostOf(b, ctx)?.domain,
  orderItemId: (b: BillingItemView) =>
    b.parentId === undefined && b.resourceTableId !== undefined
      ? ORDER_ITEM_BASE + b.id
      : undefined,
  serviceProviderId: () => 1,
  notes: (b: BillingItemView) => b.notes,
};

const billingRelations = {
  location: {
    type: 'Svc_Location',
    get: (b: BillingItemView, ctx: ViewContext) => {
      const guest = guestOf(b, ctx);
      return guest && datacenterById(guest.datacenterId);
    },
  },
  package: {
    type: 'Svc_Product_Package',
    get: (b: BillingItemView) => (b.resourceTableId === undefined ? undefined : GUEST_PACKAGE),
  },
  children: { type: 'Svc_Billing_Item', many: true, get: children },
  activeChildren: {
    type: 'Svc_Billing_Item',
    many: true,
    get: (b: BillingItemView, ctx: ViewContext) =>
      b.cancellationDate === undefined ? children(b, ctx) : [],
  },
  nextInvoiceChildren: { type: 'Svc_Billing_Item', many: true, get: children },
  orderItem: {
    type: 'Svc_Billing_Order_Item',
    get: (b: BillingItemView, ctx: ViewContext) => {
      const guest = guestOf(b, ctx);
      return guest && { item: b, guest };
    },
  },
};

const billingOnDemand = {
  // The stored item carries the whole guest's fee already (its children are the parts).
  nextInvoiceTotalRecurringAmount: (b: BillingItemView, ctx: ViewContext) =>
    nextInvoiceAmount(b, ctx),
  currentHourlyCharge: (b: BillingItemView, ctx: ViewContext) =>
    b.hourlyFlag
      ? money(Number(current(b, ctx).hourlyRecurringFee) * hoursUsed(b, ctx.now), 2)
      : undefined,
};

// A server's item (hardware/) and a dedicated host's show as the plain item; their resource is
// not modeled.
defineType<BillingItemView>(
  ['Svc_Billing_Item', 'Svc_Billing_Item_Hardware', 'Svc_Billing_Item_Virtual_DedicatedHost'],
  {
    locals: billingLocals,
    relations: billingRelations,
    onDemand: billingOnDemand,
  },
);

defineType<BillingItemView>('Svc_Billing_Item_Virtual_Guest', {
  locals: { ...billingLocals, resourceTableId: (b) => b.resourceTableId },
  relations: {
    ...billingRelations,
    resource: { type: 'Svc_Virtual_Guest', get: guestOf },
  },
  onDemand: billingOnDemand,
});

/** A guest's order line: the top-level billing item with the guest it was ordered for. */
export interface OrderItemView {
  item: BillingItemView;
  guest: GuestRec;
}

/** An order: the lines of the guests it placed (one for createObject, all of a Product_Order). */
export interface OrderView {
  id: number;
  lines: OrderItemView[];
}

// Placed through Product_Order: that order's id; createObject's order is derived.
const orderIdOf = (o: OrderItemView) => o.guest.orderId ?? ORDER_BASE + o.item.id;

/** The orders of an account's guests, oldest first. */
export function ordersOf(accountId: number, ctx: ViewContext): OrderView[] {
  const orders = new Map<number, OrderView>();
  for (const g of ctx.store.by('guests', 'accountId', accountId)) {
    const item = ctx.store.get('billingItems', g.billingItemId);
    if (!item) continue;
    const line = { item, guest: sized(g, ctx.now) };
    const id = orderIdOf(line);
    const order = orders.get(id) ?? { id, lines: [] };
    order.lines.push(line);
    orders.set(id, order);
  }
  return [...orders.values()].sort(
    (a, b) => a.lines[0].item.createDate - b.lines[0].item.createDate,
  );
}

const flavorOf = (o: OrderItemView) =>
  o.guest.flavorKeyName === undefined ? undefined : flavorByKey(o.guest.flavorKeyName);

defineType<OrderItemView>('Svc_Billing_Order_Item', {
  locals: {
    id: (o) => ORDER_ITEM_BASE + o.item.id,
    categoryCode: (o) => o.item.categoryCode,
    description: (o) => o.item.description,
    hostName: (o) => o.guest.hostname,
    domainName: (o) => o.guest.domain,
    hourlyRecurringFee: (o, ctx) => current(o.item, ctx).hourlyRecurringFee,
    recurringFee: (o, ctx) => current(o.item, ctx).recurringFee,
    quantity: () => 1,
    itemPriceId: (o) => guestPrices(o.guest)[0].id,
    presetId: (o) => flavorOf(o)?.id,
  },
  relations: {
    // The flavor the guest was ordered (or last upgraded) as: how clients read a guest's flavor.
    preset: { type: 'Svc_Product_Package_Preset', get: flavorOf },
    billingItem: { type: 'Svc_Billing_Item', get: (o) => o.item },
    location: { type: 'Svc_Location', get: (o) => datacenterById(o.guest.datacenterId) },
    package: { type: 'Svc_Product_Package', get: () => GUEST_PACKAGE },
    order: {
      type: 'Svc_Billing_Order',
      get: (o, ctx) => ordersOf(o.guest.accountId, ctx).find((x) => x.id === orderIdOf(o)),
    },
  },
});

defineType<OrderView>('Svc_Billing_Order', {
  locals: {
    id: (o) => o.id,
    accountId: (o) => o.lines[0].item.accountId,
    createDate: (o) => formatApiDate(o.lines[0].item.createDate),
    modifyDate: (o) => formatApiDate(o.lines[0].item.createDate),
    status: () => 'COMPLETE',
    userRecordId: (o) => o.lines[0].guest.orderedByUserId,
  },
  relations: {
    userRecord: {
      type: 'Svc_User_Customer',
      get: (o, ctx) => {
        const userId = o.lines[0].guest.orderedByUserId;
        return userId === undefined ? undefined : sameAccount(ctx.store.get('users', userId), ctx);
      },
    },
    items: { type: 'Svc_Billing_Order_Item', many: true, get: (o) => o.lines },
  },
  onDemand: {
    // What the order costs a month (the recurring fees of its guests as ordered).
    orderTotalAmount: (o) =>
      money(
        o.lines.reduce((sum, l) => sum + Number(l.item.recurringFee), 0),
        2,
      ),
  },
});

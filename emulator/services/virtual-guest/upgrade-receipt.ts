/**
 * A guest's upgrade order once checked (./upgrade-order.ts): the container as the API echoes it
 * (priced), and placing it: an UPGRADE transaction (see `sized` in ./model.ts) that leaves the
 * guest with its new size and its billing item with the new fees.
 */
import { itemPrice, money, monthlyFromHourly, type Price } from '../../catalog';
import type { WriteOp } from '../../store';
import type { AuthedContext } from '../context';
import { GUEST_PACKAGE } from '../product-package/model';
import { guestPrices, type GuestRec, type GuestSize, type GuestUpgradeRec } from './model';

export const UPGRADE = 'Svc_Container_Product_Order_Virtual_Guest_Upgrade';

/** A checked upgrade order: what `place` writes and `container` echoes. */
export interface CheckedUpgrade {
  /** The guest as it is now (a finished earlier upgrade applied). */
  guest: GuestRec;
  size: GuestSize;
  ordered: { price: Price; category: string }[];
  properties: unknown[];
}

/** The checked order as the API echoes it, priced (the recurring fees of the prices ordered). */
export function container(checked: CheckedUpgrade): Record<string, unknown> {
  const hourly = checked.ordered.reduce((sum, o) => sum + o.price.hourly, 0);
  return {
    complexType: UPGRADE,
    packageId: GUEST_PACKAGE.id,
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

/** The writes that place the checked upgrade as order `orderId`. */
export function placeUpgrade(
  ctx: AuthedContext,
  checked: CheckedUpgrade,
  orderId: number,
): WriteOp[] {
  const { guest, size } = checked;
  const stored = ctx.store.get('guests', guest.id)!;
  const ops: WriteOp[] = [];
  // A finished earlier upgrade becomes the guest's own size and its billing item's fees.
  const billing = ctx.store.get('billingItems', guest.billingItemId);
  if (stored.upgrade && billing) {
    const { hourlyRecurringFee, recurringFee } = stored.upgrade;
    ops.push({ put: 'billingItems', record: { ...billing, hourlyRecurringFee, recurringFee } });
  }
  const total = guestPrices({ ...guest, ...size }, ctx.account.discounts).reduce(
    (sum, p) => sum + p.hourly,
    0,
  );
  const upgrade: GuestUpgradeRec = {
    orderId,
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
  return ops;
}

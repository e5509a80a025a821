/**
 * Negotiated prices: an account may have a discount off the list price of what it orders, as a
 * percentage per item category (`guest_core`, `ram`, `os`, `port_speed`, `guest_disk` for every
 * disk position), with `*` for every category not named. That is how the real API's account-level
 * pricing shows to a caller: the order container (`generateOrderTemplate`, `verifyOrder`,
 * `placeOrder`, an upgrade's container) carries the account's fee on each item price and its
 * totals, the billing items the order creates bill those fees, and the product package's item
 * prices (`Product_Package.getItemPrices`, `getCreateObjectOptions`) stay the list prices.
 * Billing items keep the fees they were ordered at: a discount set later applies to later orders.
 */
import type { Price } from '../../catalog';
import type { Store, WriteOp } from '../../store';

/** Percent off the list price (0 to 100) by item category; `*` for any other category. */
export type Discounts = Readonly<Record<string, number>>;

const CATEGORY = /^(\*|[a-z][a-z0-9_]{0,39})$/;

/** The discounts as given (admin API, seed option), or an error naming the entry and the rule. */
export function checkDiscounts(value: unknown): Discounts {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error('discounts must be an object of item category -> percent off (0 to 100)');
  for (const [category, percent] of Object.entries(value)) {
    if (!CATEGORY.test(category))
      throw new Error(`discounts: '${category}' is no item category code (or '*')`);
    if (typeof percent !== 'number' || !(percent >= 0 && percent <= 100))
      throw new Error(
        `discounts.${category} must be a percent from 0 to 100, not ${String(percent)}`,
      );
  }
  return { ...(value as Record<string, number>) };
}

/** A disk's category, whatever its position (guest_disk0, guest_disk1, ... are one category). */
const family = (categoryCode: string) => categoryCode.replace(/^guest_disk\d+$/, 'guest_disk');

/** `price` at the account's terms: the fee less its category's discount, to the API's 4 decimals. */
export function discounted(price: Price, discounts: Discounts | undefined): Price {
  const percent = discounts?.[family(price.categoryCode)] ?? discounts?.['*'] ?? 0;
  if (percent === 0) return price;
  return { ...price, hourly: Math.round(price.hourly * (100 - percent) * 100) / 10_000 };
}

export const discountsOf = (store: Store, accountId: number): Discounts | undefined =>
  store.get('accounts', accountId)?.discounts;

/** The write that sets an account's discounts (an empty object: list prices again). */
export function setDiscountsOp(store: Store, accountId: number, discounts: Discounts): WriteOp {
  const account = store.get('accounts', accountId);
  if (!account) throw new Error(`no account ${accountId}`);
  const { discounts: _old, ...rest } = account;
  return {
    put: 'accounts',
    record: Object.keys(discounts).length > 0 ? { ...rest, discounts } : rest,
  };
}

import { billingMode, type VirtualGuest, type VirtualGuestManager } from '../../managers';
import { PRICED_FIELDS, guestTemplate, type GuestInputs } from './inputs';
import { choices } from './placement';

/**
 * What a guest costs, as the API prices it: an order is priced by `generateOrderTemplate` (the
 * item prices of its datacenter, disks included, as `verifyOrder` prices an order), a guest that
 * exists by its billing item (which follows its upgrades).
 */
export interface Price {
  /** Hourly cost; for monthly guests the monthly fee spread over 730 hours. */
  hourly: number;
  monthly: number;
}

/** The hours in a month the API prices by: a monthly fee is 730 hours of the hourly one. */
export const HOURS_PER_MONTH = 730;
const round = (value: number) => Math.round(value * 10_000) / 10_000;

function fromFees(hourlyFee: unknown, monthlyFee: unknown, hourlyBilling: boolean): Price {
  const monthly = round(Number(monthlyFee ?? 0) || 0);
  const hourly = hourlyBilling
    ? round(Number(hourlyFee ?? 0) || 0)
    : round(monthly / HOURS_PER_MONTH);
  return { hourly, monthly };
}

const priced = new Map<string, Promise<Price>>();

/** The price of ordering a guest with these inputs (asked once per provider process and order). */
export function priceOrder(
  guests: Pick<VirtualGuestManager, 'verifyTemplate'>,
  inputs: Pick<GuestInputs, (typeof PRICED_FIELDS)[number]>,
): Promise<Price> {
  const key = JSON.stringify(PRICED_FIELDS.map((field) => inputs[field] ?? null));
  let price = priced.get(key);
  if (!price) {
    // Names, keys, user data and tags do not change the price; placeholders keep it computable
    // while those are known only after apply.
    // With `datacenters`, the first choice: the one ordered unless it has no room.
    const placeholders = {
      ...(inputs as GuestInputs),
      datacenter: choices(inputs)[0],
      hostname: 'price',
      domain: 'example.com',
      userData: undefined,
      sshKeyIds: [],
      notes: undefined,
    };
    price = guests
      .verifyTemplate(guestTemplate(placeholders, []))
      .then((order) =>
        fromFees(
          order.postTaxRecurringHourly,
          order.postTaxRecurringMonthly,
          inputs.hourlyBillingFlag,
        ),
      );
    priced.set(key, price);
    price.catch(() => priced.delete(key));
  }
  return price;
}

/** What the guest is billed now (its billing item), if the API shows it. */
export function billedPrice(guest: VirtualGuest): Price | undefined {
  const item = guest.billingItem;
  if (!item || item.recurringFee === undefined) return undefined;
  return fromFees(
    item.hourlyRecurringFee,
    item.recurringFee,
    billingMode(guest.hourlyBillingFlag) === 'hourly',
  );
}

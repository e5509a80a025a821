import { ServerError, TransportError } from '../../client';
import {
  billingMode,
  type GuestTemplate,
  type VirtualGuest,
  type VirtualGuestManager,
} from '../../managers';
import { containsUnknown } from '../../framework/unknown';
import { HOURS_PER_MONTH } from '../faces';
import { PRICED_FIELDS, guestTemplate, type GuestInputs } from './inputs';
import { listHourlyFee } from './list-price';
import { choices } from './placement';
import { quotedInPlace } from './dedicated-host';

/**
 * What a guest costs, as the API prices it for this account: an order is priced by
 * `generateOrderTemplate` (the account's item prices at its datacenter, negotiated discounts
 * included, as `verifyOrder` prices an order), a guest that exists by its billing item (which
 * follows its upgrades). Only when the API does not quote the order is it priced at list prices.
 */
export interface Price {
  /** Hourly cost; for monthly guests the monthly fee spread over 730 hours. */
  hourly: number;
  monthly: number;
  source: PriceSource;
}

/**
 * Whose price it is: `account`, the account's own (the API's quote of the order, or what its
 * billing item bills); `list: <reason>`, the list price, because the account's could not be had.
 */
import type { PriceSource } from './fields';

export type { PriceSource };

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

function fromFees(
  hourlyFee: unknown,
  monthlyFee: unknown,
  hourlyBilling: boolean,
  source: PriceSource,
): Price {
  const monthly = round(Number(monthlyFee ?? 0) || 0);
  const hourly = hourlyBilling
    ? round(Number(hourlyFee ?? 0) || 0)
    : round(monthly / HOURS_PER_MONTH);
  return { hourly, monthly, source };
}

type Pricer = Pick<VirtualGuestManager, 'verifyTemplate' | 'getCreateOptions'>;
type PricedInputs = Pick<GuestInputs, (typeof PRICED_FIELDS)[number]>;

/** Prices asked per connection (so per account) and order: `up` asks once per configuration. */
const priced = new WeakMap<Pricer, Map<string, Promise<Price>>>();

/** The price of ordering a guest with these inputs (asked once per connection and order). */
export function priceOrder(guests: Pricer, inputs: PricedInputs): Promise<Price> {
  const template = quoteTemplate(inputs);
  const key = JSON.stringify(template);
  const cache = priced.get(guests) ?? new Map<string, Promise<Price>>();
  priced.set(guests, cache);
  let price = cache.get(key);
  if (!price) {
    price = quote(guests, template, inputs).catch((err: unknown) => {
      // A refusal of the order is the user's to fix (check reports it); no answer is not.
      if (!(err instanceof ServerError || err instanceof TransportError)) throw err;
      return atListPrice(
        guests,
        inputs,
        `the API did not quote the order: ${(err as Error).message}`,
      );
    });
    cache.set(key, price);
    price.catch(() => cache.delete(key));
  }
  return price;
}

/**
 * The order the API quotes: names, keys, user data and tags do not change the price;
 * placeholders keep it computable while those are known only after apply. With `datacenters`,
 * the first choice: the one ordered unless it has no room. What the order places the guest on
 * (a dedicated host, a VLAN, a group) goes in as given: the API prices a guest on a host as it
 * bills it; one known only after apply (made by the same `up`) is left out of the preview's quote.
 */
function quoteTemplate(inputs: PricedInputs): GuestTemplate {
  const placeholders: Record<string, unknown> = {
    ...(inputs as GuestInputs),
    datacenter: choices(inputs)[0],
    hostname: 'price',
    domain: 'example.com',
    userData: undefined,
    sshKeyIds: [],
    notes: undefined,
  };
  for (const [field, value] of Object.entries(placeholders))
    if (containsUnknown(value)) delete placeholders[field];
  return guestTemplate(placeholders as GuestInputs, []);
}

/** The account's price: the API's quote of the order. */
async function quote(
  guests: Pricer,
  template: GuestTemplate,
  inputs: PricedInputs,
): Promise<Price> {
  const order = await guests.verifyTemplate(template);
  return fromFees(
    order.postTaxRecurringHourly,
    order.postTaxRecurringMonthly,
    inputs.hourlyBillingFlag,
    'account',
  );
}

async function atListPrice(guests: Pricer, inputs: PricedInputs, why: string): Promise<Price> {
  const hourly = listHourlyFee(await guests.getCreateOptions(), inputs);
  const monthly = round(hourly * HOURS_PER_MONTH, 2);
  return fromFees(hourly, monthly, inputs.hourlyBillingFlag, `list: ${why}`);
}

/** What the guest is billed now (its billing item), if the API shows it. */
export function billedPrice(guest: VirtualGuest): Price | undefined {
  const item = guest.billingItem;
  if (!item || item.recurringFee === undefined) return undefined;
  return fromFees(
    item.hourlyRecurringFee,
    item.recurringFee,
    billingMode(guest.hourlyBillingFlag) === 'hourly',
    'account',
  );
}

/** What a guest costs: what it is billed (its billing item), else the price of its order. */
export async function guestPrice(
  guests: Pricer,
  guest: VirtualGuest,
  inputs: PricedInputs,
): Promise<Price> {
  return billedPrice(guest) ?? (await priceOrder(guests, quotedInPlace(inputs)));
}

/** A price as the guest's cost outputs (and the inputs `check` prices them into). */
export const costOutputs = (price: Price) => ({
  estimatedHourlyCost: price.hourly,
  estimatedMonthlyCost: price.monthly,
  estimatedCostSource: price.source,
});

import type { Client } from '../client';
import { unlessNotFound } from '../managers/not-found';
import { CYCLE_MASK, owedUntilAnniversary, type BillingCycle } from '../framework/billing-cycle';
import type { OwedOnCancel } from './faces';

/**
 * How a billed object's billing ends when it is cancelled, for every billed kind (a guest, a
 * volume, a bare metal server): an hourly one stops at the cancel; a monthly one is billed to its
 * anniversary, and what is left of its month (paid in advance) is owed, read from its billing
 * item's cycle with one call to the kind's own service.
 */

/** When the old object's billing ends: at its cancel (hourly), or at its billing anniversary. */
export type Ending =
  | { mode: 'hourly' }
  | { mode: 'monthly'; billedUntil: string; owed: number }
  | { mode: 'monthly'; unknown: string };

const money = (value: number) => `$${value.toFixed(2)}`;

/** `billed to its anniversary 2026-12-01: $30.00 still owed after the cancel`, and the like. */
export function describeEnding(ending: Ending): string {
  if (ending.mode === 'hourly') return 'its hourly billing stops at the cancel';
  if ('unknown' in ending) return `monthly, what it still owes is not known (${ending.unknown})`;
  return `monthly, billed to its anniversary ${ending.billedUntil.slice(0, 10)}: ${money(ending.owed)} still owed after the cancel`;
}

/** A monthly object's anniversary and what a cancel at `now` still owes, when the API shows both. */
export async function owedOnCancel(
  client: Client,
  service: string,
  id: number,
  now = Date.now(),
): Promise<OwedOnCancel | undefined> {
  const object = (await unlessNotFound(
    client.call(service, 'getObject', { id, mask: `${CYCLE_MASK},billingItem.hourlyFlag` }),
  )) as { billingItem?: (BillingCycle & { hourlyFlag?: boolean }) | null } | undefined;
  const cycle = object?.billingItem;
  if (!cycle || cycle.hourlyFlag || !cycle.nextBillDate) return undefined;
  const owed = owedUntilAnniversary(cycle, now);
  return owed === undefined ? undefined : { billedUntil: cycle.nextBillDate, owed };
}

/** How object `id` of `service` stops billing if cancelled now (monthly: one call). */
export async function endingOf(
  client: Client,
  service: string,
  id: number,
  hourly: boolean,
): Promise<Ending> {
  if (hourly) return { mode: 'hourly' };
  try {
    const owed = await owedOnCancel(client, service, id);
    return owed
      ? { mode: 'monthly', ...owed }
      : { mode: 'monthly', unknown: 'the API shows no billing cycle for it' };
  } catch (err) {
    return { mode: 'monthly', unknown: (err as Error).message };
  }
}

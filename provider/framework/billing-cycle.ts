import type { Client } from '../client';
import { unlessNotFound } from '../managers/not-found';
/**
 * What ending a monthly object (a guest, a volume) still costs: its month is invoiced in advance,
 * so the part of the current cycle's fee from the cancel up to its billing anniversary (the
 * billing item's next bill date) is owed whatever happens. An hourly object's billing stops at
 * the cancel.
 */
export interface BillingCycle {
  recurringFee?: string;
  cycleStartDate?: string;
  nextBillDate?: string;
}

export const CYCLE_MASK = 'billingItem[recurringFee,cycleStartDate,nextBillDate]';

/** The part of a cycle's fee from `now` to the next bill date, to the cent. */
export function owedUntilAnniversary(cycle: BillingCycle, now: number): number | undefined {
  const start = Date.parse(cycle.cycleStartDate ?? '');
  const end = Date.parse(cycle.nextBillDate ?? '');
  const fee = Number(cycle.recurringFee);
  if (!(end > start) || !Number.isFinite(fee)) return undefined;
  const left = Math.min(Math.max(end - now, 0), end - start);
  return Math.round(((fee * left) / (end - start)) * 100) / 100;
}

/**
 * What cancelling object `id` of `service` (a volume, a dedicated host: a billing item of its
 * own) at `now` still owes: nothing for an hourly one, else the rest of its month.
 */
export const owedOnCancelOf =
  (service: string) =>
  async (
    client: Client,
    id: number,
    now: number,
  ): Promise<{ billedUntil: string; owed: number } | undefined> => {
    const object = (await unlessNotFound(
      client.call(service, 'getObject', { id, mask: `${CYCLE_MASK},billingItem.hourlyFlag` }),
    )) as { billingItem?: BillingCycle & { hourlyFlag?: boolean } } | undefined;
    const cycle = object?.billingItem;
    if (!cycle || cycle.hourlyFlag || !cycle.nextBillDate) return undefined;
    const owed = owedUntilAnniversary(cycle, now);
    return owed === undefined ? undefined : { billedUntil: cycle.nextBillDate, owed };
  };

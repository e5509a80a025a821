import type { Client } from '../../client';
import { unlessNotFound } from '../../managers/not-found';

/**
 * What ending a monthly guest still costs: its month is invoiced in advance, so the part of the
 * current cycle's fee from the cancel up to its billing anniversary (the billing item's next bill
 * date) is owed whatever happens. An hourly guest's billing stops at the cancel.
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

/** The billing cycle of guest `id` (one call), if the guest and its billing item show one. */
export async function billingCycle(client: Client, id: number): Promise<BillingCycle | undefined> {
  const guest = (await unlessNotFound(
    client.call('Virtual_Guest', 'getObject', { id, mask: CYCLE_MASK }),
  )) as { billingItem?: BillingCycle | null } | undefined;
  return guest?.billingItem ?? undefined;
}

/** A monthly guest's anniversary and what is owed after a cancel now, when the API shows both. */
export async function owedOnCancel(
  client: Client,
  id: number,
  now = Date.now(),
): Promise<{ billedUntil: string; owed: number } | undefined> {
  const cycle = await billingCycle(client, id);
  const owed = cycle && owedUntilAnniversary(cycle, now);
  return owed === undefined || !cycle?.nextBillDate
    ? undefined
    : { billedUntil: cycle.nextBillDate, owed };
}

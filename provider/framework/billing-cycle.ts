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

import type { Client } from '../../client';
import { unlessNotFound } from '../../managers/not-found';
import { CYCLE_MASK, owedUntilAnniversary, type BillingCycle } from '../../framework/billing-cycle';

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

import type { Client } from '../client';

/**
 * Cancels a billing item (`Billing_Item.cancelItem(immediate, cancelAssociated, reason, note)`),
 * as the reference client's managers cancel what an order bought: at once, or at its anniversary.
 */
export async function cancelBillingItem(
  client: Client,
  billingItemId: number,
  options: { immediate: boolean; reason: string; associated: boolean },
): Promise<void> {
  await client.call('Billing_Item', 'cancelItem', {
    id: billingItemId,
    args: [options.immediate, options.associated, options.reason],
  });
}

import type { Client } from '../client';

/**
 * What every order through Product_Order shares, whatever it orders (a volume, a dedicated host):
 * pricing a container, placing it, and cancelling what it made through its billing item.
 */

/** The order priced, nothing placed: `{ postTaxRecurringMonthly, postTaxRecurringHourly, ... }`. */
export async function verifyOrder(
  client: Client,
  container: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (await client.call('Product_Order', 'verifyOrder', { args: [container] })) as Record<
    string,
    unknown
  >;
}

/** Places the order. A write: the client never repeats it on its own. */
export async function placeOrder(
  client: Client,
  container: Record<string, unknown>,
): Promise<{ orderId: number }> {
  return (await client.call('Product_Order', 'placeOrder', { args: [container] })) as {
    orderId: number;
  };
}

/** Cancels a billing item: at once, or at its anniversary. */
export async function cancelBillingItem(
  client: Client,
  billingItemId: number,
  immediate: boolean,
  reason: string,
): Promise<void> {
  await client.call('Billing_Item', 'cancelItem', {
    id: billingItemId,
    args: [immediate, true, reason],
  });
}

import type { Client } from '../client';

/** What a manager of things bought through `Product_Order` shares: verifying and placing orders. */
export class ProductOrderManager {
  constructor(protected readonly client: Client) {}

  /** The order priced, nothing placed: `{ postTaxRecurringMonthly, postTaxRecurringHourly, ... }`. */
  async verify(container: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await this.client.call('Product_Order', 'verifyOrder', {
      args: [container],
    })) as Record<string, unknown>;
  }

  /** Places the order. A write: the client never repeats it on its own. */
  async place(container: Record<string, unknown>): Promise<{ orderId: number }> {
    return (await this.client.call('Product_Order', 'placeOrder', { args: [container] })) as {
      orderId: number;
    };
  }
}

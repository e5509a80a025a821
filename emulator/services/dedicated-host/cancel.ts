/**
 * Cancelling a dedicated host through its billing item (`Billing_Item.cancelItem` or
 * `cancelService`) or `Virtual_DedicatedHost.deleteObject` (what the reference client's
 * `cancel_host` calls: at once). An hourly host, or one cancelled immediately, is gone at once; a
 * monthly one stays, billed, until the anniversary (the first of the next month). Refused while
 * guests are on the host (a guest being reclaimed has left it): cancel them first.
 */
import { publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import { endOfBillingMonth, type BillingItemRec } from '../billing-item/model';
import type { AuthedContext } from '../context';
import { guestsOn, isLive, type DedicatedHostRec } from './model';

export const HOST_BILLING_CATEGORY = 'dedicated_virtual_hosts';

/** The live host `item` bills for, if it bills for one. */
export function hostBilledBy(
  ctx: AuthedContext,
  item: BillingItemRec,
): DedicatedHostRec | undefined {
  if (item.resourceTableId === undefined || item.categoryCode !== HOST_BILLING_CATEGORY)
    return undefined;
  const host = ctx.store.get('dedicatedHosts', item.resourceTableId);
  return host?.billingItemId === item.id && isLive(ctx.store, host, ctx.now) ? host : undefined;
}

/** The writes that cancel `host`: at once when hourly or `immediate`, else at the anniversary. */
export function cancelHostOps(
  ctx: AuthedContext,
  host: DedicatedHostRec,
  item: BillingItemRec,
  immediate: boolean,
): WriteOp[] {
  const guests = guestsOn(ctx, host);
  if (guests.length > 0)
    throw publicFault(
      `Dedicated host ${host.id} still has guests (${guests.map((g) => g.id).join(', ')}); cancel the guests on it before the host.`,
    );
  if (immediate || item.hourlyFlag)
    return [
      { put: 'billingItems', record: { ...item, cancellationDate: ctx.now } },
      { del: 'dedicatedHosts', id: host.id },
    ];
  if (item.cancellationDate !== undefined)
    throw publicFault(`Billing item ${item.id} has already been cancelled.`);
  return [
    { put: 'billingItems', record: { ...item, cancellationDate: endOfBillingMonth(ctx.now) } },
  ];
}

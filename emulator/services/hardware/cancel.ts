/**
 * Cancelling a bare metal server through its billing item (`Billing_Item.cancelItem`, as the
 * reference client's `cancel_hardware` does, or `cancelService`): an hourly server is gone at
 * once; a monthly one stays, billed, until the anniversary (the first of the next month) unless
 * the cancel is immediate. A server still provisioning, or whose provisioning failed, can be
 * cancelled too.
 */
import { publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import type { BillingItemRec } from '../billing-item/model';
import { endOfBillingMonth } from '../billing-item/model';
import type { AuthedContext } from '../context';
import { isLive, type HardwareRec } from './model';

/** The live server `item` bills for, if it bills for one. */
export function hardwareBilledBy(
  ctx: AuthedContext,
  item: BillingItemRec,
): HardwareRec | undefined {
  if (item.resourceTableId === undefined || item.categoryCode !== 'server') return undefined;
  const server = ctx.store.get('hardware', item.resourceTableId);
  return server?.ordered?.billingItemId === item.id && isLive(ctx.store, server, ctx.now)
    ? server
    : undefined;
}

/** The writes that cancel `server`: at once when hourly or `immediate`, else at the anniversary. */
export function cancelHardwareOps(
  ctx: AuthedContext,
  server: HardwareRec,
  item: BillingItemRec,
  immediate: boolean,
): WriteOp[] {
  if (immediate || item.hourlyFlag) {
    return [
      { put: 'billingItems', record: { ...item, cancellationDate: ctx.now } },
      { del: 'hardware', id: server.id },
    ];
  }
  if (item.cancellationDate !== undefined)
    throw publicFault(`Billing item ${item.id} has already been cancelled.`);
  return [
    { put: 'billingItems', record: { ...item, cancellationDate: endOfBillingMonth(ctx.now) } },
  ];
}

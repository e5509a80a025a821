/**
 * Svc_Billing_Item: cancelService (and cancelItem with immediate=true) cancels at once, which
 * for a guest's billing item removes the guest, hourly or monthly; cancelItem with
 * immediate=false only schedules the cancellation for the end of the billing month.
 */
import { publicFault } from '../errors';
import type { BillingItemRec } from '../records';
import type { WriteOp } from '../store';
import { expectArgs, ok, owned, requireId, type AuthedContext } from './context';
import { removeGuestOps } from './guest-records';
import { readFlag } from './guest-template';
import { defineService } from './registry';

const loadItem = (ctx: AuthedContext): BillingItemRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('billingItems', id), id);
};

function cancelNowOps(ctx: AuthedContext, item: BillingItemRec): WriteOp[] {
  if (item.cancellationDate !== undefined && item.cancellationDate <= ctx.now) {
    throw publicFault(`Billing item ${item.id} has already been cancelled.`);
  }
  const guest =
    item.resourceTableId === undefined ? undefined : ctx.store.get('guests', item.resourceTableId);
  if (guest && guest.billingItemId === item.id) return removeGuestOps(ctx.store, guest, ctx.now);
  return [{ put: 'billingItems', record: { ...item, cancellationDate: ctx.now } }];
}

/** First instant of the next month (API zone is close enough to UTC for a billing date). */
const endOfBillingMonth = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

defineService({
  name: 'Billing_Item',
  load: loadItem,
  methods: {
    cancelService: {
      handler: async (ctx) => {
        expectArgs(ctx, []);
        await ctx.store.write(cancelNowOps(ctx, loadItem(ctx)));
        return ok(true);
      },
    },
    cancelItem: {
      handler: async (ctx) => {
        expectArgs(
          ctx,
          ['cancelImmediately', 'cancelAssociatedBillingItems', 'reason', 'customerNote'],
          0,
        );
        const item = loadItem(ctx);
        const immediate =
          ctx.args[0] === undefined || ctx.args[0] === null
            ? false
            : readFlag(ctx.args[0], 'cancelImmediately');
        if (immediate) {
          await ctx.store.write(cancelNowOps(ctx, item));
        } else if (item.cancellationDate === undefined) {
          await ctx.store.write([
            {
              put: 'billingItems',
              record: { ...item, cancellationDate: endOfBillingMonth(ctx.now) },
            },
          ]);
        }
        return ok(true);
      },
    },
  },
});

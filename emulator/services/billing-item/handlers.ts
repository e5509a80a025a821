/**
 * Svc_Billing_Item: cancelService (and cancelItem with immediate=true) cancels at once, which
 * for a guest's billing item removes the guest, hourly or monthly; cancelItem with
 * immediate=false only schedules the cancellation for the end of the billing month.
 */
import { publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import { optionalFlag } from '../../validators';
import { expectArgs, ok, owned, requireId, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { removeGuestOps } from '../virtual-guest/model';
import { endOfBillingMonth, tables, type BillingItemRec } from './model';
import './types';

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

export const billingItem = serviceFolder({
  tables,
  services: {
    Billing_Item: {
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
            const immediate = optionalFlag(ctx.args[0], 'cancelImmediately');
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
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    billingItem: typeof billingItem;
  }
}

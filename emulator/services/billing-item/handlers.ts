/**
 * Svc_Billing_Order: the orders of the account's guests (derived, see ./types.ts).
 * Svc_Billing_Item: cancelService (and cancelItem with immediate=true) cancels at once, which
 * for a guest's billing item cancels the guest, hourly or monthly (see removeGuestOps: billed
 * until now or the anniversary, reclaimed, then gone); cancelItem with
 * immediate=false only schedules the cancellation for the end of the billing month. A volume's
 * item (network-storage/cancel.ts) ends the volume at once or at the anniversary; a bare metal
 * server's (hardware/cancel.ts) and a dedicated host's (dedicated-host/cancel.ts) at once when
 * hourly or immediate, else at the anniversary; an ordered VLAN's (network/vlan-order.ts) at once
 * or at the anniversary, refused while guests are on it.
 */
import { objectNotFound, publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import { optionalFlag } from '../../validators';
import { expectArgs, list, ok, owned, requireId, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { removeGuestOps } from '../virtual-guest/model';
import { cancelVolumeOps, volumeBilledBy } from '../network-storage/cancel';
import { cancelHardwareOps, hardwareBilledBy } from '../hardware/cancel';
import { cancelHostOps, hostBilledBy } from '../dedicated-host/cancel';
import { cancelVlanOps, vlanBilledBy } from '../network/vlan-order';
import { endOfBillingMonth, tables, type BillingItemRec } from './model';
import { ordersOf } from './types';

const loadItem = (ctx: AuthedContext): BillingItemRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('billingItems', id), id);
};

function cancelNowOps(ctx: AuthedContext, item: BillingItemRec): WriteOp[] {
  const volume = volumeBilledBy(ctx, item);
  if (volume) return cancelVolumeOps(ctx, volume, item, ctx.now);
  const vlan = vlanBilledBy(ctx, item);
  if (vlan) return cancelVlanOps(ctx, vlan, item, ctx.now);
  const server = hardwareBilledBy(ctx, item);
  if (server) return cancelHardwareOps(ctx, server, item, true);
  const host = hostBilledBy(ctx, item);
  if (host) return cancelHostOps(ctx, host, item, true);
  const guest =
    item.resourceTableId === undefined ? undefined : ctx.store.get('guests', item.resourceTableId);
  const ofGuest = guest !== undefined && guest.billingItemId === item.id;
  // A guest's monthly item stays billed to its anniversary after the cancel.
  if (
    item.cancellationDate !== undefined &&
    (item.cancellationDate <= ctx.now || (!ofGuest && item.resourceTableId !== undefined))
  ) {
    throw publicFault(`Billing item ${item.id} has already been cancelled.`);
  }
  if (ofGuest) return removeGuestOps(ctx.store, guest, ctx.now, ctx.settings.reclaimDelayMs);
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
            const volume = volumeBilledBy(ctx, item);
            const server = hardwareBilledBy(ctx, item);
            const host = hostBilledBy(ctx, item);
            const vlan = vlanBilledBy(ctx, item);
            if (server) {
              await ctx.store.write(cancelHardwareOps(ctx, server, item, immediate));
            } else if (host) {
              await ctx.store.write(cancelHostOps(ctx, host, item, immediate));
            } else if (volume && !immediate) {
              await ctx.store.write(cancelVolumeOps(ctx, volume, item, endOfBillingMonth(ctx.now)));
            } else if (vlan && !immediate) {
              await ctx.store.write(cancelVlanOps(ctx, vlan, item, endOfBillingMonth(ctx.now)));
            } else if (immediate) {
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
    Billing_Order: {
      load: (ctx) => {
        const id = requireId(ctx);
        const found = ordersOf(ctx.account.id, ctx).find((o) => o.id === id);
        if (!found) throw objectNotFound(id);
        return found;
      },
      methods: {
        getAllObjects: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, 'Svc_Billing_Order', ordersOf(ctx.account.id, ctx), null);
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

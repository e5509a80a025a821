/**
 * Cancelling a volume through its billing item (`Billing_Item.cancelItem`, as the reference
 * client's `cancel_volume` does): immediately, the volume is gone at once; otherwise it stays,
 * billed, until the anniversary (the first of the next month), then it is gone. Refused while the
 * volume provisions or is modified, and once it has been cancelled at once.
 */
import { publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import type { AuthedContext } from '../context';
import type { BillingItemRec } from '../billing-item/model';
import { isLive, isProvisioned, upgradeRunning, type VolumeRec } from './model';

/** The live volume `item` bills for, if it bills for one. */
export function volumeBilledBy(ctx: AuthedContext, item: BillingItemRec): VolumeRec | undefined {
  if (item.resourceTableId === undefined || item.categoryCode !== 'storage_as_a_service')
    return undefined;
  const volume = ctx.store.get('volumes', item.resourceTableId);
  return volume?.billingItemId === item.id && isLive(ctx.store, volume, ctx.now)
    ? volume
    : undefined;
}

/** The writes that end `volume` at `at` (now: deleted at once). */
export function cancelVolumeOps(
  ctx: AuthedContext,
  volume: VolumeRec,
  item: BillingItemRec,
  at: number,
): WriteOp[] {
  if (!isProvisioned(volume, ctx.now) || upgradeRunning(volume, ctx.now)) {
    throw publicFault(
      `Volume ${volume.id} has an active transaction; it can be cancelled once that has finished.`,
    );
  }
  const cancelled = { put: 'billingItems' as const, record: { ...item, cancellationDate: at } };
  if (at > ctx.now) return item.cancellationDate === undefined ? [cancelled] : [];
  return [cancelled, { del: 'volumes', id: volume.id }];
}

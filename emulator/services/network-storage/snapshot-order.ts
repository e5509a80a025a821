/**
 * Snapshot space ordered for a volume that has none, or grown, as the reference client orders it
 * (softlayer-python `storage_utils.prepare_snapshot_order_object`):
 * `Svc_Container_Product_Order_Network_Storage_Enterprise_SnapshotSpace` (and `..._Upgrade`) with
 * `volumeId`, `location`, `quantity` 1, `useHourlyPricing` as the volume bills and one
 * `storage_snapshot_space` price, restricted to the volume's tier or IOPS. The space is billed as
 * a child of the volume's billing item (its fee added to the item's). Refused as the API refuses
 * them: a second space without `_Upgrade`, an upgrade of none, a smaller or equal size (snapshot
 * space only grows), a price of another tier, another billing, another datacenter.
 */
import { recurringFees } from '../../catalog';
import { invalidValue, publicFault } from '../../errors';
import { present, readFlag, readInt } from '../../validators';
import type { AuthedContext } from '../context';
import { placedAsVerified } from '../service';
import { STORAGE_PACKAGE } from '../product-package/storage-items';
import { readLocation } from '../virtual-guest/guest-order-prices';
import { orderedPrice, orderTotals } from '../../catalog';
import { billedFee, snapshotPriceFor, type VolumeRec } from './model';
import {
  SNAPSHOT_ORDER,
  checkKeys,
  hourlyOf,
  need,
  readPrices,
  upgradableVolume,
} from './storage-order';

export const SNAPSHOT_UPGRADE = `${SNAPSHOT_ORDER}_Upgrade`;

const KEYS = new Set([
  'complexType',
  'packageId',
  'prices',
  'quantity',
  'location',
  'volumeId',
  'useHourlyPricing',
  'containerIdentifier',
]);

interface CheckedSpace {
  volume: VolumeRec;
  gb: number;
  hourly: number;
  verified: Record<string, unknown>;
}

function checkSpace(ctx: AuthedContext, c: Record<string, unknown>, upgrade: boolean) {
  const type = upgrade ? SNAPSHOT_UPGRADE : SNAPSHOT_ORDER;
  checkKeys(c, KEYS, type);
  const volume = upgradableVolume(ctx, { id: c.volumeId });
  const ordered = readPrices(c.prices);
  if (ordered.size !== 1)
    throw publicFault(`${type} takes exactly one price, of the category storage_snapshot_space.`);
  const item = snapshotPriceFor(need(ordered, 'storage_snapshot_space'), volume);
  const had = volume.snapshotSpace?.gb;
  if (!upgrade && had !== undefined)
    throw publicFault(
      `Volume ${volume.id} already has ${had} GB of snapshot space; order more with ${SNAPSHOT_UPGRADE}.`,
    );
  if (upgrade && had === undefined)
    throw publicFault(
      `Volume ${volume.id} has no snapshot space to upgrade; order it with ${SNAPSHOT_ORDER}.`,
    );
  if (had !== undefined && item.capacity <= had)
    throw publicFault(
      `The requested snapshot space (${item.capacity} GB) is not larger than volume ${volume.id}'s ${had} GB: snapshot space can only grow.`,
    );
  const datacenter = readLocation(c.location);
  if (datacenter.id !== volume.datacenterId)
    throw invalidValue(
      `Invalid value provided for 'location': volume ${volume.id} is in another datacenter.`,
    );
  if (present(c.quantity) && readInt(c.quantity, 'quantity') !== 1)
    throw invalidValue("Invalid value provided for 'quantity': snapshot space is ordered once.");
  const hourlyFlag =
    present(c.useHourlyPricing) && readFlag(c.useHourlyPricing, 'useHourlyPricing');
  if (hourlyFlag !== volume.hourly)
    throw publicFault(
      `Volume ${volume.id} is billed ${volume.hourly ? 'hourly' : 'monthly'}; its snapshot space is billed the same way (useHourlyPricing ${volume.hourly}).`,
    );
  const hourly = hourlyOf(ctx, item);
  const verified = {
    complexType: type,
    packageId: STORAGE_PACKAGE.id,
    volumeId: volume.id,
    location: String(datacenter.id),
    quantity: 1,
    useHourlyPricing: volume.hourly,
    prices: [orderedPrice(item.price, item)],
    ...orderTotals(hourly),
  };
  return { volume, gb: item.capacity, hourly, verified };
}

function placeSpace(ctx: AuthedContext, s: CheckedSpace, orderId: number) {
  const stored = ctx.store.get('volumes', s.volume.id)!;
  const snapshotSpace = { gb: s.gb, hourly: s.hourly, createDate: ctx.now, orderId };
  const item = ctx.store.get('billingItems', stored.billingItemId)!;
  const volumeFee = Number(item.hourlyRecurringFee) - (stored.snapshotSpace?.hourly ?? 0);
  const record = { ...stored, snapshotSpace };
  return [
    { put: 'volumes' as const, record },
    {
      put: 'billingItems' as const,
      record: { ...item, ...recurringFees(billedFee(record, volumeFee)) },
    },
  ];
}

export const snapshotSpaceOrder = placedAsVerified(
  (ctx, c): CheckedSpace => checkSpace(ctx, c, false),
  placeSpace,
);
export const snapshotSpaceUpgrade = placedAsVerified(
  (ctx, c): CheckedSpace => checkSpace(ctx, c, true),
  placeSpace,
);

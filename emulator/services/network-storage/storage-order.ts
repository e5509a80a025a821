/**
 * Volumes ordered and resized the way the reference client orders them (softlayer-python
 * `storage_utils.prepare_volume_order_object` and `prepare_modify_order_object`):
 *
 * - `Svc_Container_Product_Order_Network_Storage_AsAService`: package 759, `location`, `prices`
 *   (the service, block or file, the space, and a tier or IOPS price), `volumeSize`, `iops` for a
 *   performance volume, `osFormatType: {keyName}` for block, `useHourlyPricing`, and optionally a
 *   snapshot space price (`storage_snapshot_space`, of the volume's tier or IOPS: ./snapshot-order.ts);
 * - `..._AsAService_Upgrade`: `volume: {id}`, `volumeSize`, `iops`, and the new space and tier or
 *   IOPS prices. A smaller size is refused (a volume only grows); so is an upgrade while the
 *   volume provisions or another upgrade runs.
 *
 * Refused as the API refuses them, naming the property: a price of no storage item, two prices
 * of one category, a missing category, a size or IOPS figure outside the price's range.
 */
import { orderTotals, orderedPrice, recurringFees, type Datacenter } from '../../catalog';
import { invalidValue, publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import { isStruct, listOf, present, readFlag, readInt, readString } from '../../validators';
import { discounted } from '../account/discounts';
import { owned, type AuthedContext } from '../context';
import {
  PERFORMANCE_IOPS,
  STORAGE_PACKAGE,
  VOLUME_GB,
  storageItemByPrice,
  type StorageItem,
} from '../product-package/storage-items';
import { newBillingItem } from '../billing-item/model';
import { placedAsVerified, type CheckedOrder, type OrderOwner } from '../service';
import { readLocation } from '../virtual-guest/guest-order-prices';
import {
  OS_FORMATS,
  backendAddress,
  billedFee,
  snapshotPriceFor,
  current,
  hourlyFee,
  isLive,
  isPerformance,
  isProvisioned,
  upgradeRunning,
  usernameFor,
  type VolumeKind,
  type VolumeRec,
  type VolumeSize,
} from './model';

export const VOLUME_ORDER = 'Svc_Container_Product_Order_Network_Storage_AsAService';
export const VOLUME_UPGRADE = 'Svc_Container_Product_Order_Network_Storage_AsAService_Upgrade';
export const SNAPSHOT_ORDER =
  'Svc_Container_Product_Order_Network_Storage_Enterprise_SnapshotSpace';

const ORDER_KEYS = new Set([
  'complexType',
  'packageId',
  'prices',
  'quantity',
  'location',
  'useHourlyPricing',
  'volumeSize',
  'iops',
  'osFormatType',
  'containerIdentifier',
]);
const UPGRADE_KEYS = new Set([
  'complexType',
  'packageId',
  'prices',
  'volume',
  'volumeSize',
  'iops',
  'containerIdentifier',
]);

/** The ordered prices by category, each checked against the storage package. */
type Ordered = Map<string, StorageItem>;

export function checkKeys(c: Record<string, unknown>, known: Set<string>, type: string): void {
  for (const key of Object.keys(c)) {
    if (!known.has(key) && present(c[key]))
      throw publicFault(`${type}.${key} is not modeled by this emulator; leave it out.`);
  }
  const pkg = present(c.packageId) ? readInt(c.packageId, 'packageId') : undefined;
  if (pkg !== STORAGE_PACKAGE.id) {
    throw publicFault(
      `Invalid package #${pkg ?? 'none'}: volumes are ordered from package ${STORAGE_PACKAGE.id} (${STORAGE_PACKAGE.keyName}).`,
    );
  }
}

export function readPrices(value: unknown): Ordered {
  const ordered: Ordered = new Map();
  for (const [i, entry] of listOf(value ?? [], 'prices').entries()) {
    if (!isStruct(entry)) throw invalidValue(`Invalid value provided for 'prices[${i}]'.`);
    const id = readInt(entry.id, `prices[${i}].id`);
    const item = storageItemByPrice(id);
    if (!item) {
      throw publicFault(
        `Price #${id} (prices[${i}]) is not a price of package ${STORAGE_PACKAGE.id}; see Product_Package::getItems.`,
      );
    }
    if (ordered.has(item.category))
      throw publicFault(`Only one price per category: ${item.category} is given twice.`);
    ordered.set(item.category, item);
  }
  return ordered;
}

export function need(ordered: Ordered, category: string): StorageItem {
  const item = ordered.get(category);
  if (!item) throw publicFault(`The order needs a price of the category ${category}.`);
  return item;
}

/** Size and tier or IOPS from the prices and the container, checked against the price ranges. */
function readSize(ordered: Ordered, c: Record<string, unknown>): VolumeSize {
  const space = need(ordered, 'performance_storage_space');
  const tierItem = ordered.get('storage_tier_level');
  const iopsItem = ordered.get('performance_storage_iops');
  if (!tierItem === !iopsItem) {
    throw publicFault(
      'The order needs exactly one of a storage_tier_level price (endurance) and a performance_storage_iops price (performance).',
    );
  }
  if (!present(c.volumeSize)) throw invalidValue("The order needs 'volumeSize' (GB).");
  const gb = readInt(c.volumeSize, 'volumeSize');
  const [min, max] = [
    space.capacityMinimum ?? VOLUME_GB.min,
    space.capacityMaximum ?? VOLUME_GB.max,
  ];
  if (gb < Math.max(min, VOLUME_GB.min) || gb > max) {
    throw invalidValue(
      `Invalid value provided for 'volumeSize': ${gb} GB; price #${space.price.id} (${space.keyName}) is for ${Math.max(min, VOLUME_GB.min)} to ${max} GB.`,
    );
  }
  if (tierItem) {
    if (space.tier !== tierItem.tier) {
      throw publicFault(
        `Price #${space.price.id} (${space.keyName}) is not the space of the tier ordered (${tierItem.keyName}).`,
      );
    }
    if (present(c.iops))
      throw invalidValue("'iops' is for performance volumes; an endurance volume has a tier.");
    return { capacityGb: gb, tierIopsPerGb: tierItem.tier!.iopsPerGb };
  }
  return { capacityGb: gb, iops: readIops(space, iopsItem!, gb, c.iops) };
}

function readIops(space: StorageItem, item: StorageItem, gb: number, value: unknown): number {
  if (space.tier)
    throw publicFault(
      `Price #${space.price.id} (${space.keyName}) is the space of an endurance tier, not of a performance volume.`,
    );
  if (!present(value)) throw invalidValue("A performance volume needs 'iops'.");
  const iops = readInt(value, 'iops');
  const max = Math.min(
    item.capacityMaximum ?? PERFORMANCE_IOPS.max,
    gb * PERFORMANCE_IOPS.perGbMax,
  );
  if (iops % PERFORMANCE_IOPS.step !== 0 || iops < PERFORMANCE_IOPS.min || iops > max) {
    throw invalidValue(
      `Invalid value provided for 'iops': ${iops}; a ${gb} GB volume takes ${PERFORMANCE_IOPS.min} to ${max} IOPS in steps of ${PERFORMANCE_IOPS.step}.`,
    );
  }
  const r = item.restriction;
  if (r && (gb < r.min || gb > r.max)) {
    throw publicFault(
      `Price #${item.price.id} (${item.keyName}) is for volumes of ${r.min} to ${r.max} GB, not ${gb} GB.`,
    );
  }
  return iops;
}

/** The hourly price of `item` at the account's discounts. */
export const hourlyOf = (ctx: AuthedContext, item: StorageItem) =>
  discounted(item.price, ctx.account.discounts).hourly;

/** The per-GB and per-IOPS hourly prices ordered, at the account's discounts. */
function unitPrices(ctx: AuthedContext, ordered: Ordered): { gb: number; iops: number } {
  const at = (category: string) => {
    const item = ordered.get(category);
    return item ? hourlyOf(ctx, item) : 0;
  };
  return { gb: at('performance_storage_space'), iops: at('performance_storage_iops') };
}

export function priced(
  ordered: Ordered,
  size: VolumeSize,
  hourly: number,
): Record<string, unknown> {
  return {
    volumeSize: size.capacityGb,
    ...(size.iops === undefined ? {} : { iops: size.iops }),
    prices: [...ordered.values()].map((item) => orderedPrice(item.price, item)),
    ...orderTotals(hourly),
  };
}

interface CheckedVolume {
  kind: VolumeKind;
  size: VolumeSize;
  datacenter: Datacenter;
  hourly: boolean;
  osFormat?: string;
  containerIdentifier?: string;
  fee: number;
  snapshot?: { gb: number; hourly: number };
  verified: Record<string, unknown>;
}

function readOsFormat(kind: VolumeKind, value: unknown): string | undefined {
  if (kind === 'FILE') {
    if (present(value))
      throw invalidValue("'osFormatType' is for block volumes; a file volume has none.");
    return undefined;
  }
  const key = isStruct(value) ? value.keyName : undefined;
  if (typeof key !== 'string' || !(OS_FORMATS as readonly string[]).includes(key)) {
    throw invalidValue(
      `A block volume needs 'osFormatType': {keyName: one of ${OS_FORMATS.join(', ')}}.`,
    );
  }
  return key;
}

const readIdentifier = (value: unknown) =>
  present(value) ? readString(value, 'containerIdentifier').slice(0, 100) : undefined;

function checkVolumeOrder(ctx: AuthedContext, c: Record<string, unknown>): CheckedVolume {
  checkKeys(c, ORDER_KEYS, VOLUME_ORDER);
  const datacenter = readLocation(c.location);
  if (present(c.quantity) && readInt(c.quantity, 'quantity') !== 1)
    throw invalidValue("Invalid value provided for 'quantity': a volume order is for 1 volume.");
  const ordered = readPrices(c.prices);
  need(ordered, 'storage_as_a_service');
  const block = ordered.has('storage_block');
  if (block === ordered.has('storage_file'))
    throw publicFault('The order needs exactly one of a storage_block and a storage_file price.');
  const kind: VolumeKind = block ? 'BLOCK' : 'FILE';
  const size = readSize(ordered, c);
  const osFormat = readOsFormat(kind, c.osFormatType);
  const hourly = present(c.useHourlyPricing)
    ? readFlag(c.useHourlyPricing, 'useHourlyPricing')
    : false;
  const snapshotItem = ordered.get('storage_snapshot_space');
  const snapshot = snapshotItem && {
    gb: snapshotPriceFor(snapshotItem, size).capacity,
    hourly: hourlyOf(ctx, snapshotItem),
  };
  const fee = hourlyFee(size, unitPrices(ctx, ordered));
  const verified = {
    complexType: VOLUME_ORDER,
    packageId: STORAGE_PACKAGE.id,
    location: String(datacenter.id),
    locationObject: { id: datacenter.id, name: datacenter.name, longName: datacenter.longName },
    quantity: 1,
    useHourlyPricing: hourly,
    ...(osFormat ? { osFormatType: { keyName: osFormat } } : {}),
    ...priced(ordered, size, fee + (snapshot?.hourly ?? 0)),
  };
  const containerIdentifier = readIdentifier(c.containerIdentifier);
  return { kind, size, datacenter, hourly, osFormat, containerIdentifier, fee, snapshot, verified };
}

const describe = (kind: VolumeKind, size: VolumeSize) =>
  `${isPerformance(size) ? `Performance (${size.iops} IOPS)` : `Endurance (${size.tierIopsPerGb} IOPS per GB)`} ${kind === 'BLOCK' ? 'Block' : 'File'} Storage ${size.capacityGb} GB`;

function placeVolume(ctx: AuthedContext, v: CheckedVolume, orderId: number): WriteOp[] {
  const id = ctx.store.nextId('volumes');
  const billingItemId = ctx.store.nextId('billingItems');
  const volume: VolumeRec = {
    id,
    accountId: ctx.account.id,
    kind: v.kind,
    username: usernameFor(ctx.store, ctx.account.id, v.kind),
    ...v.size,
    datacenterId: v.datacenter.id,
    osFormat: v.osFormat,
    hourly: v.hourly,
    createDate: ctx.now,
    readyAt: ctx.now + ctx.settings.provisioningDelayMs,
    transactionId: ctx.store.nextSubId(),
    billingItemId,
    orderId,
    containerIdentifier: v.containerIdentifier,
    allowedGuestIds: [],
    allowedIpIds: [],
    backendIp: backendAddress(v.datacenter),
    ...(v.snapshot ? { snapshotSpace: { ...v.snapshot, createDate: ctx.now, orderId } } : {}),
  };
  return [
    newBillingItem(
      ctx,
      {
        id: billingItemId,
        categoryCode: 'storage_as_a_service',
        description: describe(v.kind, v.size),
        hourlyFlag: v.hourly,
        resourceTableId: id,
      },
      billedFee(volume, v.fee),
    ),
    { put: 'volumes', record: volume },
  ];
}

/** The owner of new-volume containers (see Product_Order). */
export const volumeOrder = placedAsVerified(checkVolumeOrder, placeVolume);

// ---------------------------------------------------------------------------------------------
// Upgrades

/** The volume an upgrade names: the caller's, live, and idle. */
export function upgradableVolume(ctx: AuthedContext, value: unknown): VolumeRec {
  const id = readInt(isStruct(value) ? value.id : undefined, 'volume.id');
  const found = ctx.store.get('volumes', id);
  const volume = owned(ctx, found && isLive(ctx.store, found, ctx.now) ? found : undefined, id);
  if (!isProvisioned(volume, ctx.now) || upgradeRunning(volume, ctx.now)) {
    throw publicFault(
      `Volume ${volume.id} has an active transaction; it can be modified once that has finished.`,
    );
  }
  return current(volume, ctx.now);
}

function checkUpgrade(ctx: AuthedContext, c: Record<string, unknown>): CheckedOrder {
  checkKeys(c, UPGRADE_KEYS, VOLUME_UPGRADE);
  const volume = upgradableVolume(ctx, c.volume);
  const ordered = readPrices(c.prices);
  need(ordered, 'storage_as_a_service');
  if (ordered.has('storage_snapshot_space'))
    throw publicFault(
      `Snapshot space is ordered with ${SNAPSHOT_ORDER} (or its _Upgrade), not with a volume upgrade.`,
    );
  const size = readSize(ordered, c);
  if (isPerformance(size) !== isPerformance(volume)) {
    throw publicFault(
      `Volume ${volume.id} is ${isPerformance(volume) ? 'a performance' : 'an endurance'} volume: modify it with ${isPerformance(volume) ? 'a performance_storage_iops' : 'a storage_tier_level'} price.`,
    );
  }
  if (size.capacityGb < volume.capacityGb) {
    throw publicFault(
      `The requested capacity (${size.capacityGb} GB) is smaller than the current capacity of volume ${volume.id} (${volume.capacityGb} GB): a volume cannot be made smaller.`,
    );
  }
  const same = (['capacityGb', 'tierIopsPerGb', 'iops'] as const).every(
    (k) => size[k] === volume[k],
  );
  if (same)
    throw publicFault(
      `The order changes nothing: volume ${volume.id} already has that size and performance.`,
    );
  const fee = hourlyFee(size, unitPrices(ctx, ordered));
  const verified = {
    complexType: VOLUME_UPGRADE,
    packageId: STORAGE_PACKAGE.id,
    volume: { id: volume.id },
    ...priced(ordered, size, fee),
  };
  return {
    verified,
    place: (placing, orderId) => ({
      ops: placeUpgrade(placing, volume, size, fee, orderId),
      details: verified,
    }),
  };
}

function placeUpgrade(
  ctx: AuthedContext,
  volume: VolumeRec,
  size: VolumeSize,
  fee: number,
  orderId: number,
): WriteOp[] {
  const stored = ctx.store.get('volumes', volume.id)!;
  const upgrade = {
    orderId,
    transactionId: ctx.store.nextSubId(),
    createDate: ctx.now,
    readyAt: ctx.now + ctx.settings.provisioningDelayMs,
    size,
  };
  const base = current(stored, ctx.now);
  const item = ctx.store.get('billingItems', volume.billingItemId)!;
  return [
    { put: 'volumes', record: { ...base, upgrade } },
    {
      put: 'billingItems',
      record: {
        ...item,
        ...recurringFees(billedFee(base, fee)),
        description: describe(volume.kind, size),
      },
    },
  ];
}

/** The owner of upgrade containers (see Product_Order). */
export const volumeUpgradeOrder: OrderOwner = { check: checkUpgrade };

/**
 * Block (iSCSI) and file (NFS) volumes: their records, what they cost, and their progress. A
 * volume is ordered through Product_Order (./storage-order.ts) and provisions until `readyAt`;
 * an upgrade order (a larger size, another tier or IOPS figure) runs until its own `readyAt` and
 * leaves the volume with its new size. Both are pure functions of the record and the clock, as
 * for guests. A volume is gone once its billing item's cancellation date has passed (a cancel at
 * the anniversary), or at once when cancelled immediately (the record is deleted).
 *
 * The order's `containerIdentifier` (a property every order container takes) is kept with the
 * volume and shown among its `properties` (type `ORDER_CONTAINER_IDENTIFIER`): a client that
 * lost the order's answer finds the volume it made by it.
 */
import type { Datacenter } from '../../catalog';
import { table, type RecordsOf, type Store } from '../../store';
import type { ViewContext } from '../../schema';
import { publicFault } from '../../errors';
import {
  ENDURANCE_TIERS,
  type EnduranceTier,
  type StorageItem,
} from '../product-package/storage-items';

export type VolumeKind = 'BLOCK' | 'FILE';

/** What an order or an upgrade fixes: size, and a tier (endurance) or an IOPS figure (performance). */
export interface VolumeSize {
  capacityGb: number;
  /** Endurance: IOPS per GB. */
  tierIopsPerGb?: number;
  /** Performance: the IOPS figure. */
  iops?: number;
}

export interface VolumeUpgradeRec {
  orderId: number;
  transactionId: number;
  createDate: number;
  readyAt: number;
  size: VolumeSize;
}

/** Snapshot space ordered for a volume: billed as a child of the volume's billing item. */
export interface SnapshotSpaceRec {
  gb: number;
  /** Its hourly fee, part of the volume's billing item's. */
  hourly: number;
  createDate: number;
  orderId: number;
}

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];
export const DAYS = [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
] as const;

/** A snapshot schedule (`enableSnapshots`): one per type, kept until `disableSnapshots`. */
export interface ScheduleRec {
  id: number;
  type: ScheduleType;
  retentionCount: number;
  minute: number;
  hour: number;
  /** Index into DAYS. */
  dayOfWeek: number;
  createDate: number;
}

export interface VolumeRec extends VolumeSize {
  id: number;
  accountId: number;
  kind: VolumeKind;
  username: string;
  datacenterId: number;
  /** Block only: the OS the LUN is formatted for (`LINUX`, `VMWARE`, ...). */
  osFormat?: string;
  notes?: string;
  hourly: boolean;
  createDate: number;
  readyAt: number;
  transactionId: number;
  billingItemId: number;
  orderId: number;
  containerIdentifier?: string;
  allowedGuestIds: number[];
  /** Svc_Network_Subnet_IpAddress ids allowed to reach it (absent in records made before). */
  allowedIpIds?: number[];
  backendIp: string;
  upgrade?: VolumeUpgradeRec;
  snapshotSpace?: SnapshotSpaceRec;
  schedules?: ScheduleRec[];
}

export const tables = { volumes: table<VolumeRec>(860001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export const OS_FORMATS = [
  'LINUX',
  'VMWARE',
  'WINDOWS',
  'WINDOWS_2008',
  'WINDOWS_GPT',
  'XEN',
  'HYPER_V',
] as const;

export const tierOf = (iopsPerGb: number | undefined): EnduranceTier | undefined =>
  ENDURANCE_TIERS.find((t) => t.iopsPerGb === iopsPerGb);

/** The volume as it is at `now`: with its last upgrade's size once that upgrade is done. */
export function current(v: VolumeRec, now: number): VolumeRec {
  const u = v.upgrade;
  return u && now >= u.readyAt ? { ...v, ...u.size } : v;
}

export const isProvisioned = (v: VolumeRec, now: number) => now >= v.readyAt;
export const upgradeRunning = (v: VolumeRec, now: number) =>
  v.upgrade !== undefined && now < v.upgrade.readyAt;

/** Whether the volume still exists at `now` (a cancel at the anniversary ends it then). */
export function isLive(store: Store, v: VolumeRec, now: number): boolean {
  const cancelled = store.get('billingItems', v.billingItemId)?.cancellationDate;
  return cancelled === undefined || cancelled > now;
}

/** The account's live volumes of `kind` (both kinds when undefined). */
export function volumesOf(ctx: ViewContext, accountId: number, kind?: VolumeKind): VolumeRec[] {
  return ctx.store
    .by('volumes', 'accountId', accountId)
    .filter((v) => (kind === undefined || v.kind === kind) && isLive(ctx.store, v, ctx.now));
}

/**
 * The snapshot space price `item` checked against the volume it is for: restricted to the
 * volume's tier (`STORAGE_TIER_LEVEL`, the tier item's capacity) or IOPS (`IOPS`), as the
 * reference client picks it.
 */
export function snapshotPriceFor(item: StorageItem, v: VolumeSize): StorageItem {
  const r = item.restriction;
  const [type, value] =
    v.iops === undefined
      ? (['STORAGE_TIER_LEVEL', tierOf(v.tierIopsPerGb)?.capacity ?? 0] as const)
      : (['IOPS', v.iops] as const);
  if (!r || r.type !== type || value < r.min || value > r.max) {
    throw publicFault(
      `Price #${item.price.id} (${item.keyName}) is not a snapshot space price for ${v.iops === undefined ? `a ${v.tierIopsPerGb} IOPS per GB volume` : `a ${v.iops} IOPS volume`}; its restriction is ${r ? `${r.type} ${r.min}-${r.max}` : 'none'}.`,
    );
  }
  return item;
}

/** Performance volumes have an IOPS figure; endurance volumes a tier. */
export const isPerformance = (v: VolumeSize) => v.iops !== undefined;

/** The IOPS a volume delivers: its figure, or its size times its tier. */
export const provisionedIops = (v: VolumeSize) =>
  v.iops ?? Math.round(v.capacityGb * (v.tierIopsPerGb ?? 0));

/** `ENDURANCE_BLOCK_STORAGE`, `PERFORMANCE_FILE_STORAGE`, ... */
export const storageTypeKey = (v: VolumeRec) =>
  `${isPerformance(v) ? 'PERFORMANCE' : 'ENDURANCE'}_${v.kind}_STORAGE`;

/** What the volume's billing item bills an hour: the volume at `fee`, and its snapshot space. */
export const billedFee = (v: VolumeRec, fee: number) => fee + (v.snapshotSpace?.hourly ?? 0);

/** The hourly fee of a volume of this size (the per-GB and per-IOPS prices times its figures). */
export function hourlyFee(size: VolumeSize, prices: { gb: number; iops: number }): number {
  return size.capacityGb * prices.gb + (size.iops ?? 0) * prices.iops;
}

/** The volume's user name, as the API names them (`SVC02SEL<account>-<n>`, `SVC02SV<account>_<n>`). */
export function usernameFor(store: Store, accountId: number, kind: VolumeKind): string {
  const n = store.by('volumes', 'accountId', accountId).filter((v) => v.kind === kind).length + 1;
  return kind === 'BLOCK' ? `SVC02SEL${accountId}-${n}` : `SVC02SV${accountId}_${n}`;
}

/** The storage backend's address in a datacenter (one per datacenter, on the private network). */
export const backendAddress = (datacenter: Datacenter) =>
  `10.${(datacenter.id >> 8) % 200}.${datacenter.id % 250}.${10 + (datacenter.id % 200)}`;

/** The live volumes `guestId` is allowed to reach (`nasType` ISCSI or NAS narrows them). */
export function volumesAllowing(
  ctx: ViewContext,
  accountId: number,
  guestId: number,
  nasType?: string,
) {
  const kind = nasType === 'ISCSI' ? 'BLOCK' : nasType === 'NAS' ? 'FILE' : undefined;
  return volumesOf(ctx, accountId, kind).filter((v) => v.allowedGuestIds.includes(guestId));
}

/**
 * Svc_Network_Storage as the reference client reads a volume (softlayer-python
 * `StorageManager.get_volume_details`' mask): its type, tier or IOPS, size, datacenter, backend
 * address, LUN or mount address, billing item, the guests and IP addresses allowed to reach it,
 * its snapshot space (`snapshotCapacityGb`) and schedules (`schedules`, as `list_volume_schedules`
 * reads them: a `SNAPSHOT_<TYPE>` type and MINUTE, HOUR, DAY_OF_WEEK, SNAPSHOT_LIMIT properties), and its running
 * transaction; the account lists its block (`iscsiNetworkStorage`), file (`nasNetworkStorage`)
 * and all (`networkStorage`) volumes.
 */
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { timedTransaction, type Timed } from '../transaction-view';
import { defineType, definePlainType, extendType, type ViewContext } from '../../schema';
import type { AccountRec } from '../account/model';
import type { GuestRec } from '../virtual-guest/model';
import {
  SCHEDULE_TYPES,
  current,
  isProvisioned,
  provisionedIops,
  storageTypeKey,
  tierOf,
  upgradeRunning,
  volumesAllowing,
  volumesOf,
  type ScheduleRec,
  type VolumeRec,
} from './model';

definePlainType('Svc_Network_Storage_Type', ['id', 'keyName', 'description']);
definePlainType('Svc_Network_Storage_Iscsi_OS_Type', ['id', 'keyName', 'name']);
definePlainType('Svc_Network_Storage_Property_Type', ['keyname', 'name']);

interface PropertyView {
  volumeId: number;
  value: string;
  type: { keyname: string; name: string };
}

defineType<PropertyView>('Svc_Network_Storage_Property', {
  locals: { volumeId: (p) => p.volumeId, value: (p) => p.value },
  relations: { type: { type: 'Svc_Network_Storage_Property_Type', get: (p) => p.type } },
});

interface ServiceResourceView {
  id: number;
  name: string;
  backendIpAddress: string;
  datacenterId: number;
}

defineType<ServiceResourceView>('Svc_Network_Service_Resource', {
  locals: {
    id: (r) => r.id,
    name: (r) => r.name,
    backendIpAddress: (r) => r.backendIpAddress,
  },
  relations: {
    datacenter: { type: 'Svc_Location', get: (r) => datacenterById(r.datacenterId) },
  },
});

const STEPS = {
  provision: {
    status: { name: 'PROVISION', friendlyName: 'Provisioning storage' },
    group: 'Storage Provisioning',
  },
  upgrade: {
    status: { name: 'MODIFY', friendlyName: 'Modifying storage' },
    group: 'Storage Modification',
  },
};

const transaction = (t: Timed, step: (typeof STEPS)[keyof typeof STEPS], now: number) =>
  timedTransaction(t, now, step.status, { name: step.group, averageTimeToComplete: '5' });

/** The running transaction: provisioning, then an upgrade while one runs. */
export function activeTransactions(v: VolumeRec, now: number): Record<string, unknown>[] {
  if (!isProvisioned(v, now)) return [transaction(v, STEPS.provision, now)];
  if (upgradeRunning(v, now)) return [transaction(v.upgrade!, STEPS.upgrade, now)];
  return [];
}

const allowedGuests = (v: VolumeRec, ctx: ViewContext) =>
  v.allowedGuestIds
    .map((id) => ctx.store.get('guests', id))
    .filter((g) => g !== undefined && g.accountId === v.accountId);

const allowedIps = (v: VolumeRec, ctx: ViewContext) =>
  (v.allowedIpIds ?? [])
    .map((id) => ctx.store.get('ipAddresses', id))
    .filter((i) => i !== undefined && i.accountId === v.accountId);

const view = (v: VolumeRec, ctx: ViewContext) => current(v, ctx.now);

definePlainType('Svc_Network_Storage_Schedule_Type', ['id', 'keyname', 'name']);
definePlainType('Svc_Network_Storage_Schedule_Property_Type', ['id', 'keyname', 'name']);

interface ScheduleView {
  volumeId: number;
  schedule: ScheduleRec;
}

interface SchedulePropertyView {
  id: number;
  value: string;
  type: { id: number; keyname: string; name: string };
}

defineType<SchedulePropertyView>('Svc_Network_Storage_Schedule_Property', {
  locals: { id: (p) => p.id, value: (p) => p.value },
  relations: {
    type: { type: 'Svc_Network_Storage_Schedule_Property_Type', get: (p) => p.type },
  },
});

/** The properties a schedule of its type shows: when it runs and how many snapshots it keeps. */
function scheduleProperties({ schedule: s }: ScheduleView): SchedulePropertyView[] {
  const shown: [string, number][] = [
    ['MINUTE', s.minute],
    ...(s.type === 'HOURLY' ? [] : [['HOUR', s.hour] as [string, number]]),
    ...(s.type === 'WEEKLY' ? [['DAY_OF_WEEK', s.dayOfWeek] as [string, number]] : []),
    ['SNAPSHOT_LIMIT', s.retentionCount],
  ];
  return shown.map(([keyname, value], i) => ({
    id: s.id * 10 + i,
    value: String(value),
    type: { id: i + 1, keyname, name: keyname.toLowerCase().replace(/_/g, ' ') },
  }));
}

defineType<ScheduleView>('Svc_Network_Storage_Schedule', {
  locals: {
    id: (v) => v.schedule.id,
    volumeId: (v) => v.volumeId,
    name: (v) => `${v.schedule.type.toLowerCase()} snapshots`,
    active: () => 1,
    createDate: (v) => formatApiDate(v.schedule.createDate),
  },
  relations: {
    type: {
      type: 'Svc_Network_Storage_Schedule_Type',
      get: (v) => ({
        id: SCHEDULE_TYPES.indexOf(v.schedule.type) + 1,
        keyname: `SNAPSHOT_${v.schedule.type}`,
        name: `Snapshot ${v.schedule.type.toLowerCase()}`,
      }),
    },
    properties: {
      type: 'Svc_Network_Storage_Schedule_Property',
      many: true,
      get: scheduleProperties,
    },
  },
});
const isBlock = (v: VolumeRec) => v.kind === 'BLOCK';

defineType<VolumeRec>('Svc_Network_Storage', {
  locals: {
    id: (v) => v.id,
    accountId: (v) => v.accountId,
    username: (v) => v.username,
    capacityGb: (v, ctx) => view(v, ctx).capacityGb,
    nasType: (v) => (isBlock(v) ? 'ISCSI' : 'NAS'),
    notes: (v) => v.notes,
    createDate: (v) => formatApiDate(v.createDate),
    upgradableFlag: () => true,
  },
  relations: {
    storageType: {
      type: 'Svc_Network_Storage_Type',
      get: (v) => ({
        id: isBlock(v) ? 1 : 2,
        keyName: storageTypeKey(v),
        description: storageTypeKey(v).toLowerCase().replace(/_/g, ' '),
      }),
    },
    serviceResource: {
      type: 'Svc_Network_Service_Resource',
      get: (v) => {
        const dc = datacenterById(v.datacenterId);
        return (
          dc && {
            id: dc.id,
            name: `Storage Cluster ${dc.name}`,
            backendIpAddress: v.backendIp,
            datacenterId: dc.id,
          }
        );
      },
    },
    osType: {
      type: 'Svc_Network_Storage_Iscsi_OS_Type',
      get: (v) => v.osFormat && { id: 12, keyName: v.osFormat, name: v.osFormat },
    },
    billingItem: {
      type: 'Svc_Billing_Item',
      get: (v, ctx) => ctx.store.get('billingItems', v.billingItemId),
    },
    allowedVirtualGuests: { type: 'Svc_Virtual_Guest', many: true, get: allowedGuests },
    allowedIpAddresses: { type: 'Svc_Network_Subnet_IpAddress', many: true, get: allowedIps },
    schedules: {
      type: 'Svc_Network_Storage_Schedule',
      many: true,
      get: (v) => (v.schedules ?? []).map((schedule) => ({ volumeId: v.id, schedule })),
    },
    activeTransactions: {
      type: 'Svc_Provisioning_Version1_Transaction',
      many: true,
      get: (v, ctx) => activeTransactions(v, ctx.now),
    },
    properties: {
      type: 'Svc_Network_Storage_Property',
      many: true,
      get: (v) =>
        v.containerIdentifier === undefined
          ? []
          : [
              {
                volumeId: v.id,
                value: v.containerIdentifier,
                type: { keyname: 'ORDER_CONTAINER_IDENTIFIER', name: 'Order container identifier' },
              },
            ],
    },
  },
  onDemand: {
    storageTierLevel: (v, ctx) => tierOf(view(v, ctx).tierIopsPerGb)?.keyName,
    provisionedIops: (v, ctx) => String(provisionedIops(view(v, ctx))),
    iops: (v, ctx) => String(provisionedIops(view(v, ctx))),
    serviceResourceBackendIpAddress: (v) => v.backendIp,
    serviceResourceName: (v) => `Storage Cluster ${datacenterById(v.datacenterId)?.name ?? ''}`,
    lunId: (v) => (isBlock(v) ? String(v.id % 256) : undefined),
    fileNetworkMountAddress: (v) =>
      isBlock(v) ? undefined : `${v.backendIp}:/${v.username}/data01`,
    bytesUsed: (v, ctx) => (isProvisioned(v, ctx.now) ? '0' : undefined),
    snapshotCapacityGb: (v) => String(v.snapshotSpace?.gb ?? 0),
    staasVersion: () => '2',
    hasEncryptionAtRest: () => true,
    activeTransactionCount: (v, ctx) => activeTransactions(v, ctx.now).length,
    allowedVirtualGuestCount: (v, ctx) => allowedGuests(v, ctx).length,
    allowedIpAddressCount: (v, ctx) => allowedIps(v, ctx).length,
    scheduleCount: (v) => (v.schedules ?? []).length,
  },
});

extendType<AccountRec>('Svc_Account', {
  relations: {
    iscsiNetworkStorage: {
      type: 'Svc_Network_Storage',
      many: true,
      get: (a, ctx) => volumesOf(ctx, a.id, 'BLOCK'),
    },
    nasNetworkStorage: {
      type: 'Svc_Network_Storage',
      many: true,
      get: (a, ctx) => volumesOf(ctx, a.id, 'FILE'),
    },
    networkStorage: {
      type: 'Svc_Network_Storage',
      many: true,
      get: (a, ctx) => volumesOf(ctx, a.id),
    },
  },
  onDemand: {
    iscsiNetworkStorageCount: (a, ctx) => volumesOf(ctx, a.id, 'BLOCK').length,
    nasNetworkStorageCount: (a, ctx) => volumesOf(ctx, a.id, 'FILE').length,
    networkStorageCount: (a, ctx) => volumesOf(ctx, a.id).length,
  },
});

extendType<GuestRec>('Svc_Virtual_Guest', {
  relations: {
    allowedNetworkStorage: {
      type: 'Svc_Network_Storage',
      many: true,
      get: (g, ctx) => volumesAllowing(ctx, g.accountId, g.id),
    },
  },
  onDemand: {
    allowedNetworkStorageCount: (g, ctx) => volumesAllowing(ctx, g.accountId, g.id).length,
  },
});

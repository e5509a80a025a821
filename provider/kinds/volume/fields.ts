import { isIP } from 'node:net';
import {
  types,
  readFrom,
  valueType,
  UNSET,
  type ArgsOf,
  type Bag,
  type Fields,
} from '../../framework/fields';
import { DATACENTER_NAME, TAKEOVER_FIELDS, TOKEN_FIELDS, rules } from '../../framework/field-rules';
import type { Volume, VolumeType } from '../../managers';
import { MARKED_NOTE_MAX, declaredNote } from '../../framework/creation-token';
import { SNAPSHOT_SCHEDULE_FIELDS, readSchedules } from './schedule-fields';

/** A snapshot schedule as the program declares it (the schedule table's fields, with their docs). */
export type VolumeSnapshotScheduleArgs = ArgsOf<typeof SNAPSHOT_SCHEDULE_FIELDS>;

/**
 * The fields of a block (`BlockVolume`) or file (`FileVolume`) volume, once for both: a block
 * volume adds the OS its LUN is formatted for and its LUN id, a file volume its mount address.
 */

const onVolume = readFrom<Volume>();

/** IOPS per GB of the endurance tiers, as `storageTierLevel` names them. */
export const TIERS: Readonly<Record<string, number>> = {
  LOW_INTENSITY_TIER: 0.25,
  READHEAVY_TIER: 2,
  WRITEHEAVY_TIER: 4,
  '10_IOPS_PER_GB': 10,
};
/** What an order fixes for good: a change orders a new volume (a file volume has no OS format). */
export const REPLACING = ['datacenter', 'hourlyBilling', 'osFormat'] as const;
export const TIER_VALUES = Object.values(TIERS);
export const OS_FORMATS = [
  'LINUX',
  'VMWARE',
  'WINDOWS',
  'WINDOWS_2008',
  'WINDOWS_GPT',
  'XEN',
  'HYPER_V',
] as const;
export const VOLUME_GB = { min: 20, max: 12000 };
export const IOPS = { min: 100, max: 48000, step: 100, perGb: 50 };

export const isPerformance = (v: Volume) =>
  v.storageType?.keyName.startsWith('PERFORMANCE') ?? false;
const sortedIds = (value: unknown) =>
  Array.isArray(value) ? [...value].map(Number).sort((a, b) => a - b) : value;
const sortedTexts = (value: unknown) => (Array.isArray(value) ? [...value].sort() : value);
/** Addresses sorted as text: one order for the declared and the API's lists. */
const sortedAddresses = (list: { ipAddress: string }[] | undefined) =>
  (list ?? []).map((a) => a.ipAddress).sort();

/** Fields both volume kinds have. */
const COMMON = {
  ...TOKEN_FIELDS,
  ...TAKEOVER_FIELDS,
  /** Datacenter short name, e.g. `dal10`; a change replaces the volume (and its data). */
  datacenter: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, ...DATACENTER_NAME }),
    change: 'replace',
    read: onVolume('serviceResource.datacenter.name', (v) => v.serviceResource?.datacenter?.name),
  },
  /**
   * Size in GB (20-12,000). A larger size is an upgrade order on the same volume; a smaller one is
   * refused in check (the API cannot shrink a volume).
   */
  capacityGb: {
    type: types.integer,
    input: 'required',
    output: true,
    rule: rules.integer({ min: VOLUME_GB.min, max: VOLUME_GB.max }),
    change: 'upgrade',
    how: 'an upgrade order (`..._AsAService_Upgrade`)',
    read: onVolume('capacityGb', (v) => v.capacityGb),
  },
  /**
   * Endurance: IOPS per GB, one of 0.25, 2, 4, 10 (give this or `iops`). Another tier is an
   * upgrade order on the same volume.
   */
  tierIopsPerGb: {
    type: types.number,
    input: 'optional',
    output: true,
    rule: rules.custom((failures, name, value) => {
      if (value !== undefined && !TIER_VALUES.includes(value as number))
        failures.add(name, `${name} must be one of ${TIER_VALUES.join(', ')} (IOPS per GB)`);
    }, 'one of 0.25, 2, 4, 10'),
    change: 'upgrade',
    how: 'an upgrade order',
    read: onVolume('storageTierLevel,storageType.keyName', (v) =>
      isPerformance(v) ? undefined : TIERS[v.storageTierLevel ?? ''],
    ),
  },
  /**
   * Performance: the IOPS figure, 100-48,000 in steps of 100 and at most 50 per GB (give this or
   * `tierIopsPerGb`). Another figure is an upgrade order on the same volume.
   */
  iops: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: IOPS.min, max: IOPS.max }),
    change: 'upgrade',
    how: 'an upgrade order',
    read: onVolume('provisionedIops,storageType.keyName', (v) =>
      isPerformance(v) ? Number(v.provisionedIops) : undefined,
    ),
  },
  /** Billed by the hour (true) or the month (false, the default); a change replaces the volume. */
  hourlyBilling: {
    type: types.boolean,
    input: 'optional',
    output: true,
    default: false,
    rule: rules.flag(),
    change: 'replace',
    read: onVolume('billingItem.hourlyFlag', (v) => v.billingItem?.hourlyFlag),
  },
  /** Free text kept with the volume. */
  notes: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: MARKED_NOTE_MAX }),
    change: 'update',
    how: '`editObject`',
    read: onVolume('notes', (v) => declaredNote(v.notes) || UNSET),
  },
  /**
   * Ids of the account's guests (in the volume's datacenter) allowed to reach it, kept as
   * declared: a guest allowed or removed outside Pulumi is drift that `refresh` shows and `up`
   * puts back.
   */
  authorizedGuestIds: {
    type: types.list(types.integer),
    input: 'optional',
    output: true,
    default: [],
    normalise: sortedIds,
    rule: rules.list({
      what: 'a list of guest ids',
      max: 64,
      item: (label, value) =>
        Number.isInteger(value) && (value as number) > 0
          ? undefined
          : `${label} must be a guest id`,
      text: 'guest ids',
    }),
    change: 'update',
    how: '`allowAccessFromHostList` / `removeAccessFromHostList`',
    read: onVolume('allowedVirtualGuests.id', (v) =>
      (v.allowedVirtualGuests ?? []).map((g) => g.id).sort((a, b) => a - b),
    ),
  },
  /**
   * Private IPv4 addresses of the account's hosts (in the volume's datacenter) allowed to reach
   * it, besides `authorizedGuestIds`: a bare metal server's, or any host's on the account's
   * private network. Given as addresses, the form a user reads off a host, not as the API's
   * address record ids: check finds each address's record on the account (and refuses one that
   * is not the account's, is public, or is in another datacenter). Kept as declared: an address
   * allowed or removed outside Pulumi is drift that `refresh` shows and `up` puts back.
   */
  authorizedIpAddresses: {
    type: types.list(types.string),
    input: 'optional',
    output: true,
    default: [],
    normalise: sortedTexts,
    rule: rules.list({
      what: 'a list of IPv4 addresses',
      max: 64,
      item: (label, value) =>
        typeof value === 'string' && isIP(value) === 4
          ? undefined
          : `${label} must be an IPv4 address such as 10.0.0.5`,
      text: 'IPv4 addresses of the account',
    }),
    change: 'update',
    how: '`allowAccessFromIpAddressList` / `removeAccessFromIpAddressList`',
    read: onVolume('allowedIpAddresses.ipAddress', (v) => sortedAddresses(v.allowedIpAddresses)),
  },
  /**
   * GB of snapshot space (one of the sizes the storage package offers: 5, 10, 20, 40, 80, 100,
   * 250, 500, 1,000, ...): ordered with the volume, or later, or more of it, as an order on the
   * same volume, priced in the preview. Snapshot space only grows: a smaller size, or leaving it
   * out once ordered, is refused in check.
   */
  snapshotCapacityGb: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1, max: VOLUME_GB.max }),
    change: 'upgrade',
    how: 'a snapshot space order (`..._Enterprise_SnapshotSpace`, or its `_Upgrade`)',
    read: onVolume('snapshotCapacityGb', (v) => Number(v.snapshotCapacityGb ?? 0) || UNSET),
  },
  /**
   * The volume's snapshot schedules (`type` HOURLY, DAILY or WEEKLY, at most one of each, with
   * `retentionCount`, `minute`, `hour`, `dayOfWeek`), kept as declared: a schedule added, changed
   * or removed outside Pulumi is drift that `refresh` shows and `up` puts back. A schedule needs
   * `snapshotCapacityGb`; the schedules keep 50 snapshots at most in all.
   */
  snapshotSchedules: {
    type: valueType<Bag[]>('schedule[]'),
    arg: valueType<VolumeSnapshotScheduleArgs[]>('schedule[]'),
    input: 'optional',
    output: true,
    default: [],
    change: 'update',
    how: '`enableSnapshots` / `disableSnapshots`',
    read: onVolume('schedules[type.keyname,properties[value,type.keyname]]', (v) =>
      readSchedules(v.schedules),
    ),
  },
  /**
   * On delete, cancel a monthly volume at once instead of at its billing anniversary (an hourly
   * volume is always cancelled at once).
   */
  cancelImmediately: {
    type: types.boolean,
    input: 'optional',
    default: false,
    rule: rules.flag(),
    change: 'local',
  },
  /** How long a create or resize waits for the volume to be ready, in minutes. */
  readyTimeoutMinutes: {
    type: types.integer,
    input: 'optional',
    default: 30,
    rule: rules.integer({ min: 1, max: 720 }),
    change: 'local',
  },
  /** What the volume costs an hour (check prices the order; a resize prices the new size). */
  estimatedHourlyCost: { type: types.number, output: true, fromCheck: true },
  /** What the volume costs a month. */
  estimatedMonthlyCost: { type: types.number, output: true, fromCheck: true },
  /** The numeric id (the resource id is the same number as a string). */
  volumeId: { type: types.integer, output: true, read: onVolume('id', (v) => v.id) },
  /** The volume's user name on the storage backend. */
  username: { type: types.string, output: true, read: onVolume('username', (v) => v.username) },
  /** The storage backend's address hosts connect to. */
  targetAddress: {
    type: types.string,
    output: true,
    read: onVolume('serviceResourceBackendIpAddress', (v) => v.serviceResourceBackendIpAddress),
  },
  /** The IOPS the volume delivers (its figure, or its size times its tier). */
  provisionedIops: {
    type: types.integer,
    output: true,
    read: onVolume('provisionedIops', (v) => Number(v.provisionedIops)),
  },
  /** The billing item a cancel goes through. */
  billingItemId: {
    type: types.integer,
    output: true,
    read: onVolume('billingItem.id', (v) => v.billingItem?.id),
  },
} satisfies Fields;

export const BLOCK_VOLUME_FIELDS = {
  ...COMMON,
  /** The OS the LUN is formatted for; a change replaces the volume. */
  osFormat: {
    type: types.string,
    input: 'optional',
    output: true,
    default: 'LINUX',
    rule: rules.oneOf(OS_FORMATS, 'OS format'),
    oneOf: {
      name: 'VolumeOsFormat',
      values: OS_FORMATS,
      meanings: {
        LINUX: 'Formatted for Linux hosts.',
        VMWARE: 'Formatted for VMware ESXi hosts.',
        WINDOWS: 'Formatted for Windows hosts.',
        WINDOWS_2008: 'Formatted for Windows Server 2008.',
        WINDOWS_GPT: 'Formatted for Windows hosts, with a GPT partition table.',
        XEN: 'Formatted for Xen hosts.',
        HYPER_V: 'Formatted for Hyper-V hosts.',
      },
    },
    change: 'replace',
    read: onVolume('osType.keyName', (v) => v.osType?.keyName),
  },
  /** The LUN id hosts mount. */
  lunId: { type: types.string, output: true, read: onVolume('lunId', (v) => v.lunId) },
} satisfies Fields;

export const FILE_VOLUME_FIELDS = {
  ...COMMON,
  /** The NFS address hosts mount (`<address>:/<path>`). */
  mountAddress: {
    type: types.string,
    output: true,
    read: onVolume('fileNetworkMountAddress', (v) => v.fileNetworkMountAddress),
  },
} satisfies Fields;

export type VolumeFields = typeof BLOCK_VOLUME_FIELDS | typeof FILE_VOLUME_FIELDS;
export const VOLUME_FIELDS: Record<VolumeType, VolumeFields> = {
  block: BLOCK_VOLUME_FIELDS,
  file: FILE_VOLUME_FIELDS,
};

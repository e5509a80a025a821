import type { KindDocs } from '../../lookups/define';

/** The volumes in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const BLOCK_VOLUME_DOCS: KindDocs = {
  example: {
    title:
      'A 100 GB block volume at 2 IOPS per GB for a database guest, with 20 GB of snapshot space: a snapshot every night at 02:30 (7 kept) and every Sunday (4 kept)',
    name: 'data',
    args: {
      datacenter: 'dal10',
      capacityGb: 100,
      tierIopsPerGb: 2,
      osFormat: 'LINUX',
      authorizedGuestIds: [12345678],
      snapshotCapacityGb: 20,
      snapshotSchedules: [
        { type: 'DAILY', retentionCount: 7, hour: 2, minute: 30 },
        { type: 'WEEKLY', retentionCount: 4, dayOfWeek: 'SUNDAY' },
      ],
    },
    exports: ['volumeId', 'targetAddress', 'lunId'],
  },
  importId: '86000123',
};

export const FILE_VOLUME_DOCS: KindDocs = {
  example: {
    title:
      'A 500 GB file share with 2,000 IOPS, billed by the hour, mounted from a server by its private address, with hourly snapshots',
    name: 'share',
    args: {
      datacenter: 'dal10',
      capacityGb: 500,
      iops: 2000,
      hourlyBilling: true,
      authorizedIpAddresses: ['10.0.0.5'],
      snapshotCapacityGb: 100,
      snapshotSchedules: [{ type: 'HOURLY', retentionCount: 24, minute: 15 }],
    },
    exports: ['volumeId', 'mountAddress'],
  },
  importId: '86000124',
};

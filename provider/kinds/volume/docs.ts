import type { KindDocs } from '../../lookups/define';

/** The volumes in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const BLOCK_VOLUME_DOCS: KindDocs = {
  example: {
    title: 'A 100 GB block volume at 2 IOPS per GB for a database guest',
    name: 'data',
    args: {
      datacenter: 'dal10',
      capacityGb: 100,
      tierIopsPerGb: 2,
      osFormat: 'LINUX',
      authorizedGuestIds: [12345678],
    },
    exports: ['volumeId', 'targetAddress', 'lunId'],
  },
  importId: '86000123',
};

export const FILE_VOLUME_DOCS: KindDocs = {
  example: {
    title: 'A 500 GB file share with 2,000 IOPS, billed by the hour',
    name: 'share',
    args: { datacenter: 'dal10', capacityGb: 500, iops: 2000, hourlyBilling: true },
    exports: ['volumeId', 'mountAddress'],
  },
  importId: '86000124',
};

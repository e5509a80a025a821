import type { KindDocs } from '../../lookups/define';

/** The host in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const DEDICATED_HOST_DOCS: KindDocs = {
  example: {
    title: 'A 56-core dedicated host in dal10, billed by the hour',
    name: 'host',
    args: {
      name: 'dh01',
      domain: 'example.com',
      datacenter: 'dal10',
      size: '56_CORES_X_242_RAM_X_1_4_TB',
      hourlyBilling: true,
    },
    exports: ['hostId', 'cpuCount', 'memoryGb'],
  },
  importId: '880001',
};

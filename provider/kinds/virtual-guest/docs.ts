import type { KindDocs } from '../../lookups/define';

/** The guest in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const GUEST_DOCS: KindDocs = {
  example: {
    title: 'A monthly guest of a flavor (2 cores, 4 GB) with an SSH key and a data disk',
    name: 'web',
    args: {
      hostname: 'web',
      domain: 'example.com',
      datacenter: 'dal10',
      flavorKeyName: 'B1_2X4X25',
      hourlyBillingFlag: false,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      disks: [25, 100],
      sshKeyIds: [1234567],
      tags: ['web'],
      onImageChange: 'reload',
    },
    exports: ['primaryIpAddress', 'estimatedMonthlyCost'],
  },
  importId: '12345678',
};

import type { KindDocs } from '../../lookups/define';

/** The server in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const BARE_METAL_DOCS: KindDocs = {
  example: {
    title:
      'An hourly bare metal server on redundant 1 Gbps uplinks, reloaded in place when its OS changes',
    name: 'db',
    args: {
      hostname: 'db1',
      domain: 'example.com',
      preset: 'S1270_32GB_1X1TBSATA_NORAID',
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      networkSpeed: 1000,
      redundantNetwork: true,
      hourlyBilling: true,
      sshKeyIds: [12345],
      tags: ['db'],
      onImageChange: 'reload',
    },
    exports: ['serverId', 'primaryIpAddress', 'maxNetworkSpeed', 'estimatedMonthlyCost'],
  },
  importId: '200123',
};

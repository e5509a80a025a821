import type { KindDocs } from '../../lookups/define';

/** The VLAN in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const VLAN_DOCS: KindDocs = {
  example: {
    title: 'A private VLAN in dal10 for the database tier',
    name: 'db',
    args: { datacenter: 'dal10', networkSpace: 'PRIVATE', name: 'db-private', notes: 'databases' },
    exports: ['vlanId', 'vlanNumber'],
  },
  importId: '1480001',
};

import type { KindDocs } from '../../lookups/define';

/** The group in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const PLACEMENT_GROUP_DOCS: KindDocs = {
  example: {
    title: 'Web guests spread over hosts in dal10',
    name: 'web',
    args: { name: 'web-spread', datacenter: 'dal10', rule: 'SPREAD' },
    exports: ['placementGroupId', 'backendRouterHostname'],
  },
  importId: '670001',
};

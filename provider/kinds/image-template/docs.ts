import type { KindDocs } from '../../lookups/define';

/** The template in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const IMAGE_TEMPLATE_DOCS: KindDocs = {
  example: {
    title: 'A template captured from a configured guest, available in two datacenters',
    name: 'base',
    args: {
      guestId: 12345678,
      name: 'web-base',
      note: 'nginx and the app user, captured after provisioning',
      datacenters: ['dal10', 'wdc07'],
    },
    exports: ['templateId', 'globalIdentifier'],
  },
  importId: '870001',
};

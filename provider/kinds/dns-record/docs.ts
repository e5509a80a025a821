import type { KindDocs } from '../../lookups/define';

/** The record in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const DNS_RECORD_DOCS: KindDocs = {
  example: {
    title: 'An A record in a zone',
    name: 'www',
    args: { zoneId: 123456, host: 'www', type: 'A', data: '192.0.2.10', ttl: 900 },
    exports: ['recordId'],
  },
  importId: '98765432',
};

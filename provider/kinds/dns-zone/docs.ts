import type { KindDocs } from '../../lookups/define';

/** The zone in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const DNS_ZONE_DOCS: KindDocs = {
  example: {
    title: 'A zone with its records',
    name: 'zone',
    args: {
      name: 'example.com',
      records: [
        { host: 'www', type: 'A', data: '192.0.2.10', ttl: 900 },
        { host: '@', type: 'MX', data: 'mail.example.com.', mxPriority: 10 },
      ],
    },
    exports: ['zoneId'],
  },
  importId: '123456',
};

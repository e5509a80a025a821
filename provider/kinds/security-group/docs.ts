import type { KindDocs } from '../../lookups/define';

/** The group in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const SECURITY_GROUP_DOCS: KindDocs = {
  example: {
    title: 'A web tier: SSH from the office, HTTPS from anywhere, ping',
    name: 'web',
    args: {
      name: 'web',
      description: 'the web tier',
      rules: [
        {
          direction: 'ingress',
          protocol: 'tcp',
          portRangeMin: 22,
          portRangeMax: 22,
          remoteIp: '198.51.100.0/24',
        },
        { direction: 'ingress', protocol: 'tcp', portRangeMin: 443, portRangeMax: 443 },
        { direction: 'ingress', protocol: 'icmp', portRangeMin: 8, portRangeMax: 0 },
        { direction: 'egress' },
      ],
    },
    exports: ['groupId'],
  },
  importId: '640001',
};

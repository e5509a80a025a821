import type { KindDocs } from '../../lookups/define';

/** The key in use, for the schema, the SDKs and the reference docs (scripts/examples.ts). */
export const SSH_KEY_DOCS: KindDocs = {
  example: {
    title: 'A deploy key',
    name: 'deploy',
    args: {
      label: 'deploy',
      publicKey:
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDkGJrBLnk6jMOqK0dNOP1mvFK1yQbJYg3dJsIMnAxzL deploy',
    },
    exports: ['keyId', 'fingerprint'],
  },
  importId: '1234567',
};

/**
 * Svc_Security_Ssh_Key: a public key stored on the account, installed on guests ordered with it.
 * Replaces the id-only placeholder registered in common.ts (this module is loaded after it).
 */
import { formatApiDate } from '../dates';
import type { SshKeyRec } from '../records';
import { defineType } from '../schema';

/** A guest may list a key deleted since its order: then only `{ id }` is known. */
const date = (ms: number | undefined) => (ms === undefined ? undefined : formatApiDate(ms));

defineType<SshKeyRec>('Svc_Security_Ssh_Key', {
  locals: {
    id: (k) => k.id,
    label: (k) => k.label,
    key: (k) => k.key,
    fingerprint: (k) => k.fingerprint,
    notes: (k) => k.notes,
    createDate: (k) => date(k.createDate),
    modifyDate: (k) => date(k.modifyDate),
  },
  relations: {
    account: {
      type: 'Svc_Account',
      get: (k, ctx) =>
        k.accountId === undefined ? undefined : ctx.store.get('accounts', k.accountId),
    },
  },
});

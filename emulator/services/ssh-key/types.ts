/**
 * Svc_Security_Ssh_Key: a public key stored on the account, installed on guests ordered with it.
 */
import { formatApiDate } from '../../dates';
import { defineType } from '../../schema';
import type { SshKeyRec } from './model';

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

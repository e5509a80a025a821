/**
 * Svc_Security_Ssh_Key: a public key stored on the account, installed on guests ordered with it;
 * the account lists its keys (`Account.getSshKeys`, `sshKeyCount`).
 */
import { formatApiDate } from '../../dates';
import { defineType, extendType } from '../../schema';
import type { AccountRec } from '../account/model';
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

extendType<AccountRec>('Svc_Account', {
  relations: {
    sshKeys: {
      type: 'Svc_Security_Ssh_Key',
      many: true,
      get: (a, ctx) => ctx.store.by('sshKeys', 'accountId', a.id),
    },
  },
  onDemand: { sshKeyCount: (a, ctx) => ctx.store.countBy('sshKeys', 'accountId', a.id) },
});

import { UNSET, types, readFrom, type Fields } from '../../framework/fields';
import { adoptIdField, rules } from '../../framework/field-rules';
import type { SshKey } from '../../managers';
import { fingerprintOf, parsePublicKey } from './format';

/** Every field of an SshKey, once (see framework/fields.ts). */

const onKey = readFrom<SshKey>();

export const SSH_KEY_FIELDS = {
  /** A name for the key on the account. */
  label: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, maxLength: 100 }),
    change: 'update',
    how: '`editObject`',
    read: onKey('label', (k) => k.label),
  },
  /**
   * The public key in OpenSSH form, `<type> <base64> [comment]` (e.g. the content of
   * `~/.ssh/id_ed25519.pub`). A different key replaces the resource (and the guests that use it).
   */
  publicKey: {
    type: types.string,
    input: 'required',
    output: true,
    normalise: (value) => (typeof value === 'string' ? value.trim() : value),
    rule: rules.custom((failures, name, value) => {
      if (!failures.string(name, value, { required: true, maxLength: 16 * 1024 })) return;
      const parsed = parsePublicKey(value as string);
      if (typeof parsed === 'string') failures.add(name, `publicKey ${parsed}`);
    }, 'ssh-rsa, ssh-ed25519 or ecdsa-sha2-nistp256/384/521, at most 16,384 characters'),
    change: 'replace',
    how: 'compared by fingerprint: a new comment alone changes nothing',
    // The API may keep another comment: the same fingerprint is the same key.
    read: onKey('key', (k) => k.key, {
      same: (declared, observed) =>
        fingerprintOf(declared) !== undefined &&
        fingerprintOf(declared) === fingerprintOf(observed),
    }),
  },
  /** Free text kept with the key. */
  notes: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: 1000 }),
    change: 'update',
    how: '`editObject`',
    read: onKey('notes', (k) => k.notes || UNSET),
  },
  /**
   * Take over the account’s existing key with this id (it must be the same key). Without it, a key
   * the account already has fails in `check`, naming that key’s id.
   */
  adoptId: adoptIdField('an SSH key'),

  /**
   * The numeric id, for `VirtualGuest.sshKeyIds` (the resource id is the same number as a string).
   */
  keyId: {
    type: types.integer,
    output: true,
    read: onKey('id', (k) => k.id),
  },
  /** MD5 of the key, colon-separated hex: what `ssh-keygen -E md5 -lf <file>` prints. */
  fingerprint: {
    type: types.string,
    output: true,
    read: onKey('fingerprint', (k) => k.fingerprint),
  },
  /** When the key was added. */
  createDate: {
    type: types.nullable(types.string),
    output: true,
    read: onKey('createDate', (k) => k.createDate ?? null),
  },
} satisfies Fields;

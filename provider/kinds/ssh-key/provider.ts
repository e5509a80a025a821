import { SshKeyManager, type SshKey } from '../../managers';
import { isKnown, isUnknown } from '../../framework/unknown';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { say } from '../../framework/log';
import {
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
} from '../../framework/kind-provider';
import { SSH_KEY_FIELDS } from './fields';
import { fingerprintOf } from './format';

/**
 * `SshKey`: a public key on the account (`Svc_Security_Ssh_Key`). The API keeps one key per
 * fingerprint, so a key the account already has is never taken over silently: `check` fails,
 * names the existing key and says how to adopt it (`adoptId`). Label and notes change in place; a
 * different key (another fingerprint) replaces the resource. The comment at the end of the key is
 * not part of the key: changing only the comment changes nothing.
 */

const keys = (c: Connection) => c.use(SshKeyManager);

type Fields = typeof SSH_KEY_FIELDS;

/**
 * Refuses a key the account already holds unless the resource adopts exactly that key. Only a key
 * this resource does not hold yet can collide with one of the account's.
 */
async function checkExisting({
  connection: c,
  inputs,
  olds,
  failures,
}: CheckWithApiRequest<Fields>) {
  const fingerprint = fingerprintOf(inputs.publicKey);
  const isNew = olds.publicKey === undefined || fingerprintOf(olds.publicKey) !== fingerprint;
  if (!fingerprint || isUnknown(inputs.adoptId) || !isNew) return;
  let existing: SshKey | undefined;
  try {
    existing = await keys(c).findByFingerprint(fingerprint);
  } catch (err) {
    failures.add(
      'publicKey',
      `cannot look for an SSH key with fingerprint ${fingerprint} on the account: ${(err as Error).message}`,
    );
    return;
  }
  const adoptId = isKnown(inputs.adoptId) ? String(inputs.adoptId) : undefined;
  if (existing && String(existing.id) !== adoptId) {
    failures.add(
      'publicKey',
      `the account already has this key: SSH key ${existing.id} (label ${JSON.stringify(existing.label)}, ` +
        `fingerprint ${fingerprint}); the API keeps one key per fingerprint. To manage that key with ` +
        `this resource set adoptId: '${existing.id}' (destroying the resource then deletes it), or ` +
        `use its id directly in sshKeyIds without an SshKey resource`,
    );
  } else if (!existing && adoptId) {
    const adopted = await keys(c).findKey(Number(adoptId));
    failures.add(
      'adoptId',
      adopted
        ? `adoptId: SSH key ${adoptId} has fingerprint ${adopted.fingerprint}, not ${fingerprint} of publicKey`
        : `adoptId: there is no SSH key ${adoptId} on this account`,
    );
  }
}

async function create({ connection: c, inputs }: CreateRequest<Fields>) {
  const manager = keys(c);
  const { label, notes } = inputs;
  if (inputs.adoptId !== undefined) {
    const id = Number(inputs.adoptId);
    const key = await manager.getKey(id);
    say(`SshKey "${label}": adopting existing SSH key ${id} (${key.fingerprint})`);
    if (key.label !== label || (key.notes || undefined) !== notes)
      await manager.editKey(id, { label, notes: notes ?? '' });
    return { id, object: await manager.getKey(id) };
  }
  const fingerprint = fingerprintOf(inputs.publicKey)!;
  const key = await createOnce({
    what: `SshKey "${label}"`,
    write: () => manager.createKey({ label, key: inputs.publicKey, notes }),
    // check found no key with this fingerprint, and the API keeps one per fingerprint: one that
    // shows up after a failed write is this write's.
    find: () => manager.findByFingerprint(fingerprint),
    windowMs: freeWriteWindowMs(),
    nextRun: 'The next `pulumi up` finds the key in check and names it for adoptId.',
  });
  return { id: key.id, object: key };
}

export const sshKeyProvider = kindProvider(SSH_KEY_FIELDS, {
  describe: (state, id) => `SshKey ${JSON.stringify(state.label ?? '')} (id ${id})`,
  fetch: ({ connection, id }) => keys(connection).findKey(Number(id)),
  checkWithApi: checkExisting,
  create,
  edit: ({ connection, id, inputs }) =>
    keys(connection).editKey(Number(id), { label: inputs.label, notes: inputs.notes ?? '' }),
  delete: ({ connection: c, id, state }) =>
    writeIdempotent({
      what: `SshKey ${JSON.stringify(state.label)} (id ${id}) deletion`,
      write: () => keys(c).deleteKey(Number(id)),
      done: async () => (await keys(c).findKey(Number(id))) === undefined,
      windowMs: freeWriteWindowMs(),
    }),
  owned: true,
});

import type * as pulumi from '@pulumi/pulumi';
import { SshKeyManager, type SshKey } from '../../managers';
import { changedFields } from '../../framework/compare';
import { Failures } from '../../framework/failures';
import { isKnown, isUnknown } from '../../framework/unknown';
import { connect, freeWriteWindowMs } from '../../framework/connection';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { say } from '../../framework/log';
import { checkFields, fieldsChanging, withFieldDefaults, type Bag } from '../../framework/fields';
import { SSH_KEY_FIELDS } from './fields';
import { fingerprintOf } from './format';

/**
 * `SshKey`: a public key on the account (`Svc_Security_Ssh_Key`). The API keeps one key per
 * fingerprint, so a key the account already has is never taken over silently: `check` fails,
 * names the existing key and says how to adopt it (`adoptId`). Label and notes change in place; a
 * different key (another fingerprint) replaces the resource. The comment at the end of the key is
 * not part of the key: changing only the comment changes nothing.
 */

const keys = () => new SshKeyManager(connect().client);

const REPLACE = fieldsChanging(SSH_KEY_FIELDS, 'replace');
const EDIT = fieldsChanging(SSH_KEY_FIELDS, 'update');

/** Refuses a key the account already holds unless the resource adopts exactly that key. */
async function checkExisting(inputs: Bag, fingerprint: string, failures: Failures): Promise<void> {
  let existing: SshKey | undefined;
  try {
    existing = await keys().findByFingerprint(fingerprint);
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
    const adopted = await keys().findKey(Number(adoptId));
    failures.add(
      'adoptId',
      adopted
        ? `adoptId: SSH key ${adoptId} has fingerprint ${adopted.fingerprint}, not ${fingerprint} of publicKey`
        : `adoptId: there is no SSH key ${adoptId} on this account`,
    );
  }
}

async function check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  const inputs = withFieldDefaults(SSH_KEY_FIELDS, olds, news);
  const failures = new Failures();
  checkFields(SSH_KEY_FIELDS, inputs, failures);
  const fingerprint = fingerprintOf(inputs.publicKey);
  // Only a key this resource does not hold yet can collide with one of the account's.
  const isNew = Object.keys(olds).length === 0 || fingerprintOf(olds.publicKey) !== fingerprint;
  if (failures.list.length === 0 && fingerprint && !isUnknown(inputs.adoptId) && isNew) {
    await checkExisting(inputs, fingerprint, failures);
  }
  return { inputs, failures: failures.list };
}

async function diff(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  // The key is compared by fingerprint: a new comment alone is no change.
  const replaces = changedFields(
    olds,
    news,
    REPLACE.filter((field) => field !== 'publicKey'),
  );
  const newKey = isUnknown(news.publicKey)
    ? true
    : fingerprintOf(olds.publicKey) !== fingerprintOf(news.publicKey);
  if (newKey) replaces.push('publicKey');
  const edits = changedFields(olds, news, EDIT);
  return { changes: replaces.length + edits.length > 0, replaces, deleteBeforeReplace: false };
}

function outputs(inputs: Bag, key: SshKey): Bag {
  return {
    ...inputs,
    label: key.label,
    notes: key.notes || undefined,
    keyId: key.id,
    fingerprint: key.fingerprint,
    createDate: key.createDate ?? null,
  };
}

async function create(inputs: Bag): Promise<pulumi.dynamic.CreateResult> {
  const manager = keys();
  const label = String(inputs.label);
  const notes = inputs.notes as string | undefined;
  if (inputs.adoptId !== undefined) {
    const id = Number(inputs.adoptId);
    const key = await manager.getKey(id);
    say(`SshKey "${label}": adopting existing SSH key ${id} (${key.fingerprint})`);
    if (key.label !== label || (key.notes || undefined) !== notes)
      await manager.editKey(id, { label, notes: notes ?? '' });
    return { id: String(id), outs: outputs(inputs, await manager.getKey(id)) };
  }
  const fingerprint = fingerprintOf(inputs.publicKey)!;
  // `check` found no key with this fingerprint: one that shows up after a failed write is its effect.
  const key = await createOnce({
    what: `SshKey "${label}"`,
    write: () => manager.createKey({ label, key: String(inputs.publicKey), notes }),
    // check found no key with this fingerprint, and the API keeps one per fingerprint: one that
    // shows up after a failed write is this write's.
    find: () => manager.findByFingerprint(fingerprint),
    windowMs: freeWriteWindowMs(),
    nextRun: 'The next `pulumi up` finds the key in check and names it for adoptId.',
  });
  return { id: String(key.id), outs: outputs(inputs, key) };
}

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const key = await keys().findKey(Number(id));
  if (!key) {
    say(
      `SshKey ${JSON.stringify(props.label ?? '')} (id ${id}) no longer exists; it leaves the stack`,
    );
    return {};
  }
  // The declared text stays while it is the same key (the API may keep another comment).
  const publicKey = fingerprintOf(props.publicKey) === key.fingerprint ? props.publicKey : key.key;
  return { id, props: { ...outputs(props, key), publicKey } };
}

async function update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  const manager = keys();
  const changed = changedFields(olds, news, EDIT);
  if (changed.length > 0) {
    say(`SshKey ${JSON.stringify(news.label)} (id ${id}): updating ${changed.join(', ')} in place`);
    await manager.editKey(Number(id), {
      label: String(news.label),
      notes: (news.notes as string | undefined) ?? '',
    });
  }
  return { outs: outputs(news, await manager.getKey(Number(id))) };
}

async function remove(id: string, props: Bag): Promise<void> {
  const manager = keys();
  await writeIdempotent({
    what: `SshKey ${JSON.stringify(props.label)} (id ${id}) deletion`,
    write: () => manager.deleteKey(Number(id)),
    done: async () => (await manager.findKey(Number(id))) === undefined,
    windowMs: freeWriteWindowMs(),
  });
  say(`SshKey ${JSON.stringify(props.label)} (id ${id}): deleted`);
}

export const sshKeyProvider = { check, diff, create, read, update, delete: remove };

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { sshKeyProvider as provider } from '../../provider/kinds/ssh-key/provider';
import { parsePublicKey } from '../../provider/kinds/ssh-key/format';
import type { SshKey } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { KEY_VECTORS, freshEd25519, sshString } from '../support/ssh-keys';

type Bag = Record<string, unknown>;

describe('SSH public key format', () => {
  it('reads every supported type and computes the MD5 fingerprint ssh-keygen prints', () => {
    for (const [name, vector] of Object.entries(KEY_VECTORS)) {
      const parsed = parsePublicKey(`  ${vector.key}\n`);
      assert.equal(typeof parsed, 'object', name);
      assert.equal((parsed as { fingerprint: string }).fingerprint, vector.fingerprint, name);
    }
    assert.deepEqual(parsePublicKey('ssh-ed25519 ' + KEY_VECTORS.ed25519.key.split(' ')[1]), {
      type: 'ssh-ed25519',
      body: KEY_VECTORS.ed25519.key.split(' ')[1],
      fingerprint: KEY_VECTORS.ed25519.fingerprint,
    });
  });

  it('names the problem of each malformed key', () => {
    const rsaBody = KEY_VECTORS.rsa.key.split(' ')[1];
    const b64 = (...parts: Buffer[]) => Buffer.concat(parts).toString('base64');
    const cases: [string, RegExp][] = [
      [
        '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
        /is a private key/,
      ],
      ['---- BEGIN SSH2 PUBLIC KEY ----\nAAAA\n---- END SSH2 PUBLIC KEY ----', /SSH2 \(RFC 4716\)/],
      [`${KEY_VECTORS.rsa.key}\n${KEY_VECTORS.ed25519.key}`, /one key on one line/],
      ['ssh-dss AAAAB3NzaC1kc3M=', /"ssh-dss", which is not a supported key type; use ssh-rsa/],
      ['ssh-rsa', /has the type ssh-rsa but no key after it/],
      ['ssh-rsa AAAA*B3Nz', /not valid base64/],
      [`ssh-ed25519 ${rsaBody}`, /says ssh-ed25519 but its body is a ssh-rsa key/],
      [
        `ssh-ed25519 ${b64(sshString('ssh-ed25519'), sshString(Buffer.alloc(31)))}`,
        /one 32-byte key/,
      ],
      [
        `ssh-rsa ${b64(sshString('ssh-rsa'), sshString(Buffer.from([1, 0, 1])))}`,
        /an exponent and a modulus/,
      ],
      [
        `ecdsa-sha2-nistp256 ${b64(sshString('ecdsa-sha2-nistp256'), sshString('nistp384'), sshString(Buffer.from([4, 1])))}`,
        /must name the curve nistp256/,
      ],
      [`ssh-rsa ${b64(Buffer.from([0, 0, 0, 99, 1]))}`, /not an SSH public key/],
    ];
    for (const [text, problem] of cases) {
      const parsed = parsePublicKey(text);
      assert.equal(typeof parsed, 'string', text);
      assert.match(parsed as string, problem, text);
    }
  });
});

describe('SshKey provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv()));
  after(() => emulator?.close());

  const accountKeys = async () =>
    (await client.call('Account', 'getSshKeys', {
      mask: 'id,label,notes,fingerprint',
    })) as SshKey[];

  it('check names a missing label and a malformed key', async () => {
    const result = await provider.check({}, { publicKey: 'ssh-rsa AAAA*' });
    const byField = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byField.label, /label is required/);
    assert.match(byField.publicKey, /^publicKey has a ssh-rsa body that is not valid base64/);
  });

  it('creates the key, changes label and notes in place, ignores the comment, replaces for a new key', async () => {
    const declared = { label: 'deploy', publicKey: `${KEY_VECTORS.ed25519.key}\n`, notes: 'n1' };
    const checked = (await provider.check({}, declared)) as { inputs: Bag; failures: unknown[] };
    assert.deepEqual(checked.failures, []);
    assert.equal(checked.inputs.publicKey, KEY_VECTORS.ed25519.key, 'trimmed');
    const { id, outs } = await provider.create(checked.inputs);
    assert.equal(outs!.keyId, Number(id));
    assert.equal(outs!.fingerprint, KEY_VECTORS.ed25519.fingerprint);
    assert.deepEqual(
      (await accountKeys()).map((k) => [String(k.id), k.label, k.notes]),
      [[id, 'deploy', 'n1']],
    );

    const again = await provider.check(outs!, declared);
    assert.deepEqual(again.failures, [], 'the key it holds is not a duplicate of itself');
    assert.deepEqual(await provider.diff(id, outs!, again.inputs!), { changes: false });
    const recommented = KEY_VECTORS.ed25519.key.replace('vector@svc', 'laptop');
    assert.equal(
      (await provider.diff(id, outs!, { ...checked.inputs, publicKey: recommented })).changes,
      false,
      'the comment is not part of the key',
    );
    const relabelled = { ...checked.inputs, label: 'deploy-2', notes: undefined };
    const diff = await provider.diff(id, outs!, relabelled);
    assert.deepEqual(
      [diff.changes, diff.replaces],
      [undefined, []],
      'an in-place change is left for the engine to diff, as for every kind',
    );
    const updated = await provider.update(id, outs!, relabelled);
    assert.deepEqual([updated.outs!.label, updated.outs!.notes], ['deploy-2', undefined]);
    assert.deepEqual(
      (await accountKeys()).map((k) => [k.label, k.notes]),
      [['deploy-2', undefined]],
    );
    const newKey = { ...relabelled, publicKey: KEY_VECTORS.rsa.key };
    assert.deepEqual((await provider.diff(id, updated.outs!, newKey)).replaces, ['publicKey']);

    const read = await provider.read(id, updated.outs!);
    // Of the plugin schema's types, its required outputs set, as SDKs decode them.
    for (const props of [outs, updated.outs, read.props])
      assert.deepEqual(outputProblems('SshKey', props as Record<string, unknown>), []);
    assert.equal(read.id, id);
    assert.equal((read.props as Bag).publicKey, KEY_VECTORS.ed25519.key);
    await provider.delete(id, updated.outs!);
    assert.deepEqual(await accountKeys(), []);
    assert.deepEqual(await provider.read(id, updated.outs!), {}, 'a deleted key leaves the stack');
    await provider.delete(id, updated.outs!); // already gone: done
  });

  it('a lost createObject response: the key is found by its fingerprint, not added twice', async () => {
    const checked = (await provider.check({}, { label: 'lost', publicKey: freshEd25519() }))
      .inputs!;
    emulator.setFaults({
      once: { service: 'Security_Ssh_Key', method: 'createObject', fault: 'lose-response' },
    });
    const before = (await accountKeys()).length;
    const { id, outs } = await provider.create(checked);
    const after = await accountKeys();
    assert.equal(after.length, before + 1, 'one key');
    assert.equal(outs!.keyId, Number(id));
    assert.ok(after.some((k) => String(k.id) === id && k.label === 'lost'));
    await provider.delete(id, outs!);
  });

  it('a key the account already has fails in check with its id, and is taken over only with adoptId', async () => {
    const publicKey = freshEd25519('existing');
    const existing = (await client.call('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'by hand', key: publicKey }],
    })) as SshKey;
    const declared = { label: 'mine', publicKey: publicKey.replace('existing', 'other-comment') };
    const dup = await provider.check({}, declared);
    assert.equal(dup.failures?.length, 1);
    assert.equal(dup.failures![0].property, 'publicKey');
    assert.match(
      dup.failures![0].reason,
      new RegExp(
        `already has this key: SSH key ${existing.id} \\(label "by hand".*set adoptId: '${existing.id}'`,
      ),
    );

    const wrong = await provider.check({}, { ...declared, adoptId: 999999 });
    assert.match(
      wrong.failures![0].reason,
      new RegExp(`SSH key ${existing.id}`),
      'still names the real one',
    );
    const otherKey = (await client.call('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'other', key: freshEd25519() }],
    })) as SshKey;
    const mismatch = await provider.check(
      {},
      { ...declared, publicKey: freshEd25519(), adoptId: otherKey.id },
    );
    assert.match(
      mismatch.failures![0].reason,
      new RegExp(`adoptId: SSH key ${otherKey.id} has fingerprint`),
    );

    const adopting = await provider.check({}, { ...declared, adoptId: existing.id });
    assert.deepEqual(adopting.failures, []);
    assert.equal((adopting.inputs as Bag).adoptId, String(existing.id));
    const { id, outs } = await provider.create(adopting.inputs!);
    assert.equal(id, String(existing.id), 'the same key, not a second one');
    assert.equal(outs!.label, 'mine', 'label set on the adopted key');
    assert.equal((await accountKeys()).length, 2);
  });
});

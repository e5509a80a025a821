/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';
import { KEY_VECTORS, freshEd25519, sshString } from '../support/ssh-keys';

const h = useEmulator();

type Row = Record<string, any>;

describe('Security_Ssh_Key', () => {
  it('stores keys with the fingerprint ssh-keygen -E md5 prints, listed by Account.getSshKeys', async () => {
    const client = await freshAccount(h.emu);
    for (const [name, vector] of Object.entries(KEY_VECTORS)) {
      const created = await client.call<Row>('Security_Ssh_Key', 'createObject', {
        args: [{ label: ` ${name} `, key: `  ${vector.key}\n`, notes: 'n' }],
      });
      assert.equal(created.fingerprint, vector.fingerprint, name);
      assert.equal(created.key, vector.key, 'surrounding whitespace is dropped');
      assert.equal(created.label, name);
      assert.match(created.createDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-06:00$/);
    }
    const keys = await client.call<Row[]>('Account', 'getSshKeys', {
      mask: 'id,label,fingerprint',
      filter: { sshKeys: { fingerprint: { operation: KEY_VECTORS.rsa.fingerprint } } },
    });
    assert.deepEqual(
      keys.map((k) => k.label),
      ['rsa'],
    );
    const counted = await client.call<Row>('Account', 'getObject', { mask: 'mask[sshKeyCount]' });
    assert.equal(counted.sshKeyCount, 3);
  });

  it('refuses a second key with the same fingerprint, also under another comment', async () => {
    const client = await freshAccount(h.emu);
    const key = freshEd25519('first');
    await client.call('Security_Ssh_Key', 'createObject', { args: [{ label: 'a', key }] });
    const again = await client.callRaw('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'b', key: key.replace(/first$/, 'second') }],
    });
    assert.equal(again.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(again.fault!.faultString, /fingerprint [0-9a-f:]{47} already exists/);
    // Another account may hold the same key.
    const other = await freshAccount(h.emu);
    await other.call('Security_Ssh_Key', 'createObject', { args: [{ label: 'a', key }] });
  });

  it('holds at most 100 keys per account', async () => {
    const client = await freshAccount(h.emu);
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          client.call('Security_Ssh_Key', 'createObject', {
            args: [{ label: `k${batch * 10 + i}`, key: freshEd25519() }],
          }),
        ),
      );
    }
    const full = await client.callRaw('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'one too many', key: freshEd25519() }],
    });
    assert.equal(full.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(full.fault!.faultString, /at most 100 SSH keys/);
  });

  it('names what is wrong with a template', async () => {
    const client = await freshAccount(h.emu);
    const rsaBodyAsEd = `ssh-ed25519 ${KEY_VECTORS.rsa.key.split(' ')[1]}`;
    const cases: [Row, string, RegExp][] = [
      [{ label: 'x' }, 'Svc_Exception_Public', /Property 'key' must be set/],
      [{ key: freshEd25519() }, 'Svc_Exception_Public', /Property 'label' must be set/],
      [{ label: 'x', key: 'ssh-dss AAAA' }, 'Svc_Exception_InvalidValue', /unsupported key type/],
      [{ label: 'x', key: 'ssh-rsa not*base64' }, 'Svc_Exception_InvalidValue', /not base64/],
      [{ label: 'x', key: rsaBodyAsEd }, 'Svc_Exception_InvalidValue', /not a 'ssh-ed25519' key/],
      [{ label: '  ', key: freshEd25519() }, 'Svc_Exception_InvalidValue', /'label'/],
      [{ label: 'x', key: freshEd25519(), color: 1 }, 'Svc_Exception_Public', /'color' not valid/],
    ];
    for (const [template, code, message] of cases) {
      const res = await client.callRaw('Security_Ssh_Key', 'createObject', { args: [template] });
      assert.equal(res.fault?.faultCode, code, JSON.stringify(template));
      assert.match(res.fault!.faultString, message);
    }
    const truncated = Buffer.concat([sshString('ssh-ed25519')]).toString('base64');
    const empty = await client.callRaw('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'x', key: `ecdsa-sha2-nistp256 ${truncated}` }],
    });
    assert.match(empty.fault!.faultString, /not a 'ecdsa-sha2-nistp256' key/);
    assert.deepEqual(await client.call('Account', 'getSshKeys'), [], 'nothing was stored');
  });

  it('edits label and notes, refuses a new key, deletes; another account sees nothing', async () => {
    const client = await freshAccount(h.emu);
    const key = freshEd25519();
    const { id } = await client.call<Row>('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'old', key, notes: 'first' }],
    });
    assert.equal(
      await client.call('Security_Ssh_Key', 'editObject', {
        id,
        args: [{ label: 'new', notes: null, key }],
      }),
      true,
    );
    const edited = await client.call<Row>('Security_Ssh_Key', 'getObject', { id });
    assert.deepEqual([edited.label, edited.notes], ['new', undefined]);
    const rekey = await client.callRaw('Security_Ssh_Key', 'editObject', {
      id,
      args: [{ key: freshEd25519() }],
    });
    assert.match(rekey.fault!.faultString, /cannot be changed/);

    const stranger = await freshAccount(h.emu);
    for (const method of ['getObject', 'deleteObject']) {
      const res = await stranger.callRaw('Security_Ssh_Key', method, { id });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_ObjectNotFound', method);
    }
    assert.equal(await client.call('Security_Ssh_Key', 'deleteObject', { id }), true);
    const gone = await client.callRaw('Security_Ssh_Key', 'getObject', { id });
    assert.equal(gone.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
  });

  it('guests are ordered only with keys of the account, and list them', async () => {
    const client = await freshAccount(h.emu);
    const { id } = await client.call<Row>('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'admin', key: freshEd25519() }],
    });
    const stranger = await freshAccount(h.emu);
    await assert.rejects(
      createGuest(stranger, { sshKeys: [{ id }] }),
      /SSH key \d+ does not exist/,
    );
    const guest = await createGuest(client, { sshKeys: [{ id }] });
    const read = await client.call<Row>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'sshKeys[id,label]',
    });
    assert.deepEqual(read.sshKeys, [{ id, label: 'admin' }]);
  });
});

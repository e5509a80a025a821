import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DnsZone, SshKey, VirtualGuest } from '../../provider/managers';
import { freshEd25519 } from '../support/ssh-keys';
import { cliFixture, previewBilling, writeCalls, type CliFixture } from './cli';

// A first real server through the Pulumi CLI (test/stack/programs/server): an SshKey, a DnsZone,
// a guest using both, an A record in the zone, and getVirtualGuest finding that guest by name.
describe('SSH key, own zone and guest through the Pulumi CLI', () => {
  let f: CliFixture;
  const publicKey = freshEd25519('admin@server');
  let keyId = 0;
  let guestId = 0;

  before(async () => {
    f = await cliFixture({
      program: 'server',
      config: { 'stackserver:publicKey': { value: publicKey } },
    });
  });
  after(() => f?.close());

  const keys = async () =>
    (await f.client.call('Account', 'getSshKeys', {
      mask: 'id,label,notes,key,fingerprint',
    })) as SshKey[];
  const zone = async () =>
    (
      (await f.client.call('Dns_Domain', 'getByDomainName', {
        args: ['server.test'],
        mask: 'id,name,resourceRecords[id,host,type,data,ttl]',
      })) as DnsZone[]
    )[0];

  it('up creates the key, the zone with its record, the guest with key and user data, and the A record', async () => {
    await f.stack.up();
    assert.equal((await f.lastChanges()).create, 5, 'the stack and four resources');
    const [key] = await keys();
    assert.equal(key.label, 'admin');
    assert.equal(key.key, publicKey);
    const outputs = await f.stack.outputs();
    keyId = key.id;
    assert.equal(outputs.keyId, key.id);
    assert.equal(outputs.fingerprint, key.fingerprint);

    const [guest] = (await f.client.call('Account', 'getVirtualGuests', {
      mask: 'id,hostname,domain,primaryIpAddress,sshKeys.id,userData.value,tagReferences.tag.name',
    })) as VirtualGuest[];
    guestId = guest.id;
    assert.equal(outputs.guestId, guest.id);
    assert.equal(`${guest.hostname}.${guest.domain}`, 'web.server.test');
    assert.deepEqual(
      guest.sshKeys?.map((k) => k.id),
      [key.id],
    );
    assert.equal(guest.userData?.[0].value, '#cloud-config\r\npackages: [nginx]\r\n');
    assert.deepEqual(outputs.tags, ['edge', 'server'], 'tags as the API stores them');

    const z = await zone();
    assert.equal(outputs.zoneId, z.id);
    assert.deepEqual(z.resourceRecords?.map((r) => [r.host, r.type, r.data]).sort(), [
      ['@', 'txt', 'v=spf1 -all'],
      ['web', 'a', guest.primaryIpAddress],
    ]);
  });

  it('getVirtualGuest by hostname and domain finds the guest of the same stack', async () => {
    const { lookedUp } = (await f.stack.outputs()) as {
      lookedUp: { id: number; fqdn: string; sshKeyIds: number[] };
    };
    // The lookup answers the guest's integer id, as every lookup answers ids.
    assert.deepEqual(lookedUp, {
      id: guestId,
      fqdn: 'web.server.test',
      sshKeyIds: [keyId],
    });
  });

  it('a second up and a preview with expectNoChanges change nothing (tags, user data, key ids)', async () => {
    const before = writeCalls(f.emulator);
    await f.stack.up();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
    await f.stack.preview(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator), before, 'no write call on the API');
  });

  it('a new label updates the key in place; the guest keeps its key', async () => {
    await f.stack.setConfig({ 'stackserver:keyLabel': { value: 'admin-2' } });
    await f.stack.up();
    const changes = await f.lastChanges();
    assert.equal(changes.update, 1);
    assert.equal(changes.replace, undefined, 'nothing replaced');
    const [key] = await keys();
    assert.deepEqual([key.id, key.label], [keyId, 'admin-2']);
    assert.equal((await f.stack.outputs()).guestId, guestId, 'the same guest');
  });

  it('new user data: preview shows the guest replaced, and why', async () => {
    await f.stack.setConfig({
      'stackserver:userData': { value: '#cloud-config\npackages: [caddy]\n' },
    });
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(
      changes.map((c) => [c.op, c.name, c.reasons]),
      [['replace', 'web', ['userData']]],
    );
    assert.match(
      messages,
      /VirtualGuest "web" is replaced because userData changed: cloud-init runs user data only on the first boot/,
    );
    await f.stack.run(['config', 'rm', 'stackserver:userData']);
  });

  it('a key the account already has fails in check naming its id, and nothing is written', async () => {
    const other = freshEd25519('by-hand');
    const existing = (await f.client.call('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'made by hand', key: other }],
    })) as SshKey;
    await f.stack.setConfig({ 'stackserver:publicKey': { value: other } });
    const before = writeCalls(f.emulator);
    await assert.rejects(
      f.stack.preview(),
      new RegExp(`already has this key: SSH key ${existing.id} .*adoptId: '${existing.id}'`, 's'),
    );
    await assert.rejects(f.stack.up(), new RegExp(`SSH key ${existing.id}`));
    assert.equal(writeCalls(f.emulator), before, 'no write call on the API');
    await f.stack.setConfig({ 'stackserver:publicKey': { value: publicKey } });
  });

  it('destroy is refused while the zone holds a record the stack does not own, then forceDelete allows it', async () => {
    const z = await zone();
    await f.client.call('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ domainId: z.id, host: 'by-hand', type: 'A', data: '192.0.2.99', ttl: 60 }],
    });
    await assert.rejects(
      f.stack.destroy(),
      /DnsZone server\.test \(id \d+\) still has 1 record\(s\) this stack does not own: by-hand A 192\.0\.2\.99/,
    );
    assert.ok(await zone(), 'the zone is still there');
    await f.stack.setConfig({ 'stackserver:forceDelete': { value: 'true' } });
    await f.stack.up();
    await f.stack.destroy();
    assert.deepEqual(await f.guests(), []);
    assert.deepEqual(
      (await keys()).map((k) => k.label),
      ['made by hand'],
      "the stack's key is deleted; the one made by hand stays",
    );
    assert.equal(await zone(), undefined, 'the zone is deleted with its records');
    assert.deepEqual(await f.stateIds('SshKey'), []);
  });
});

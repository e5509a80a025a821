import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DnsZone, SshKey, Ticket, VirtualGuest } from '../../provider/managers';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { cliFixture, hasTag, previewBilling, writeCalls, type CliFixture } from './cli';

// The quickstart example project through its whole life, driven by the Pulumi CLI as a user
// types it: preview, up, no-op up, in-place update, replacement, drift, secrets, destroy.
describe('quickstart project through the Pulumi CLI', () => {
  let f: CliFixture;
  const quick = hasTag('quickstart');
  const byHost = async (hostname: string) =>
    (await f.guests(quick)).find((g) => g.hostname === hostname);
  let webId = '';
  let workerId = '';
  const ZONE = 'quickstart.example.com';
  const zone = async () =>
    (
      (await f.client.call('Dns_Domain', 'getByDomainName', {
        args: [ZONE],
        mask: 'id,name,resourceRecords[host,type,data]',
      })) as DnsZone[]
    )[0];
  const sshKeys = async () =>
    (await f.client.call('Account', 'getSshKeys', { mask: 'id,label,fingerprint' })) as SshKey[];

  before(async () => {
    f = await cliFixture({ program: path.join(PACKAGE_ROOT, 'examples', 'quickstart') });
  });
  after(() => f?.close());

  it('1. preview of a new stack lists the creates with their billing lines and creates nothing', async () => {
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(changes.map((c) => [c.op, c.name, c.mode]).sort(), [
      ['create', 'web', 'hourly'],
      ['create', 'worker', 'hourly'],
    ]);
    for (const change of changes) assert.ok(change.newHourly! > 0, `${change.name} is priced`);
    assert.match(
      messages,
      /BILLING create VirtualGuest "web" orders a new guest: 1 CPU, 2048 MB, UBUNTU_LATEST in dal10; hourly, \$0\.0515\/hour \(\$37\.60\/month, account price\)/,
    );
    assert.match(messages, /BILLING create VirtualGuest "worker" orders a new guest/);
    assert.equal(messages.split('\n').filter((line) => line.includes('BILLING')).length, 2);
    assert.equal((await f.guests(quick)).length, 0);
    assert.equal(writeCalls(f.emulator), 0);
  });

  it('2. up creates the key, the zone, the guests, the DNS record and the ticket update, and outputs match the API', async () => {
    await f.stack.up();
    assert.equal((await f.lastChanges()).create, 7, 'the stack and six resources');
    const guests = await f.guests(quick);
    assert.equal(guests.length, 2);
    const outputs = await f.stack.outputs();
    const web = guests.find((g) => `${g.hostname}.${g.domain}` === outputs.webFqdn) as VirtualGuest;
    const worker = guests.find((g) => g.hostname === 'worker-1') as VirtualGuest;
    assert.ok(web && worker, 'both guests are in the emulator');
    assert.match(web.hostname, /^web-[0-9a-f]{7}$/);
    assert.equal(outputs.webIp, web.primaryIpAddress);
    assert.equal(outputs.workerFqdn, `worker-1.${ZONE}`);
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'getAccount lookup');
    assert.ok((outputs.datacenters as string[]).includes('dal10'), 'getDatacenters lookup');
    assert.equal(outputs.hourlyCost, 0.152, 'priced by the API, disks included: 0.0515 + 0.1005');
    webId = String(web.id);
    workerId = String(worker.id);
    const [key] = await sshKeys();
    assert.equal(key.label, 'quickstart-admin');
    assert.equal(outputs.sshKeyFingerprint, key.fingerprint);
    for (const guest of [web, worker]) {
      const { sshKeys: installed } = (await f.client.call('Virtual_Guest', 'getObject', {
        id: guest.id,
        mask: 'sshKeys.id',
      })) as VirtualGuest;
      assert.deepEqual(
        installed?.map((k) => k.id),
        [key.id],
        `${guest.hostname} gets the key`,
      );
    }
    const own = await zone();
    assert.equal(outputs.zoneId, own.id, 'the stack made its own zone');
    const record = own.resourceRecords?.find((r) => r.host === web.hostname);
    assert.deepEqual(
      [record?.type.toUpperCase(), record?.data],
      ['A', web.primaryIpAddress],
      'the A record points at the web guest',
    );
    assert.ok(own.resourceRecords?.some((r) => r.host === '@' && r.type.toUpperCase() === 'TXT'));
    const [ticket] = (await f.client.call('Account', 'getTickets', {
      mask: 'id',
      limit: 1,
    })) as Ticket[];
    const updates = (await f.client.call('Ticket', 'getUpdates', { id: ticket.id })) as {
      entry: string;
    }[];
    const entry = `Deployed ${outputs.webFqdn as string} and worker-1.${ZONE} with Pulumi.`;
    assert.ok(
      updates.some((u) => u.entry === entry),
      `ticket ${ticket.id} has the update: ${JSON.stringify(updates.map((u) => u.entry))}`,
    );
  });

  it('3. a second up and a preview with expectNoChanges report no changes', async () => {
    const before = writeCalls(f.emulator);
    await f.stack.up();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
    await f.stack.preview(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator), before, 'no write call on the API');
  });

  it('4a. changing the hostname updates the guest in place', async () => {
    await f.stack.setConfig({ 'quickstart:workerHostname': { value: 'worker-2' } });
    await f.stack.up();
    const changes = await f.lastChanges();
    assert.equal(changes.update, 1, 'the worker, in place');
    assert.equal(changes.replace, 1, 'the ticket update, whose text names the host');
    const worker = await byHost('worker-2');
    assert.equal(String(worker?.id), workerId, 'same guest id');
  });

  it('4b. changing startCpus upgrades the guest in place, and preview shows the billing change first', async () => {
    await f.stack.setConfig({ 'quickstart:webCpus': { value: '2' } });
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(
      changes.map((c) => [c.op, c.name, c.reasons]),
      [['upgrade', 'web', ['startCpus']]],
    );
    assert.ok(changes[0].newHourly! > changes[0].oldHourly!, 'two CPUs cost more than one');
    assert.match(
      messages,
      /BILLING upgrade VirtualGuest "web" in place \(startCpus 1 -> 2\).*the guest reboots/,
    );
    await f.stack.up();
    assert.equal((await f.lastChanges()).update, 1);
    const guests = await f.guests(quick);
    assert.equal(guests.length, 2);
    const web = guests.find((g) => g.hostname.startsWith('web-'))!;
    assert.equal(String(web.id), webId, 'the same guest');
    assert.equal(web.startCpus ?? web.maxCpu, 2);
    assert.equal(writeCalls(f.emulator, 'Product_Order.placeOrder'), 1);
  });

  it('4c. changing the datacenter replaces both guests, one BILLING line each', async () => {
    await f.stack.setConfig({ 'quickstart:datacenter': { value: 'dal12' } });
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(changes.map((c) => [c.op, c.name, c.reasons]).sort(), [
      ['replace', 'web', ['datacenter']],
      ['replace', 'worker', ['datacenter']],
    ]);
    assert.equal(messages.split('\n').filter((line) => line.includes('BILLING')).length, 2);
    assert.match(messages, /BILLING replace VirtualGuest "web" \(changed: datacenter\)/);
    await f.stack.up();
    assert.equal((await f.lastChanges()).replace, 2);
    const web = (await f.guests(quick)).find((g) => g.hostname.startsWith('web-'))!;
    assert.notEqual(String(web.id), webId, 'a new guest');
    await assert.rejects(
      f.client.call('Virtual_Guest', 'getObject', { id: Number(webId) }),
      /ObjectNotFound/,
    );
    webId = String(web.id);
  });

  it('5. a guest deleted behind Pulumi: refresh notices, the next up recreates it', async () => {
    await f.client.call('Virtual_Guest', 'deleteObject', { id: Number(webId) });
    await f.stack.refresh();
    assert.equal((await f.lastChanges()).delete, 1);
    await f.stack.up();
    assert.equal((await f.lastChanges()).create, 1);
    const web = (await f.guests(quick)).find((g) => g.hostname.startsWith('web-'));
    assert.ok(web && String(web.id) !== webId, 'recreated with a new id');
  });

  it('7. the API key set as a secret never appears in the state export or the CLI output', async () => {
    const apiKey = f.emulator.credentials.apiKey;
    const configFile = fs.readFileSync(path.join(f.dir, 'Pulumi.test.yaml'), 'utf8');
    assert.match(configFile, /svc:apiKey:\s+secure: /, 'the stack config holds the key encrypted');
    assert.ok(!configFile.includes(apiKey), 'no plain API key in the stack config');
    const exported = await f.stack.capture(['stack', 'export']);
    assert.match(exported, /"ciphertext"/, 'the config the engine keeps is encrypted');
    assert.ok(exported.includes('__provider'), 'the export holds the resources');
    assert.ok(!exported.includes(apiKey), 'no plain API key in the state');
    assert.ok(!f.output().includes(apiKey), 'no plain API key in the CLI output');
  });

  it('11. destroy leaves no object of the stack in the emulator', async () => {
    await f.stack.destroy();
    assert.equal((await f.guests(quick)).length, 0);
    assert.equal(await zone(), undefined, 'the zone is gone with its records');
    assert.deepEqual(await sshKeys(), [], 'the key is gone');
    const [seeded] = (await f.client.call('Dns_Domain', 'getByDomainName', {
      args: ['example.com'],
    })) as DnsZone[];
    assert.ok(seeded, "the account's own zone is untouched");
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import { Client, DNSZoneNotFound } from '../../provider/client';
import {
  AccountManager,
  DnsManager,
  TicketManager,
  VirtualGuestManager,
  WaitTimeoutError,
  isReady,
  tagNames,
  type CreateInstanceSpec,
} from '../../provider/managers';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

describe('managers against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  let guests: VirtualGuestManager;
  const spec = (hostname: string, extra: Partial<CreateInstanceSpec> = {}): CreateInstanceSpec => ({
    hostname,
    domain: 'mgr.example.com',
    cpus: 1,
    memory: 1024,
    os: 'UBUNTU_LATEST',
    datacenter: 'dal10',
    ...extra,
  });

  before(async () => {
    // Long enough that a guest is still provisioning at the check right after its order, even on
    // a busy machine.
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 1500 });
    client = new Client({ ...emulator.credentials, endpointUrl: emulator.url });
    guests = new VirtualGuestManager(client);
  });
  after(() => emulator?.close());

  it('VirtualGuestManager: verifyCreate prices without ordering; createInstance orders; waitForReady waits', async () => {
    const order = await guests.verifyCreate(spec('alpha'));
    assert.ok(order.prices, 'an order template with prices');
    assert.equal(
      (await guests.listInstances({ domain: 'mgr.example.com' })).length,
      0,
      'verify orders nothing',
    );
    const alpha = await guests.createInstance(spec('alpha', { tags: ['blue', 'web'] }));
    const beta = await guests.createInstance(
      spec('beta', { cpus: 2, hourly: false, datacenter: 'lon06', tags: ['green'] }),
    );
    await assert.rejects(
      guests.waitForReady(beta.id, { timeoutMs: 0 }),
      WaitTimeoutError,
      'just ordered: not ready',
    );
    const ready = await guests.waitForReady(alpha.id, { timeoutMs: 10_000, pollMs: 100 });
    assert.ok(isReady(ready) && ready.provisionDate && ready.primaryIpAddress);
    await guests.waitForReady(beta.id, { timeoutMs: 10_000, pollMs: 100 });
  });

  it('VirtualGuestManager.listInstances filters by hostname, domain, datacenter, tags, CPUs and billing', async () => {
    const names = async (options: Parameters<VirtualGuestManager['listInstances']>[0]) =>
      (await guests.listInstances({ domain: 'mgr.example.com', ...options }))
        .map((g) => g.hostname)
        .sort();
    assert.deepEqual(await names({}), ['alpha', 'beta']);
    assert.deepEqual(await names({ hostname: 'ALPHA' }), ['alpha'], 'case-insensitive equality');
    assert.deepEqual(await names({ hostname: 'al*' }), ['alpha'], 'wildcard');
    assert.deepEqual(await names({ datacenter: 'lon06' }), ['beta']);
    assert.deepEqual(await names({ tags: ['web'] }), ['alpha']);
    assert.deepEqual(await names({ tags: ['web', 'green'] }), ['alpha', 'beta']);
    assert.deepEqual(await names({ cpus: 2 }), ['beta']);
    assert.deepEqual(await names({ monthly: false }), ['alpha'], 'hourly only');
    assert.deepEqual(await names({ hourly: false }), ['beta'], 'monthly only');
    assert.deepEqual(await names({ limit: 1 }), ['alpha', 'beta'], 'every page is fetched');
  });

  it('VirtualGuestManager: getInstance, editInstance, setTags and cancelInstance (hourly and monthly)', async () => {
    const [alpha] = await guests.listInstances({ hostname: 'alpha' });
    const [beta] = await guests.listInstances({ hostname: 'beta' });
    await guests.editInstance(alpha.id, { hostname: 'alpha2', notes: 'edited', tags: ['red'] });
    const edited = await guests.getInstance(alpha.id);
    assert.deepEqual(
      [edited.hostname, edited.notes, tagNames(edited)],
      ['alpha2', 'edited', ['red']],
    );
    assert.equal(edited.datacenter?.name, 'dal10');
    await guests.cancelInstance(alpha.id);
    assert.equal(await guests.findInstance(alpha.id), undefined);
    await guests.cancelInstance(alpha.id); // already gone: a no-op
    const calls = () => emulator.stats().calls['Billing_Item.cancelService'] ?? 0;
    const before = calls();
    await guests.cancelInstance(beta.id);
    assert.equal(calls() - before, 1, 'a monthly guest is cancelled through its billing item');
  });

  it('DnsManager: zone by name with records, DNSZoneNotFound, record create/edit/delete', async () => {
    const dns = new DnsManager(client);
    const zone = await dns.getZoneByName('Example.COM');
    assert.equal(zone.name, 'example.com');
    await assert.rejects(dns.getZoneByName('nope.example'), DNSZoneNotFound);
    const record = await dns.createRecord(zone.id, {
      host: 'mgr',
      type: 'TXT',
      data: 'hello',
      ttl: 120,
    });
    await dns.editRecord(record.id, { data: 'bye' });
    assert.equal((await dns.getRecord(record.id)).data, 'bye');
    assert.ok((await dns.listRecords(zone.id)).some((r) => r.id === record.id));
    await dns.deleteRecord(record.id);
    assert.equal(await dns.findRecord(record.id), undefined);
    await dns.deleteRecord(record.id); // already gone: a no-op
  });

  it('TicketManager: list by createDate range, get with relations, addUpdate', async () => {
    const tickets = new TicketManager(client);
    const all = await tickets.listTickets();
    assert.ok(all.length >= 2);
    const sorted = all.map((t) => Date.parse(t.createDate!)).sort((a, b) => a - b);
    const early = await tickets.listTickets({
      createdBetween: { start: new Date(sorted[0] - 1000), end: new Date(sorted[0] + 1000) },
    });
    assert.deepEqual(
      early.map((t) => Date.parse(t.createDate!)),
      [sorted[0]],
    );
    const ticket = await tickets.getTicket(all[0].id);
    assert.ok(
      Array.isArray(ticket.updates) && ticket.assignedUser,
      'updates and assignedUser come with the default mask',
    );
    const update = await tickets.addUpdate(ticket.id, 'from the manager test');
    assert.ok(
      (await tickets.getUpdates(ticket.id)).some(
        (u) => u.id === update.id && u.entry === 'from the manager test',
      ),
    );
  });

  it('AccountManager: account, IP addresses, hardware, datacenters', async () => {
    const account = new AccountManager(client);
    assert.equal(
      (await account.getAccount('companyName')).companyName,
      emulator.accounts.demo.companyName,
    );
    assert.ok((await account.getIpAddresses()).length > 0);
    const hardware = await account.getHardware();
    assert.ok(hardware.length > 0);
    assert.equal(
      (await account.getHardwareServer(hardware[0].id, 'id,hostname')).hostname,
      hardware[0].hostname,
    );
    assert.ok((await account.getDatacenters()).some((dc) => dc.name === 'lon06'));
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RETRY, type Client } from '../../provider/client';
import { configure } from '../../provider/framework/connection';
import { PROVIDERS } from '../../provider/kinds';
import { dnsRecordProvider as dns } from '../../provider/kinds/dns-record/provider';
import { dnsZoneProvider as zones } from '../../provider/kinds/dns-zone/provider';
import { placementGroupProvider as placementGroups } from '../../provider/kinds/placement-group/provider';
import { securityGroupProvider as securityGroups } from '../../provider/kinds/security-group/provider';
import { sshKeyProvider as keys } from '../../provider/kinds/ssh-key/provider';
import { ticketUpdateProvider as tickets } from '../../provider/kinds/ticket-update/provider';
import { vlanProvider as vlans } from '../../provider/kinds/vlan/provider';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { creationToken } from '../../provider/framework/creation-token';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import {
  VirtualGuestManager,
  tagNames,
  type DnsResourceRecord,
  type Ticket,
  type TicketUpdateRecord,
  type VirtualGuest,
} from '../../provider/managers';
import { freshEd25519 } from '../support/ssh-keys';
import { configureFor, providerEnv, stackConfig, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;
type Failure = Error & { id?: string; properties?: Bag };

const DOMAIN = 'own.example.com';
const urn = (name: string, parent = '') =>
  `organization/urn:pulumi:dev::proj::${parent}pulumi-nodejs:dynamic/svc:VirtualGuest::${name}`;

const declared = (name: string, extra: Bag = {}): Bag => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  provenance: urn(name),
  domain: DOMAIN,
  startCpus: 2,
  maxMemory: 4096,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
  tags: ['own'],
  ...extra,
});

const failureOf = (promise: Promise<unknown>): Promise<Failure> =>
  promise.then(
    () => assert.fail('expected a failure'),
    (err: Failure) => err,
  );

// The ownership protocol of the VirtualGuest, DnsRecord and TicketUpdate providers, driven directly
// against the emulator with its commit-timing faults (stack tests drive the same through the CLI).
describe('ownership protocol: provenance, unknown outcomes, ids kept, owning account', () => {
  let emulator: Emulator;
  let client: Client;
  let guests: VirtualGuestManager;
  const config = { 'svc:timeout': '1', 'svc:outcomeWindow': '4' };

  before(async () => {
    ({ emulator, client } = await providerEnv(300, config));
    guests = new VirtualGuestManager(client);
  });
  after(() => emulator?.close());

  const checked = async (name: string, extra: Bag = {}) => {
    const result = await provider.check({}, declared(name, extra));
    assert.deepEqual(result.failures, []);
    return result.inputs as Bag;
  };
  /** Every guest of the demo account carrying `tag`. */
  const tagged = async (tag: string) =>
    (
      (await client.call('Account', 'getVirtualGuests', {
        mask: 'id,startCpus,tagReferences.tag.name',
      })) as VirtualGuest[]
    ).filter((g) => tagNames(g).includes(tag));
  const orders = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;
  /** A guest ordered with the resource's token and no owned tag: what a killed create leaves. */
  const orderedByKilledCreate = (inputs: Bag, cpus = 2) =>
    guests.createInstance({
      hostname: String(inputs.hostname),
      domain: DOMAIN,
      cpus,
      memory: 4096,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      tags: ['own', String(inputs.creationToken)],
    });

  it('tokens differ across parents and across backends, and are stable across runs', () => {
    const top = creationToken({ provenance: urn('server') }, 'file:///a');
    assert.equal(creationToken({ provenance: urn('server') }, 'file:///a'), top);
    assert.notEqual(creationToken({ provenance: urn('server', 'my:Comp$') }, 'file:///a'), top);
    assert.notEqual(creationToken({ provenance: urn('server') }, 'file:///b'), top);
  });

  it('a guest handed to a state by a completed create is never adopted by another create (--replace)', async () => {
    const inputs = await checked('replaced');
    const first = await provider.create(inputs);
    const before = orders();
    // A replacement's create gets the same inputs, token included.
    const second = await provider.create(inputs);
    assert.notEqual(second.id, first.id);
    assert.equal(orders() - before, 1, 'the replacement ordered its own guest');
    const all = await tagged(String(inputs.creationToken));
    assert.deepEqual(all.map((g) => String(g.id)).sort(), [first.id, second.id].sort());
    for (const g of all) assert.ok(tagNames(g).includes(OWNED_TAG), `guest ${g.id} is owned`);
  });

  it('the guest of an unfinished create of this very resource is adopted, with no new order', async () => {
    const inputs = await checked('killed');
    const leftover = await orderedByKilledCreate(inputs);
    const before = orders();
    const result = await provider.create(inputs);
    assert.equal(result.id, String(leftover.id));
    assert.equal(orders(), before, 'nothing ordered');
    const [guest] = await tagged(String(inputs.creationToken));
    assert.ok(tagNames(guest).includes(OWNED_TAG), 'owned once the create completes');
  });

  it("the checks of a run share one listing of the tokens in use, and still announce an unfinished create's guest", async () => {
    const leftover = await orderedByKilledCreate(await checked('announced'));
    await configureFor(emulator, config); // the next run: a provider process configured afresh
    const listings = () => emulator.stats().calls['Account.getVirtualGuests'] ?? 0;
    const before = listings();
    assert.equal((await checked('announced')).adopts, leftover.id, 'its create will adopt it');
    for (const name of ['n1', 'n2', 'n3', 'n4', 'n5']) {
      assert.equal((await checked(name)).adopts, undefined, `${name} orders a new guest`);
    }
    assert.equal(listings() - before, 2, "one listing of tokens, one of the leftover's details");
  });

  it("a create records its account from the order's answer, with no call to ask for it", async () => {
    await configureFor(emulator, config); // a provider process that has asked nothing yet
    const inputs = await checked('account');
    const asked = () => emulator.stats().calls['Account.getObject'] ?? 0;
    const before = asked();
    const result = await provider.create(inputs);
    assert.equal(result.outs.accountId, emulator.accounts.demo.accountId);
    assert.equal(asked() - before, 0, 'the account id came with the order');
    const [guest] = await tagged(String(inputs.creationToken));
    assert.equal(String(guest.id), result.id);
    assert.ok(tagNames(guest).includes(OWNED_TAG), 'claimed as ever');
  });

  it('an unfinished guest whose ordered fields differ is an error naming both, never an adoption', async () => {
    const inputs = await checked('changed');
    const leftover = await orderedByKilledCreate(inputs, 1);
    const before = orders();
    const failure = await failureOf(provider.create(inputs));
    assert.match(
      failure.message,
      new RegExp(`guest ${leftover.id} .* startCpus 1 \\(declared 2\\)`),
    );
    assert.equal(orders(), before, 'nothing ordered');
    assert.equal(failure.id, undefined, 'no id is claimed for the stack');
    const [guest] = await tagged(String(inputs.creationToken));
    assert.ok(!tagNames(guest).includes(OWNED_TAG), 'the leftover is left as it was');
  });

  it('two unfinished guests with this token: an error naming both, nothing adopted or ordered', async () => {
    const inputs = await checked('twice');
    const a = await orderedByKilledCreate(inputs);
    const b = await orderedByKilledCreate(inputs);
    const before = orders();
    const failure = await failureOf(provider.create(inputs));
    assert.match(failure.message, new RegExp(`guests ${a.id}, ${b.id} all carry`));
    assert.equal(orders(), before);
  });

  it('an order committed after the client timed out is found, not ordered again', async () => {
    const inputs = await checked('slow');
    emulator.setFaults({
      once: { method: 'createObject', fault: 'slow-commit', delayMs: 2500 },
    });
    const result = await provider.create(inputs);
    const all = await tagged(String(inputs.creationToken));
    assert.deepEqual(
      all.map((g) => String(g.id)),
      [result.id],
    );
  });

  it('an order answered with a 5xx after it committed is found, not ordered again', async () => {
    const inputs = await checked('gateway');
    emulator.setFaults({ once: { method: 'createObject', fault: 'error-after-commit' } });
    const result = await provider.create(inputs);
    const all = await tagged(String(inputs.creationToken));
    assert.deepEqual(
      all.map((g) => String(g.id)),
      [result.id],
    );
  });

  it('an order reset before it ran stays unknown: fails after the window without ordering again; the next run looks, then orders once', async () => {
    const inputs = await checked('reset');
    emulator.setFaults({ once: { method: 'createObject', fault: 'drop' } });
    const failure = await failureOf(provider.create(inputs));
    assert.match(failure.message, /the outcome is unknown/);
    assert.match(failure.message, /It was not sent again/);
    assert.match(failure.message, /The next `pulumi up` looks for a guest tagged pulumi-svc-/);
    assert.equal((await tagged(String(inputs.creationToken))).length, 0);
    const result = await provider.create(inputs);
    assert.deepEqual(
      (await tagged(String(inputs.creationToken))).map((g) => String(g.id)),
      [result.id],
    );
  });

  it('a refusal the API gives before doing anything fails at once; the rate limit is waited out', async () => {
    const inputs = await checked('refused');
    emulator.setFaults({
      once: {
        method: 'createObject',
        fault: 'api-fault',
        faultCode: 'Svc_Exception_Public',
        faultString: 'The requested datacenter is full.',
      },
    });
    const started = Date.now();
    const failure = await failureOf(provider.create(inputs));
    assert.match(failure.message, /datacenter is full/);
    assert.ok(Date.now() - started < 4000, 'no lookup window for a definite refusal');
    assert.equal((await tagged(String(inputs.creationToken))).length, 0);
    emulator.setFaults({ once: { method: 'createObject', fault: 'rate-limit' } });
    const result = await provider.create(inputs);
    assert.deepEqual(
      (await tagged(String(inputs.creationToken))).map((g) => String(g.id)),
      [result.id],
    );
  });

  it('an account that stays over its rate limit: the order is sent a bounded number of times, then fails saying so', async () => {
    const inputs = await checked('throttled');
    emulator.setFaults({ once: { method: 'createObject', fault: 'rate-limit', times: 1000 } });
    const refused = () => emulator.stats().faultsInjected['rate-limit'] ?? 0;
    const before = refused();
    const started = Date.now();
    const failure = await failureOf(provider.create(inputs));
    const elapsed = Date.now() - started;
    emulator.setFaults(null);
    // One layer retries the rate limit: the transport, 10 more sends (DEFAULT_RETRY).
    assert.equal(refused() - before, 1 + DEFAULT_RETRY.rateLimitRetries, 'sends of the order');
    assert.ok(elapsed < 180_000, `gave up after ${elapsed} ms`);
    assert.match(failure.message, /over its API rate limit/);
    assert.match(failure.message, /nothing was written/);
    assert.equal((await tagged(String(inputs.creationToken))).length, 0, 'nothing ordered');
  });

  it('a failure after the order was accepted keeps the id; the next update finishes the job', async () => {
    const inputs = await checked('polled');
    // The create's last call: marking the guest owned (its reads ride on the readiness listing).
    emulator.setFaults({
      once: { service: 'Virtual_Guest', method: 'setTags', fault: 'http-500', times: 10 },
    });
    const failure = await failureOf(provider.create(inputs));
    emulator.setFaults(null);
    const [guest] = await tagged(String(inputs.creationToken));
    assert.equal(failure.id, String(guest.id), 'the engine records this id');
    assert.match(failure.message, /the next `pulumi up` carries on with it \(no new order\)/);
    assert.equal(failure.properties?.guestId, guest.id);
    const resumed = await provider.update(failure.id!, failure.properties!, inputs);
    assert.ok((resumed.outs as Bag).provisionDate, 'ready');
    const [after] = await tagged(String(inputs.creationToken));
    assert.ok(tagNames(after).includes(OWNED_TAG), 'owned after the update');
  });

  it('another account cannot refresh, update or delete the guest; "gone" only counts for the owner', async () => {
    const inputs = await checked('owned');
    const { id, outs } = await provider.create(inputs);
    const props = outs as Bag;
    assert.equal(props.accountId, emulator.accounts.demo.accountId);
    const other = emulator.accounts.other;
    await configure({
      config: stackConfig({
        'svc:endpointUrl': emulator.url,
        'svc:username': other.username,
        'svc:apiKey': other.apiKey,
        ...config,
      }),
    });
    try {
      const refresh = await failureOf(provider.read(id, props));
      assert.match(
        refresh.message,
        new RegExp(
          `refusing to refresh .* belongs to account ${props.accountId}, but the configured credentials .* account ${other.accountId}`,
        ),
      );
      await assert.rejects(provider.delete(id, props), /refusing to delete/);
      await assert.rejects(
        provider.update(id, props, { ...inputs, notes: 'x' }),
        /refusing to update/,
      );
    } finally {
      await configure({
        config: stackConfig({
          'svc:endpointUrl': emulator.url,
          'svc:username': emulator.credentials.username,
          'svc:apiKey': emulator.credentials.apiKey,
          ...config,
        }),
      });
    }
    assert.equal((await provider.read(id, props)).id, id, 'still there for its owner');
    await client.call('Virtual_Guest', 'deleteObject', { id: Number(id) });
    assert.deepEqual(await provider.read(id, props), {}, 'gone for the account that owns it');
  });
});

describe('ownership protocol: destroy while provisioning', () => {
  let emulator: Emulator;
  before(async () => ({ emulator } = await providerEnv(4000)));
  after(() => emulator?.close());

  it('delete waits for provisioning to end, whatever readyTimeoutMinutes says', async () => {
    const inputs = (await provider.check({}, declared('short', { readyTimeoutMinutes: 0.01 })))
      .inputs as Bag;
    const failure = await failureOf(provider.create(inputs));
    assert.match(failure.message, /was not ready after 1 s/);
    await provider.delete(failure.id!, failure.properties!);
    assert.equal(emulator.objects(emulator.credentials.username).virtualGuests.length, 0);
  });
});

describe('ownership protocol: DNS records and ticket updates', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => {
    ({ emulator, client } = await providerEnv(300, {
      'svc:timeout': '1',
      'svc:outcomeWindow': '3',
    }));
  });
  after(() => emulator?.close());

  const zoneRecords = async () => {
    const [zone] = (await client.call('Dns_Domain', 'getByDomainName', {
      args: ['example.com'],
      mask: 'id,resourceRecords[id,host,type,data]',
    })) as { id: number; resourceRecords: DnsResourceRecord[] }[];
    return zone;
  };

  it('a record that existed before the write is never taken for the one the write made', async () => {
    const zone = await zoneRecords();
    const record = { host: 'dup', type: 'A', data: '10.9.9.9' };
    const existing = (await client.call('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ ...record, ttl: 900, domainId: zone.id }],
    })) as DnsResourceRecord;
    const inputs = (await dns.check({}, { zoneName: 'example.com', ...record })).inputs as Bag;

    emulator.setFaults({ once: { method: 'createObject', fault: 'drop' } });
    const unknown = await failureOf(dns.create(inputs));
    assert.match(unknown.message, /the outcome is unknown/);
    const same = (r: DnsResourceRecord) => r.host === 'dup' && r.data === '10.9.9.9';
    assert.deepEqual(
      (await zoneRecords()).resourceRecords.filter(same).map((r) => r.id),
      [existing.id],
      'the existing record was not adopted',
    );

    emulator.setFaults({ once: { method: 'createObject', fault: 'lose-response' } });
    const created = await dns.create(inputs);
    assert.notEqual(created.id, String(existing.id));
    assert.deepEqual(
      (await zoneRecords()).resourceRecords
        .filter(same)
        .map((r) => String(r.id))
        .sort(),
      [String(existing.id), created.id].sort(),
    );
    await dns.delete(created.id, created.outs as Bag);
    assert.deepEqual(
      (await zoneRecords()).resourceRecords.filter(same).map((r) => r.id),
      [existing.id],
      'destroy deletes only its own record',
    );
  });

  it('an identical ticket update posted earlier is never taken for the one a lost post made', async () => {
    const [ticket] = (await client.call('Account', 'getTickets', {
      mask: 'id',
      limit: 1,
    })) as Ticket[];
    const entry = 'Deployed build 7';
    const earlier = (await client.call('Ticket', 'addUpdate', {
      id: ticket.id,
      args: [{ entry }],
    })) as TicketUpdateRecord;
    emulator.setFaults({ once: { method: 'addUpdate', fault: 'error-after-commit' } });
    const { id } = await tickets.create({ ticketId: ticket.id, entry });
    const updates = (await client.call('Ticket', 'getUpdates', {
      id: ticket.id,
    })) as TicketUpdateRecord[];
    const same = updates.filter((u) => u.entry === entry);
    assert.equal(same.length, 2, 'one earlier, one posted now');
    assert.notEqual(id, String(earlier.id), 'not the earlier one');
    assert.ok(same.some((u) => String(u.id) === id));
  });
});

describe('ownership protocol: every kind records its account', () => {
  let emulator: Emulator;
  before(async () => ({ emulator } = await providerEnv()));
  after(() => emulator?.close());

  const kinds = [
    {
      kind: 'DnsZone',
      provider: zones,
      inputs: { name: 'owned-zone.test', records: [{ host: 'www', type: 'A', data: '192.0.2.1' }] },
    },
    {
      kind: 'SshKey',
      provider: keys,
      inputs: { label: 'owned-key', publicKey: freshEd25519() },
    },
    {
      kind: 'SecurityGroup',
      provider: securityGroups,
      inputs: { name: 'owned-group', rules: [{ direction: 'egress' }] },
    },
    {
      kind: 'PlacementGroup',
      provider: placementGroups,
      inputs: { name: 'owned-spread', datacenter: 'dal10' },
    },
    {
      kind: 'Vlan',
      provider: vlans,
      inputs: {
        resourceName: 'owned-vlan',
        identity: 'proj/dev/owned-vlan',
        datacenter: 'dal10',
        networkSpace: 'PRIVATE',
        cancelImmediately: true,
      },
    },
    {
      kind: 'BlockVolume',
      provider: PROVIDERS.BlockVolume,
      inputs: {
        resourceName: 'owned-disk',
        identity: 'proj/dev/owned-disk',
        datacenter: 'dal10',
        capacityGb: 20,
        tierIopsPerGb: 2,
        osFormatType: 'LINUX',
        hourlyBillingFlag: true,
      },
    },
  ] as const;

  for (const { kind, provider: kindProvider, inputs: given } of kinds) {
    it(`${kind}: another account cannot refresh, update or delete it, and it does not look gone to it`, async () => {
      const { inputs } = await kindProvider.check({}, given as unknown as Bag);
      const { id, outs } = await kindProvider.create(inputs!);
      const props = outs as Bag;
      assert.equal(props.accountId, emulator.accounts.demo.accountId);
      const other = emulator.accounts.other;
      await configureFor(emulator, { 'svc:username': other.username, 'svc:apiKey': other.apiKey });
      try {
        await assert.rejects(kindProvider.read(id, props), /refusing to refresh/);
        await assert.rejects(kindProvider.update(id, props, props), /refusing to update/);
        await assert.rejects(kindProvider.delete(id, props), /refusing to delete/);
      } finally {
        await configureFor(emulator);
      }
      const read = await kindProvider.read(id, props);
      assert.equal(read.id, id, 'still there for its owner');
      assert.equal(read.props?.accountId, props.accountId);
      await kindProvider.delete(id, props);
      assert.deepEqual(await kindProvider.read(id, props), {}, 'gone for the account that owns it');
    });
  }
});

import * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DNSZoneNotFound } from '../../provider/client';
import {
  getAccount,
  getDatacenters,
  getDnsZone,
  getDnsZoneOutput,
  getHardwareServer,
  getHardwareServerOutput,
  getHardwareServers,
  getIpAddresses,
  getTickets,
  getVirtualGuests,
} from '../../resources';
import { FUNCTIONS } from '../../provider/plugin/functions';
import type { Client } from '../../provider/client';
import { DedicatedHostManager } from '../../provider/managers';
import { answerProblems } from '../support/schema-types';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';

// The data sources run in the program process and read `svc:*` from the stack config.
describe('lookups against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => {
    ({ emulator, client } = await providerEnv());
    setProgramConfig(emulator);
  });
  after(() => emulator?.close());

  it('getDnsZone returns the zone with its records, and DNSZoneNotFound for a missing one', async () => {
    const zone = await getDnsZone({ name: 'EXAMPLE.com' });
    assert.equal(zone.name, 'example.com');
    assert.ok((zone.resourceRecords ?? []).length > 0);
    await assert.rejects(
      getDnsZone({ name: 'missing.example' }),
      (err) => err instanceof DNSZoneNotFound && /missing\.example/.test(err.message),
    );
  });

  it('getDnsZoneOutput takes Inputs and resolves to the same zone', async () => {
    const zone = getDnsZoneOutput({ name: pulumi.output('example.com') });
    const id = await new Promise((resolve) => zone.id.apply(resolve));
    assert.equal(id, (await getDnsZone({ name: 'example.com' })).id);
  });

  it('getAccount, getDatacenters, getIpAddresses, getVirtualGuests and getTickets read the account', async () => {
    assert.equal((await getAccount()).companyName, emulator.accounts.demo.companyName);
    assert.ok((await getDatacenters()).some((dc) => dc.name === 'dal10'));
    const ips = await getIpAddresses();
    assert.ok(ips.length > 0 && ips.every((ip) => typeof ip.ipAddress === 'string'));
    const limited = await getVirtualGuests({ limit: 1, mask: 'id,hostname' });
    assert.ok(limited.length <= 1);
    const tickets = await getTickets();
    assert.ok(tickets.length > 0);
    const created = tickets.map((t) => Date.parse(t.createDate!)).sort((a, b) => a - b);
    const first = new Date(created[0]);
    const inRange = await getTickets({
      createdBetween: {
        start: new Date(first.getTime() - 1000),
        end: new Date(first.getTime() + 1000),
      },
    });
    assert.deepEqual(
      inRange.map((t) => Date.parse(t.createDate!)),
      [created[0]],
    );
  });
  it("getHardwareServer(s) read the account's hardware, by id, by name or by filter", async () => {
    const all = await getHardwareServers();
    const seeded = emulator.objects(emulator.credentials.username).hardware ?? [];
    assert.deepEqual(
      all.map((h) => h.id).sort((x, y) => x - y),
      seeded.map((h) => Number(h.id)).sort((x, y) => x - y),
    );
    const [first] = all;
    assert.ok(first.hostname && first.domain && first.datacenter?.name);
    const byName = await getHardwareServer({ hostname: first.hostname, domain: first.domain });
    assert.equal(byName.id, first.id);
    const byId = await new Promise((resolve) =>
      getHardwareServerOutput({ id: pulumi.output(String(first.id)) }).apply(resolve),
    );
    assert.equal((byId as { hostname: string }).hostname, first.hostname);
    const inDc = await getHardwareServers({
      filter: { hardware: { datacenter: { name: { operation: first.datacenter!.name } } } },
    });
    assert.ok(inDc.length > 0 && inDc.every((h) => h.datacenter?.name === first.datacenter!.name));
    await assert.rejects(
      getHardwareServer({ hostname: 'nope', domain: 'example.com' }),
      /getHardwareServer: the account has no hardware server nope\.example\.com/,
    );
    await assert.rejects(
      getHardwareServer({ id: 'x1', domain: 'example.com' } as never),
      /give either id, or hostname and domain/,
    );
  });

  it('a filter by property path, the type every SDK writes, keeps what the same object filter keeps, in the program and the plugin', async () => {
    const ids = (list: { id: number }[]) => list.map((h) => h.id).sort((x, y) => x - y);
    const all = await getHardwareServers();
    const dc = all[0].datacenter!.name;
    const byPath = await getHardwareServers({ filter: { 'datacenter.name': { operation: dc } } });
    const byObject = await getHardwareServers({
      filter: { hardware: { datacenter: { name: { operation: dc } } } },
    });
    assert.ok(byPath.length > 0);
    assert.deepEqual(ids(byPath), ids(byObject));
    const elsewhere = { filter: { 'datacenter.name': { operation: 'nowhere99' } } };
    assert.deepEqual(await getHardwareServers(elsewhere), []);
    const answer = (await FUNCTIONS.getHardwareServers.answer(client, {
      filter: { 'datacenter.name': { operation: dc } },
    })) as { items: { id: number }[] };
    assert.deepEqual(ids(answer.items), ids(byPath));
    const none = (await FUNCTIONS.getVirtualGuests.answer(client, elsewhere)) as { items: [] };
    assert.deepEqual(none.items, []);
  });

  it("the plugin's functions answer the typed objects their schema declares, on the account's objects", async () => {
    const [server] = await getHardwareServers();
    // The seeded account has no security group and no placement group: one of each made over
    // XML-RPC, for getSecurityGroups and getPlacementGroups.
    await client.call('Network_SecurityGroup', 'createObject', {
      args: [{ name: 'lookup-sg', description: 'listed by getSecurityGroups' }],
    });
    const [router] = (await client.call('Virtual_PlacementGroup', 'getAvailableRouters', {
      mask: 'id',
    })) as { id: number }[];
    const [rule] = (await client.call('Virtual_PlacementGroup_Rule', 'getAllObjects', {
      mask: 'id',
    })) as { id: number }[];
    await client.call('Virtual_PlacementGroup', 'createObject', {
      args: [{ name: 'lookup-pg', backendRouterId: router.id, ruleId: rule.id }],
    });
    // ... nor a dedicated host: one ordered, for getDedicatedHosts.
    const hosts = new DedicatedHostManager(client);
    const [size] = await hosts.sizes();
    await hosts.place(
      await hosts.orderContainer({
        name: 'lookup-host',
        domain: 'example.com',
        datacenter: 'dal10',
        size: size.keyName,
        hourly: true,
        creationToken: 'lookup-host',
      }),
    );
    const args: Record<string, Record<string, unknown>> = {
      getDnsZone: { name: 'example.com' },
      getHardwareServer: { id: server.id },
      getBareMetalServer: { id: server.id },
      getTickets: { createdBetween: { start: '2000-01-01', end: '2100-01-01' } },
    };
    const answered = Object.keys(FUNCTIONS).filter((name) => name !== 'getVirtualGuest');
    for (const name of answered) {
      const answer = (await FUNCTIONS[name].answer(client, args[name] ?? {})) as Record<
        string,
        unknown
      >;
      assert.deepEqual(answerProblems(name, answer), [], name);
      const items = answer.items as unknown[] | undefined;
      if (items) assert.ok(name === 'getVirtualGuests' || items.length > 0, `${name} lists some`);
    }
    // A mask chooses the properties of an untyped answer: the typed function refuses it, by name.
    await assert.rejects(
      FUNCTIONS.getAccount.answer(client, { mask: 'id' }),
      /getAccount: mask is taken by the TypeScript program's lookup only/,
    );
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { createGuest, freshAccount, guestTemplate, useEmulator } from '../support/emulator-harness';

const h = useEmulator();

type Row = Record<string, any>;
const PG = 'Virtual_PlacementGroup';

/** The backend router of `datacenter` that takes placement groups. */
async function routerOf(client: EmulatorClient, datacenter: string): Promise<Row> {
  const routers = await client.call<Row[]>(PG, 'getAvailableRouters', {
    mask: 'id,hostname,topLevelLocation[id,name]',
  });
  const router = routers.find((r) => r.topLevelLocation.name === datacenter);
  assert.ok(router, `a router in ${datacenter}`);
  return router;
}

const newGroup = async (client: EmulatorClient, datacenter = 'dal10', name = 'spread1') =>
  client.call<Row>(PG, 'createObject', {
    args: [{ name, backendRouterId: (await routerOf(client, datacenter)).id, ruleId: 1 }],
  });

const createRaw = (client: EmulatorClient, overrides: Row) =>
  client.callRaw('Virtual_Guest', 'createObject', { args: [guestTemplate(overrides)] });

describe('Virtual_PlacementGroup', () => {
  it('offers its routers and its SPREAD rule; creates, lists and renames a group', async () => {
    const client = await freshAccount(h.emu);
    const dal10 = await routerOf(client, 'dal10');
    const filtered = await client.call<Row[]>(PG, 'getAvailableRouters', {
      args: [dal10.topLevelLocation.id],
      mask: 'id',
    });
    assert.deepEqual(filtered, [{ id: dal10.id }]);
    assert.deepEqual(await client.call('Virtual_PlacementGroup_Rule', 'getAllObjects'), [
      { id: 1, keyName: 'SPREAD', name: 'SPREAD' },
    ]);
    const group = await newGroup(client);
    assert.equal(group.backendRouterId, dal10.id);
    assert.equal(group.ruleId, 1);
    await client.call(PG, 'editObject', { id: group.id, args: [{ name: 'renamed' }] });
    const listed = await client.call<Row[]>('Account', 'getPlacementGroups', {
      mask: 'id,name,guestCount,rule[keyName],backendRouter[id,hostname]',
    });
    assert.deepEqual(listed, [
      {
        id: group.id,
        name: 'renamed',
        guestCount: 0,
        rule: { keyName: 'SPREAD' },
        backendRouter: { id: dal10.id, hostname: dal10.hostname },
      },
    ]);
  });

  it('names what is wrong with a template', async () => {
    const client = await freshAccount(h.emu);
    const router = (await routerOf(client, 'dal10')).id;
    const cases: [Row, RegExp][] = [
      [{ backendRouterId: router, ruleId: 1 }, /Property 'name' must be set/],
      [{ name: 'a', ruleId: 1 }, /Property 'backendRouterId' must be set/],
      [{ name: 'a', backendRouterId: 7, ruleId: 1 }, /backendRouterId: 7 is not a backend router/],
      [{ name: 'a', backendRouterId: router, ruleId: 9 }, /ruleId: 9 is not a placement rule/],
      [{ name: 'not a name', backendRouterId: router, ruleId: 1 }, /'name'/],
      [{ name: 'a', backendRouterId: router, ruleId: 1, guestCount: 3 }, /'guestCount'/],
    ];
    for (const [template, message] of cases) {
      const res = await client.callRaw(PG, 'createObject', { args: [template] });
      assert.match(res.fault?.faultString ?? 'no fault', message, JSON.stringify(template));
    }
    assert.deepEqual(await client.call('Account', 'getPlacementGroups'), []);
  });

  it('takes guests of its pod up to 5; refuses another pod and a full group; deletes only empty', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    const elsewhere = await createRaw(client, {
      placementGroupId: group.id,
      datacenter: { name: 'ams03' },
    });
    assert.match(
      elsewhere.fault?.faultString ?? 'no fault',
      /placementGroupId: placement group \d+ is behind backend router bcr01a\.dal10.*ordered in ams03/,
    );
    const four = await client.call<Row[]>('Virtual_Guest', 'createObjects', {
      args: [
        Array.from({ length: 4 }, (_, i) =>
          guestTemplate({ hostname: `s${i}`, placementGroupId: group.id }),
        ),
      ],
    });
    const tooMany = await client.callRaw('Virtual_Guest', 'createObjects', {
      args: [[1, 2].map((i) => guestTemplate({ hostname: `t${i}`, placementGroupId: group.id }))],
    });
    assert.match(tooMany.fault?.faultString ?? 'no fault', /is full: it holds 4 of at most 5/);
    const fifth = await createGuest(client, { hostname: 's4', placementGroupId: group.id });
    const full = await createRaw(client, { hostname: 's5', placementGroupId: group.id });
    assert.match(full.fault?.faultString ?? 'no fault', /is full/);

    const read = await client.call<Row>(PG, 'getObject', {
      id: group.id,
      mask: 'guestCount,guests[id,placementGroupId]',
    });
    assert.equal(read.guestCount, 5);
    assert.deepEqual(
      read.guests.map((g: Row) => g.id),
      [...four.map((g) => g.id), fifth.id],
    );
    const busy = await client.callRaw(PG, 'deleteObject', { id: group.id });
    assert.match(busy.fault?.faultString ?? 'no fault', /still holds guest\(s\).*must be empty/);
    for (const g of [...four, fifth])
      await client.call('Virtual_Guest', 'deleteObject', { id: g.id });
    assert.equal(await client.call(PG, 'deleteObject', { id: group.id }), true);
    assert.deepEqual(await client.call('Account', 'getPlacementGroups'), []);
  });

  it("another account's group is not found, and no guest of it can join", async () => {
    const owner = await freshAccount(h.emu);
    const stranger = await freshAccount(h.emu);
    const group = await newGroup(owner);
    for (const method of ['getObject', 'deleteObject', 'getGuests']) {
      const res = await stranger.callRaw(PG, method, { id: group.id });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_ObjectNotFound', method);
    }
    const join = await createRaw(stranger, { placementGroupId: group.id });
    assert.match(join.fault?.faultString ?? 'no fault', /does not exist on this account/);
    const read = await owner.call<Row>(PG, 'getObject', { id: group.id, mask: 'guestCount' });
    assert.equal(read.guestCount, 0);
  });
});

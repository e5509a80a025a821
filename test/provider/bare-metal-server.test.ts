import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../provider/client';
import { KINDS, PROVIDERS } from '../../provider/kinds';
import { tagNames, type BareMetalServer } from '../../provider/managers';
import { claimScope, inScope, release, releaseUnanswered } from '../../provider/framework/claims';
import { OWNED_TAG } from '../../provider/framework/creation-token';
import { Operation } from '../../provider/framework/operation';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { printed } from '../support/printed';

type Bag = Record<string, unknown>;
const server = PROVIDERS.BareMetalServer;
const HOURLY = 'S1270_32GB_1X1TBSATA_NORAID';
const MONTHLY_ONLY = 'S1270_8GB_2X1TBSATA_NORAID';
/** Each of the four provisioning stages takes this long: a create waits about 1.2 s. */
const STAGE_MS = 300;

const declared = (name: string, extra: Bag = {}): Bag => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  provenance: `test/${name}-${Math.random()}`,
  hostname: name,
  domain: 'example.com',
  preset: HOURLY,
  operatingSystemReferenceCode: 'UBUNTU_22_64',
  datacenter: 'dal10',
  ...extra,
});

describe('BareMetalServer provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(STAGE_MS)));
  beforeEach(() => {
    emulator.settings.hardwareStageMs = STAGE_MS;
    emulator.settings.failHardwareAt = undefined;
  });
  after(() => emulator?.close());

  const servers = async () =>
    (await client.call('Account', 'getHardware', {
      mask: 'id,hostname,notes,operatingSystemReferenceCode,billingItem[id,hourlyFlag,cancellationDate],tagReferences.tag.name',
    })) as BareMetalServer[];
  const orders = () => emulator.stats().calls['Product_Order.placeOrder'] ?? 0;
  const checked = async (olds: Bag, news: Bag) => {
    const result = await server.check(olds, news);
    assert.deepEqual(result.failures, []);
    return result.inputs!;
  };

  it('check names the field, the value and what the package allows; nothing is ordered', async () => {
    const placed = orders();
    const failed = async (extra: Bag) =>
      (await server.check({}, declared('bad', extra))).failures?.map((f) => [
        f.property,
        f.reason,
      ]) ?? [];
    const [[field, reason]] = await failed({ preset: 'NO_SUCH_PRESET' });
    assert.equal(field, 'preset');
    assert.match(reason, /NO_SUCH_PRESET.*one of S1270_32GB_1X1TBSATA_NORAID, /);
    assert.deepEqual((await failed({ preset: MONTHLY_ONLY }))[0], [
      'hourlyBilling',
      `hourlyBilling: preset ${MONTHLY_ONLY} is billed monthly only: set hourlyBilling: false, or take a preset billed by the hour (S1270_32GB_1X1TBSATA_NORAID, D2620V4_64GB_2X1TBSATA_RAID_1)`,
    ]);
    const [os] = await failed({ operatingSystemReferenceCode: 'BEOS_5' });
    assert.equal(os[0], 'operatingSystemReferenceCode');
    assert.match(os[1], /"BEOS_5" is not an operating system .* one of UBUNTU_LATEST, /);
    assert.deepEqual(
      (await failed({ networkSpeed: 10 }))[0][1],
      'networkSpeed 10 is not a port speed the bare-metal package sells: one of 100, 1000 (Mbps)',
    );
    assert.match((await failed({ datacenter: 'xyz99' }))[0][1], /xyz99.*one of .*dal10/);
    // A VLAN of the wrong space: the account's private VLAN given as the public one.
    const vlans = (await client.call('Account', 'getPrivateNetworkVlans', {
      mask: 'id,datacenter.name',
    })) as { id: number; datacenter: { name: string } }[];
    const privateVlan = vlans.find((v) => v.datacenter.name === 'dal10');
    if (privateVlan) {
      const [vlan] = await failed({ publicVlanId: privateVlan.id });
      assert.equal(vlan[0], 'publicVlanId');
      assert.match(vlan[1], /is a private VLAN in dal10: it must be one of the account's public/);
    }
    const [key] = await failed({ sshKeyIds: [999999] });
    assert.deepEqual(key[0], 'sshKeyIds');
    assert.match(key[1], /verifyOrder.*SSH key 999999 does not exist/);
    assert.equal(orders(), placed, 'no order placed for any invalid input');
  });

  it('orders once (a lost answer found by its token), edits and reloads in place, imports, cancels an hourly server at once', async () => {
    const check = await printed(async () => server.check({}, declared('bm1', { tags: ['Web'] })));
    assert.match(
      check.lines,
      /BILLING create BareMetalServer "bm1" orders a new bare metal server: S1270_32GB_1X1TBSATA_NORAID, UBUNTU_22_64, 1000 Mbps in dal10; hourly, \$\d+\.\d{4}\/hour \(\$\d+\.\d{2}\/month\)/,
    );
    const inputs = check.result.inputs!;
    assert.ok((inputs.estimatedHourlyCost as number) > 0, 'priced by verifyOrder');
    const placed = orders();
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    const { id, outs } = await server.create(inputs);
    assert.equal(orders() - placed, 1, 'one order');
    const mine = (await servers()).filter((s) => s.hostname === 'bm1');
    assert.deepEqual(
      mine.map((s) => String(s.id)),
      [id],
      'one server',
    );
    assert.deepEqual(outs!.tags, ['web']);
    assert.ok(outs!.provisionDate, 'waited until provisioned');
    assert.equal(outs!.status, 'ready');
    assert.deepEqual(outputProblems('BareMetalServer', outs!), []);

    // Imported from its id alone: the inputs as a program declares them (defaults left out).
    const imported = await server.read(id, {});
    assert.deepEqual(imported.inputs, {
      hostname: 'bm1',
      domain: 'example.com',
      preset: HOURLY,
      operatingSystemReferenceCode: 'UBUNTU_22_64',
      datacenter: 'dal10',
      tags: ['web'],
      publicVlanId: (imported.props as Bag).publicVlanId,
      privateVlanId: (imported.props as Bag).privateVlanId,
    });
    assert.deepEqual(
      [(imported.props as Bag).networkSpeed, (imported.props as Bag).hourlyBilling],
      [1000, true],
    );

    // Names, notes and tags change in place; the token tag stays.
    const edited = await checked(outs!, {
      ...declared('bm1'),
      provenance: inputs.provenance,
      hostname: 'bm1b',
      notes: 'db',
      tags: ['web', 'db'],
    });
    const editDiff = await server.diff(id, outs!, edited);
    assert.deepEqual(editDiff.replaces, []);
    const afterEdit = await server.update(id, outs!, edited);
    const [now] = (await servers()).filter((s) => String(s.id) === id);
    assert.equal(now.hostname, 'bm1b');
    assert.equal(now.notes, 'db');
    assert.ok(
      now.tagReferences?.some((t) => t.tag?.name === inputs.creationToken),
      'token kept',
    );
    assert.deepEqual(afterEdit.outs!.tags, ['db', 'web']);

    // Another OS with onImageChange: reload: the same server, reloaded once.
    const reloadInputs = await checked(afterEdit.outs!, {
      ...declared('bm1'),
      provenance: inputs.provenance,
      hostname: 'bm1b',
      notes: 'db',
      tags: ['web', 'db'],
      operatingSystemReferenceCode: 'UBUNTU_24_64',
      onImageChange: 'reload',
    });
    const reloadDiff = await printed(async () => server.diff(id, afterEdit.outs!, reloadInputs));
    assert.deepEqual(reloadDiff.result.replaces, []);
    assert.match(
      reloadDiff.lines,
      /is reloaded in place \(changed: operatingSystemReferenceCode\)/,
    );
    const reloads = () => emulator.stats().calls['Hardware_Server.reloadOperatingSystem'] ?? 0;
    const sent = reloads();
    const reloaded = await server.update(id, afterEdit.outs!, reloadInputs);
    assert.equal(reloads() - sent, 1);
    assert.equal(reloaded.outs!.operatingSystemReferenceCode, 'UBUNTU_24_64');
    assert.notEqual(reloaded.outs!.osReloadId, null);
    // The same update again (a run whose state missed the answer): nothing sent.
    await server.update(id, afterEdit.outs!, reloadInputs);
    assert.equal(reloads() - sent, 1, 'never sent twice');

    // Another preset replaces it, priced.
    const bigger = await checked(reloaded.outs!, {
      ...declared('bm1'),
      provenance: inputs.provenance,
      hostname: 'bm1b',
      preset: 'D2620V4_64GB_2X1TBSATA_RAID_1',
      operatingSystemReferenceCode: 'UBUNTU_24_64',
    });
    const replace = await printed(async () => server.diff(id, reloaded.outs!, bigger));
    assert.deepEqual(replace.result.replaces, ['preset']);
    assert.match(
      replace.lines,
      /BILLING replace BareMetalServer "bm1" \(id \d+\) \(changed: preset\): orders a new bare metal server \(D2620V4_64GB_2X1TBSATA_RAID_1, .*\) at hourly, \$.*, cancels the old one at hourly, \$.* \(its hourly billing stops at the cancel\)/,
    );

    const deleted = await printed(async () => server.delete(id, reloaded.outs!));
    assert.match(deleted.lines, /cancelled at once: its hourly billing stops now/);
    assert.ok(!(await servers()).some((s) => String(s.id) === id), 'hourly: gone at once');
  });

  it('sets a lower port speed in place, waited for, same bill; a speed lowered outside is drift; more than its ports or redundancy replaces, priced', async () => {
    const uplinks = async (id: string) => {
      const s = (await client.call('Hardware_Server', 'getObject', {
        id: Number(id),
        mask: 'primaryNetworkComponent.speed,primaryBackendNetworkComponent.speed',
      })) as BareMetalServer;
      return [s.primaryNetworkComponent?.speed, s.primaryBackendNetworkComponent?.speed];
    };
    const sets = () =>
      (emulator.stats().calls['Hardware_Server.setPublicNetworkInterfaceSpeed'] ?? 0) +
      (emulator.stats().calls['Hardware_Server.setPrivateNetworkInterfaceSpeed'] ?? 0);
    const inputs = await checked({}, declared('port'));
    const { id, outs } = await server.create(inputs);
    assert.deepEqual(
      [outs!.networkSpeed, outs!.maxNetworkSpeed, outs!.redundantNetwork],
      [1000, 1000, false],
    );

    // 100 Mbps on 1000 Mbps ports: in place, the bill that of the ports it has.
    const slower = await checked(outs!, {
      ...declared('port'),
      provenance: inputs.provenance,
      networkSpeed: 100,
    });
    assert.equal(slower.estimatedHourlyCost, inputs.estimatedHourlyCost, 'the same bill');
    const plan = await printed(async () => server.diff(id, outs!, slower));
    assert.deepEqual(plan.result.replaces, []);
    assert.match(
      plan.lines,
      /runs its uplinks at 100 Mbps, set in place \(its ports are 1000 Mbps\): same server and bill/,
    );
    const before = sets();
    const updated = await server.update(id, outs!, slower);
    assert.deepEqual(
      await uplinks(id),
      [100, 100],
      'both uplinks, in force when the update answers',
    );
    assert.equal(sets() - before, 2, 'one change per uplink');
    assert.deepEqual([updated.outs!.networkSpeed, updated.outs!.maxNetworkSpeed], [100, 1000]);

    // The private uplink lowered outside Pulumi: refresh shows it; the next update puts it back.
    await client.call('Hardware_Server', 'setPrivateNetworkInterfaceSpeed', {
      id: Number(id),
      args: [10],
    });
    let drifted = await server.read(id, updated.outs!);
    for (let i = 0; i < 40 && (drifted.props as Bag).networkSpeed !== 10; i += 1) {
      await sleep(100);
      drifted = await server.read(id, updated.outs!);
    }
    assert.equal((drifted.props as Bag).networkSpeed, 10, 'the slower uplink is drift');
    assert.deepEqual((await server.diff(id, drifted.props as Bag, slower)).replaces, []);
    await server.update(id, drifted.props as Bag, slower);
    assert.deepEqual(await uplinks(id), [100, 100]);

    // A change still pending (made outside a moment ago) makes the API refuse another as busy:
    // the update waits it out, then sets what is left.
    emulator.settings.hardwareStageMs = 1_000;
    await client.call('Hardware_Server', 'setPublicNetworkInterfaceSpeed', {
      id: Number(id),
      args: [10],
    });
    const ten = await checked(updated.outs!, {
      ...declared('port'),
      provenance: inputs.provenance,
      networkSpeed: 10,
    });
    await server.update(id, updated.outs!, ten);
    assert.deepEqual(await uplinks(id), [10, 10]);
    emulator.settings.hardwareStageMs = STAGE_MS;

    // More than its ports, or redundant uplinks: a new server, priced in the preview.
    const faster = { ...updated.outs!, maxNetworkSpeed: 100 };
    const replace = await printed(async () =>
      server.diff(id, faster, { ...slower, networkSpeed: 1000 }),
    );
    assert.deepEqual(replace.result.replaces, ['networkSpeed']);
    const redundant = await checked(updated.outs!, {
      ...declared('port'),
      provenance: inputs.provenance,
      redundantNetwork: true,
    });
    assert.ok(
      (redundant.estimatedHourlyCost as number) > (inputs.estimatedHourlyCost as number),
      'redundant uplinks cost more',
    );
    const both = await printed(async () => server.diff(id, updated.outs!, redundant));
    assert.deepEqual(both.result.replaces, ['redundantNetwork']);
    assert.match(
      both.lines,
      /BILLING replace BareMetalServer "port" \(id \d+\) \(changed: redundantNetwork\): orders a new bare metal server \(S1270_32GB_1X1TBSATA_NORAID, UBUNTU_22_64, 1000 Mbps redundant in dal10\) at hourly, \$/,
    );
    await server.delete(id, updated.outs!);

    // Ordered redundant: its uplinks say so, and a speed change keeps them redundant.
    const made = await server.create(
      await checked({}, declared('red', { redundantNetwork: true })),
    );
    assert.equal(made.outs!.redundantNetwork, true);
    const red = await checked(made.outs!, {
      ...declared('red', { redundantNetwork: true }),
      provenance: made.outs!.provenance,
      networkSpeed: 100,
    });
    await server.update(made.id, made.outs!, red);
    const flags = (await client.call('Hardware_Server', 'getObject', {
      id: Number(made.id),
      mask: 'primaryNetworkComponent[speed,redundancyEnabledFlag]',
    })) as { primaryNetworkComponent: { speed: number; redundancyEnabledFlag: boolean } };
    assert.deepEqual(flags.primaryNetworkComponent, { speed: 100, redundancyEnabledFlag: true });
    await server.delete(made.id, made.outs!);
  });

  it('a speed faster than its ports replaces it: the new server is ordered beside the one the state holds, which is then cancelled', async () => {
    const slow = declared('faster', { networkSpeed: 100 });
    const old = await server.create(await checked({}, slow));
    assert.deepEqual([old.outs!.networkSpeed, old.outs!.maxNetworkSpeed], [100, 100]);
    const token = old.outs!.creationToken as string;
    const carrying = async () =>
      (await servers())
        .filter((s) => tagNames(s).includes(token) && !s.billingItem?.cancellationDate)
        .map((s) => [s.id, tagNames(s).includes(OWNED_TAG)]);

    // The engine diffs the resource it holds, then checks the new half afresh (no olds) and
    // creates it before it deletes the old one: the same creation token on both.
    const fast = { ...slow, networkSpeed: 1000 };
    assert.deepEqual((await server.diff(old.id, old.outs!, fast)).replaces, ['networkSpeed']);
    const replacement = await checked({}, fast);
    assert.equal(replacement.creationToken, token, 'one resource, one token');
    assert.equal(replacement.adopts, undefined, 'the server it replaces is not taken over');
    const placed = orders();
    const made = await server.create(replacement);
    assert.notEqual(made.id, old.id, 'a new server, not the one the state holds');
    assert.equal(orders() - placed, 1, 'one order');
    assert.deepEqual([made.outs!.networkSpeed, made.outs!.maxNetworkSpeed], [1000, 1000]);
    assert.deepEqual(await carrying(), [
      [Number(old.id), true],
      [Number(made.id), true],
    ]);

    await server.delete(old.id, old.outs!);
    assert.deepEqual(await carrying(), [[Number(made.id), true]], 'only the new server is left');
    await server.delete(made.id, made.outs!);
  });

  it('what a killed run ordered on slower ports than the resource now declares is refused, naming networkSpeed; nothing is ordered', async () => {
    const slow = declared('killed-slow', { networkSpeed: 100 });
    const scope = claimScope();
    const first = await inScope(scope, async () => server.create(await checked({}, slow)));
    release(scope);
    await releaseUnanswered();
    const placed = orders();
    const fast = await checked({}, { ...slow, networkSpeed: 1000 });
    await assert.rejects(
      server.create(fast),
      new RegExp(
        `server ${first.id} was ordered by an earlier unfinished create of this resource .* networkSpeed 100 \\(declared 1000\\)\\. It is not taken over and nothing is ordered`,
      ),
    );
    assert.equal(orders(), placed, 'nothing ordered');
    await server.delete(first.id, first.outs!);
  });

  it('a monthly server is cancelled at its anniversary, with what it still owes; cancelImmediately ends it at once', async () => {
    const inputs = await checked(
      {},
      declared('mon', { preset: MONTHLY_ONLY, hourlyBilling: false }),
    );
    assert.ok((inputs.estimatedMonthlyCost as number) > 0);
    const { id, outs } = await server.create(inputs);
    const deleted = await printed(async () => server.delete(id, outs!));
    assert.match(
      deleted.lines,
      /cancelled at its billing anniversary \(monthly, billed to its anniversary \d{4}-\d{2}-\d{2}: \$\d+\.\d{2} still owed after the cancel\)/,
    );
    const [cancelled] = (await servers()).filter((s) => String(s.id) === id);
    assert.ok(
      cancelled.billingItem?.cancellationDate,
      'cancelled at its anniversary, still listed',
    );
    assert.deepEqual(await server.read(id, outs!), {}, 'cancelled: it leaves the stack');

    const now = await checked(
      {},
      declared('mon2', { preset: MONTHLY_ONLY, hourlyBilling: false, cancelImmediately: true }),
    );
    const second = await server.create(now);
    await server.delete(second.id, second.outs!);
    assert.ok(!(await servers()).some((s) => String(s.id) === second.id), 'gone at once');
  });

  it('a create past its deadline keeps the id; the next create takes over the server still provisioning, no second order', async () => {
    emulator.settings.hardwareStageMs = 2_000;
    const inputs = await checked({}, declared('slow'));
    const placed = orders();
    const op = new Operation('create of slow', { timeoutSeconds: 2 });
    const scope = claimScope();
    const err = await inScope(scope, () => op.run(() => server.create(inputs, op))).then(
      () => assert.fail('an 8 s provisioning ended within a 2 s deadline'),
      (e: Error & { id?: string }) => e,
    );
    assert.match(err.message, /not ready after \d+ s .*no new order/);
    assert.ok(err.id, 'the error carries the id');
    const marked = async () =>
      tagNames((await servers()).find((s) => String(s.id) === err.id)!).includes(OWNED_TAG);
    assert.ok(await marked(), 'the id went to the engine: handed to its state');
    // A killed CLI never recorded it: its provider takes the mark back (its engine is gone), and
    // the next create finds the server by its token.
    release(scope);
    await releaseUnanswered();
    assert.ok(!(await marked()), 'the mark is taken back');
    const again = await server.create(inputs);
    assert.equal(again.id, err.id);
    assert.equal(orders() - placed, 1, 'one order');
    await server.delete(again.id, again.outs!);
  });

  it('a create cancelled while it provisions answers at once with the server kept (cancel.create)', async () => {
    emulator.settings.hardwareStageMs = 2_000;
    const inputs = await checked({}, declared('ctrlc'));
    const op = new Operation('create of ctrlc');
    const running = op.run(() => server.create(inputs, op));
    while (op.touched.size === 0) await sleep(50);
    const [ordered] = op.touched;
    const answer = async (touched: Set<number>) =>
      KINDS.BareMetalServer.cancel!.create!(
        inputs as never,
        Date.now() - 3_000,
      )({ touched, writes: 1 })!().then(
        () => assert.fail('a cancelled create answers an error'),
        (e: Error & { id?: string }) => e,
      );
    const early = await answer(op.touched);
    assert.match(
      early.message,
      /cancelled after 3 s while server \d+ was provisioning; it is kept/,
    );
    assert.equal(early.id, String(ordered), 'the id the order made');
    // Its order's id unknown (a lost answer): the one live server carrying its token.
    assert.equal((await answer(new Set())).id, String(ordered));
    const made = await running;
    await server.delete(made.id, made.outs!);
  });

  it('a failed provisioning says so and keeps the id', async () => {
    emulator.settings.failHardwareAt = 'HARDWARE_TESTING';
    const inputs = await checked({}, declared('broken'));
    const err = await server.create(inputs).then(
      () => assert.fail('provisioning was to fail'),
      (e: Error & { id?: string }) => e,
    );
    assert.match(err.message, /its provisioning failed .*pulumi destroy` cancels it/);
    assert.ok(err.id);
    await server.delete(err.id!, { ...inputs, billingItemId: undefined } as Bag);
    assert.ok(!(await servers()).some((s) => String(s.id) === err.id));
  });
});

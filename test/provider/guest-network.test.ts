import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '../../provider/client';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import {
  checkedGuest,
  declaredGuest,
  flavoredGuest,
  providerEnv,
  type Emulator,
} from '../support/provider-env';
import {
  bindOutside,
  guestBindings,
  guestVlans,
  newDedicatedHost,
  newPlacementGroup,
  newSecurityGroup,
  placementMembers,
  vlansIn,
} from '../support/guest-network';
import { guestTemplate } from '../support/emulator-harness';

type Bag = Record<string, unknown>;

/** The fields a diff says change. */
const changedFields = (diff: object) =>
  ((diff as { fields?: { name: string }[] }).fields ?? []).map((f) => f.name);

/** The emulator's bindings take effect this long after an order's provisioning or a request. */
const DELAY = 300;

describe("VirtualGuest's network inputs against the emulator", () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(DELAY)));
  after(() => emulator?.close());

  const newGroup = (name: string, as: Client = client) => newSecurityGroup(as, name);
  const bindings = (id: string) => guestBindings(client, id);
  const failuresOf = async (inputs: Bag, olds: Bag = {}) =>
    Object.fromEntries(
      ((await provider.check(olds, inputs)).failures ?? []).map((f) => [f.property, f.reason]),
    );
  const writes = () => {
    const calls = emulator.stats().calls;
    return ['Virtual_Guest.createObject', 'Product_Order.placeOrder'].map((m) => calls[m] ?? 0);
  };

  /** A guest of the base image with these cores ordered straight onto the host, taking its room. */
  const fillHost = (host: number, startCpus: number) =>
    client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname: 'dh-filler', startCpus, dedicatedHost: { id: host } })],
    });

  it('check names the field of a group on no interface, of another account or missing, before any order', async () => {
    const { username, apiKey } = emulator.accounts.other;
    const other = new Client({ username, apiKey, endpointUrl: emulator.url });
    const theirs = await newGroup('theirs', other);
    const mine = await newGroup('mine');
    const before = writes();
    const privateOnly = await failuresOf(
      declaredGuest('sg-bad', 'example.com', {
        privateNetworkOnly: true,
        securityGroupIds: [mine],
      }),
    );
    assert.match(privateOnly.securityGroupIds, /privateNetworkOnly does not have/);
    const foreign = await failuresOf(
      declaredGuest('sg-bad', 'example.com', {
        securityGroupIds: [mine],
        privateSecurityGroupIds: [theirs, 999_999],
      }),
    );
    assert.deepEqual(Object.keys(foreign), ['privateSecurityGroupIds']);
    assert.match(
      foreign.privateSecurityGroupIds,
      new RegExp(`no security group ${theirs} on this account`),
    );
    const tooMany = await failuresOf(
      declaredGuest('sg-bad', 'example.com', { securityGroupIds: [1, 2, 3, 4, 5, 6] }),
    );
    assert.match(tooMany.securityGroupIds, /at most 5/);
    assert.deepEqual(writes(), before, 'nothing ordered');
  });

  it('orders the guest with its groups, imports them, changes them in place, repairs drift, detaches before the cancel', async () => {
    const [web, ssh, db] = [await newGroup('web'), await newGroup('ssh'), await newGroup('db')];
    const declared = declaredGuest('sg-guest', 'example.com', {
      securityGroupIds: [web, ssh],
      privateSecurityGroupIds: [db],
    });
    const inputs = await checkedGuest(declared);
    const { id, outs } = await provider.create(inputs);
    assert.deepEqual(await bindings(id), {
      public: [web, ssh].sort((a, b) => a - b),
      private: [db],
    });
    assert.deepEqual(
      outs!.securityGroupIds,
      [web, ssh].sort((a, b) => a - b),
    );

    // An import reads them back: the program that declares them shows no change.
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.deepEqual(
      imported.securityGroupIds,
      [web, ssh].sort((a, b) => a - b),
    );
    assert.deepEqual(imported.privateSecurityGroupIds, [db]);
    assert.equal((await provider.diff(id, outs!, inputs)).changes, false);

    // A change is made in place: ssh detached, db bound to the public interface too.
    const changed = await checkedGuest({ ...declared, securityGroupIds: [web, db] });
    const diff = await provider.diff(id, outs!, changed);
    assert.deepEqual(diff.replaces, []);
    assert.deepEqual(changedFields(diff), ['securityGroupIds']);
    emulator.setFaults({
      once: [
        // The attach is applied, its answer lost; the detach is applied and answered 502.
        {
          service: 'Network_SecurityGroup',
          method: 'attachNetworkComponents',
          fault: 'lose-response',
        },
        {
          service: 'Network_SecurityGroup',
          method: 'detachNetworkComponents',
          fault: 'error-after-commit',
        },
      ],
    });
    const injected = () => emulator.stats().faultsInjected;
    const faultsBefore = { ...injected() };
    const updated = await provider.update(id, outs!, changed);
    for (const kind of ['lose-response', 'error-after-commit'])
      assert.equal(injected()[kind], (faultsBefore[kind] ?? 0) + 1, `${kind} was injected`);
    assert.deepEqual(await bindings(id), {
      public: [web, db].sort((a, b) => a - b),
      private: [db],
    });
    assert.deepEqual(
      (updated.outs as Bag).securityGroupIds,
      [web, db].sort((a, b) => a - b),
    );

    // Bound outside Pulumi: refresh sees it, up takes it away again.
    await bindOutside(client, id, 'primaryBackendNetworkComponent', ssh, DELAY + 100);
    const refreshed = (await provider.read(id, updated.outs as Bag)).props as Bag;
    assert.deepEqual(
      refreshed.privateSecurityGroupIds,
      [ssh, db].sort((a, b) => a - b),
    );
    const drift = await provider.diff(id, refreshed, changed);
    assert.deepEqual(changedFields(drift), ['privateSecurityGroupIds']);
    const repaired = await provider.update(id, refreshed, changed);
    assert.deepEqual((await bindings(id)).private, [db]);

    // The delete detaches its groups first: each group can then be deleted.
    await provider.delete(id, repaired.outs as Bag);
    for (const group of [web, ssh, db])
      await client.call('Network_SecurityGroup', 'deleteObject', { id: group });
  });

  it('check refuses a placement group of another pod, full or missing, naming the field, before any order', async () => {
    const dal12 = await newPlacementGroup(client, 'pg-dal12', 'dal12');
    const full = await newPlacementGroup(client, 'pg-full', 'dal10');
    for (let i = 0; i < 5; i++)
      await client.call('Virtual_Guest', 'createObject', {
        args: [guestTemplate({ hostname: `member${i}`, placementGroupId: full })],
      });
    const before = writes();
    const pod = await failuresOf(
      declaredGuest('pg-bad', 'example.com', { placementGroupId: dal12 }),
    );
    assert.match(
      pod.placementGroupId,
      /placement group \d+ \("pg-dal12"\) is behind backend router bcr01a\.dal12 in dal12, another pod than dal10/,
    );
    const fallback = await failuresOf(
      declaredGuest('pg-bad', 'example.com', {
        datacenter: undefined,
        datacenters: ['dal12', 'dal10'],
        placementGroupId: dal12,
      }),
    );
    assert.match(fallback.placementGroupId, /another pod than dal10/);
    const crowded = await failuresOf(
      declaredGuest('pg-bad', 'example.com', { placementGroupId: full }),
    );
    assert.match(
      crowded.placementGroupId,
      /is full: its SPREAD rule holds at most 5 guests and it has 5/,
    );
    const missing = await failuresOf(
      declaredGuest('pg-bad', 'example.com', { placementGroupId: '424242' }),
    );
    assert.match(missing.placementGroupId, /no placement group 424242 on this account/);
    assert.deepEqual(writes(), before, 'nothing ordered');
  });

  it('orders the guest into its placement group, imports it, and a new group replaces the guest', async () => {
    const spread = await newPlacementGroup(client, 'pg-web', 'dal10');
    const declared = declaredGuest('pg-guest', 'example.com', { placementGroupId: String(spread) });
    const inputs = await checkedGuest(declared);
    assert.equal(
      inputs.placementGroupId,
      spread,
      'an id given as its digits is stored as a number',
    );
    const { id, outs } = await provider.create(inputs);
    assert.deepEqual(await placementMembers(client, spread), [Number(id)]);
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.equal(imported.placementGroupId, spread);
    assert.equal((await provider.diff(id, outs!, inputs)).changes, false);
    // A guest with no group reads back none: its program, which names none, shows no change.
    const plain = (await provider.read(id, { ...outs, placementGroupId: undefined })).props as Bag;
    assert.equal(plain.placementGroupId, spread, 'refresh sees the group the guest is in');

    const other = await newPlacementGroup(client, 'pg-other', 'dal10');
    const moved = await checkedGuest({ ...declared, placementGroupId: other });
    const diff = await provider.diff(id, outs!, moved);
    assert.deepEqual(diff.replaces, ['placementGroupId']);
    // The group full with this guest in it: an update that keeps the group is not refused.
    for (let i = 0; i < 4; i++)
      await client.call('Virtual_Guest', 'createObject', {
        args: [guestTemplate({ hostname: `peer${i}`, placementGroupId: spread })],
      });
    assert.equal((await placementMembers(client, spread)).length, 5);
    const kept = await provider.check(outs!, { ...declared, notes: 'kept' });
    assert.deepEqual(kept.failures, []);
    await provider.delete(id, outs!);
  });

  it('check refuses a VLAN of another datacenter or space, a subnet off its VLAN, a public VLAN on a private-only guest, before any order', async () => {
    const dal10 = await vlansIn(client, 'dal10', 'vlans-dal10');
    const dal12 = await vlansIn(client, 'dal12', 'vlans-dal12');
    const before = writes();
    const far = await failuresOf(
      declaredGuest('vlan-bad', 'example.com', { privateVlanId: dal12.private.id }),
    );
    assert.match(
      far.privateVlanId,
      new RegExp(
        `privateVlanId: VLAN ${dal12.private.id} is in dal12, the guest is ordered in dal10`,
      ),
    );
    const mixed = await failuresOf(
      declaredGuest('vlan-bad', 'example.com', {
        publicVlanId: dal10.private.id,
        privateVlanId: dal10.private.id,
        privateSubnetId: dal10.public.subnetId,
      }),
    );
    assert.match(mixed.publicVlanId, /is a PRIVATE VLAN \(give it as privateVlanId\)/);
    assert.match(mixed.privateSubnetId, /is not on VLAN/);
    const rules = await failuresOf(
      declaredGuest('vlan-bad', 'example.com', {
        privateNetworkOnly: true,
        publicVlanId: dal10.public.id,
        privateSubnetId: dal10.private.subnetId,
      }),
    );
    assert.match(rules.publicVlanId, /conflicts with privateNetworkOnly/);
    assert.match(rules.privateSubnetId, /privateSubnetId needs privateVlanId/);
    const missing = await failuresOf(
      declaredGuest('vlan-bad', 'example.com', { publicVlanId: 77 }),
    );
    assert.match(missing.publicVlanId, /there is no VLAN 77 on this account/);
    assert.deepEqual(writes(), before, 'nothing ordered but the guests that show the VLANs');
  });

  it('orders the guest on its VLANs and subnet, reads them back, and another VLAN replaces the guest', async () => {
    const dal10 = await vlansIn(client, 'dal10', 'vlans-dal10b');
    const declared = declaredGuest('vlan-guest', 'example.com', {
      publicVlanId: dal10.public.id,
      publicSubnetId: dal10.public.subnetId,
      privateVlanId: String(dal10.private.id),
    });
    const inputs = await checkedGuest(declared);
    const { id, outs } = await provider.create(inputs);
    assert.deepEqual(await guestVlans(client, id), dal10);
    // Refresh reads them back; an import leaves out what the API chose (no change either way).
    const refreshed = (await provider.read(id, outs!)).props as Bag;
    assert.deepEqual(
      [refreshed.publicVlanId, refreshed.publicSubnetId, refreshed.privateVlanId],
      [dal10.public.id, dal10.public.subnetId, dal10.private.id],
    );
    assert.equal((await provider.diff(id, refreshed, inputs)).changes, false);
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.equal(imported.publicVlanId, undefined);
    // Left out, the VLAN the API chose is no drift.
    const { publicVlanId: _v, publicSubnetId: _s, privateVlanId: _p, ...plain } = declared;
    assert.equal((await provider.diff(id, outs!, await checkedGuest(plain))).changes, false);
    // (The emulator has one private VLAN a datacenter: the diff alone, of another VLAN id.)
    const moved = { ...inputs, privateVlanId: dal10.private.id + 64 };
    assert.deepEqual((await provider.diff(id, outs!, moved)).replaces, ['privateVlanId']);
    await provider.delete(id, outs!);
  });

  it('check refuses a dedicated host missing, elsewhere or without room (naming what is free), and with the flag, before any order', async () => {
    const host = await newDedicatedHost(client, 'dh-check', 'dal10');
    const failuresWith = (extra: Bag) => failuresOf(declaredGuest('dh-bad', 'example.com', extra));
    const before = writes();
    const missing = await failuresWith({ dedicatedHostId: 424242 });
    assert.match(missing.dedicatedHostId, /there is no dedicated host 424242 on this account/);
    const far = await failuresWith({ dedicatedHostId: host, datacenter: 'dal12' });
    assert.match(
      far.dedicatedHostId,
      new RegExp(
        `dedicated host ${host} \\("dh-check"\\) is in dal10, the guest is ordered in dal12`,
      ),
    );
    const big = await failuresWith({ dedicatedHostId: host, startCpus: 56, maxMemory: 1024 });
    assert.match(
      big.dedicatedHostId,
      /has 48 cores, 192 GB of memory and 1000 GB of disk free; the guest needs 56 cores \(startCpus 56/,
    );
    const both = await failuresWith({ dedicatedHostId: host, dedicatedAccountHostOnlyFlag: true });
    assert.match(both.dedicatedAccountHostOnlyFlag, /conflicts with dedicatedHostId/);
    assert.deepEqual(writes(), before, 'nothing ordered');
  });

  it('orders the guest onto its dedicated host, priced by the quote, imports it, and another host replaces it', async () => {
    const host = await newDedicatedHost(client, 'dh-guest', 'dal10');
    const declared = declaredGuest('dh-guest', 'example.com', {
      dedicatedHostId: String(host),
      startCpus: 4,
      maxMemory: 8192,
    });
    const inputs = await checkedGuest(declared);
    assert.equal(inputs.dedicatedHostId, host, 'an id given as its digits is stored as a number');
    const { id, outs } = await provider.create(inputs);
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'dedicatedHost.id,billingItem.hourlyRecurringFee',
    })) as { dedicatedHost: { id: number }; billingItem: { hourlyRecurringFee: string } };
    assert.equal(guest.dedicatedHost.id, host);
    assert.equal(inputs.estimatedHourlyCost, Number(guest.billingItem.hourlyRecurringFee));
    const free = (await client.call('Virtual_DedicatedHost', 'getObject', {
      id: host,
      mask: 'allocationStatus[cpuAvailable,memoryAvailable]',
    })) as { allocationStatus: { cpuAvailable: number; memoryAvailable: number } };
    assert.deepEqual(
      [free.allocationStatus.cpuAvailable, free.allocationStatus.memoryAvailable],
      [44, 184],
    );
    // An adopted guest names its host, not the flag the API shows with it: no change either way.
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.deepEqual(
      [imported.dedicatedHostId, imported.dedicatedAccountHostOnlyFlag],
      [host, undefined],
    );
    const refreshed = (await provider.read(id, outs!)).props as Bag;
    assert.equal((await provider.diff(id, refreshed, inputs)).changes, false);
    // The guest on the host is not counted twice: an update keeps it with no room left.
    const kept = await provider.check(outs!, { ...declared, notes: 'kept' });
    assert.deepEqual(kept.failures, []);
    // Grown on its host, the guest needs room for what it adds (the upgrade is refused too).
    await fillHost(host, 32);
    const grown = await failuresOf({ ...declared, startCpus: 32 }, outs!);
    assert.match(
      grown.dedicatedHostId,
      /has 12 cores, \d+ GB of memory and \d+ GB of disk free; the guest needs 28 more cores/,
    );
    assert.deepEqual(await failuresOf({ ...declared, startCpus: 16 }, outs!), {});
    const other = await newDedicatedHost(client, 'dh-other', 'dal10');
    const moved = await checkedGuest({ ...declared, dedicatedHostId: other });
    assert.deepEqual((await provider.diff(id, outs!, moved)).replaces, ['dedicatedHostId']);
    const flagged = await checkedGuest({
      ...declared,
      dedicatedHostId: undefined,
      dedicatedAccountHostOnlyFlag: true,
    });
    assert.ok(
      (await provider.diff(id, outs!, flagged)).replaces?.includes('dedicatedAccountHostOnlyFlag'),
    );
    await provider.delete(id, outs!);
  });

  it("check refuses a flavor guest onto a dedicated host without room for the flavor's size, naming what is free, before any order", async () => {
    const host = await newDedicatedHost(client, 'dh-flavor', 'dal10');
    await fillHost(host, 48);
    const before = writes();
    const refused = await failuresOf(
      flavoredGuest('dh-flavor', 'example.com', 'B1_2X8X25', { dedicatedHostId: host }),
    );
    assert.match(
      refused.dedicatedHostId,
      new RegExp(
        `dedicated host ${host} \\("dh-flavor"\\) has 0 cores, \\d+ GB of memory and \\d+ GB of disk free; the guest needs 2 cores \\(flavorKeyName B1_2X8X25\\)`,
      ),
    );
    assert.deepEqual(writes(), before, 'nothing ordered');
  });

  it('check refuses a flavor upgrade the dedicated host has no room for, counting the flavor the guest has there', async () => {
    const host = await newDedicatedHost(client, 'dh-flavor-up', 'dal10');
    const declared = flavoredGuest('dh-flavor-up', 'example.com', 'B1_2X8X25', {
      dedicatedHostId: host,
    });
    const { id, outs } = await provider.create(await checkedGuest(declared));
    await fillHost(host, 32);
    await fillHost(host, 12);
    // 2 cores are left: 8 cores need 6 more than the guest's 2, and 4 cores only the 2 free.
    const grown = await failuresOf({ ...declared, flavorKeyName: 'B1_8X16X25' }, outs!);
    assert.match(
      grown.dedicatedHostId,
      /has 2 cores, \d+ GB of memory and \d+ GB of disk free; the guest needs 6 more cores \(flavorKeyName B1_8X16X25\)/,
    );
    assert.deepEqual(await failuresOf({ ...declared, flavorKeyName: 'B1_4X8X25' }, outs!), {});
    await provider.delete(id, outs!);
  });

  /** Polls `read` until `done` (the emulator's transactions take DELAY ms or so). */
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('never done');
  };

  /** Waits until the template's capture is done. */
  const captureDone = (id: number) =>
    until(
      async () =>
        (await client.call('Virtual_Guest_Block_Device_Template_Group', 'getObject', {
          id,
          mask: 'status.keyName',
        })) as { status: { keyName: string } },
      (t) => t.status.keyName === 'ACTIVE',
    );

  /** A private template captured over XML-RPC from a guest in dal10 (available there only). */
  async function capturedTemplate(name: string) {
    const source = (await client.call('Virtual_Guest', 'createObject', {
      args: [
        guestTemplate({ hostname: `${name}-source`, operatingSystemReferenceCode: 'DEBIAN_12_64' }),
      ],
      mask: 'id',
    })) as { id: number };
    const guest = await until(
      async () =>
        (await client.call('Virtual_Guest', 'getObject', {
          id: source.id,
          mask: 'activeTransaction.id,blockDevices[id,device]',
        })) as { activeTransaction?: unknown; blockDevices: { id: number; device: string }[] },
      (g) => !g.activeTransaction,
    );
    const boot = guest.blockDevices.find((d) => d.device === '0')!;
    await client.call('Virtual_Guest', 'createArchiveTransaction', {
      id: source.id,
      args: [name, [{ id: boot.id }], 'captured for a guest'],
    });
    const [template] = (await client.call('Account', 'getPrivateBlockDeviceTemplateGroups', {
      mask: 'id,globalIdentifier,status.keyName',
      filter: { privateBlockDeviceTemplateGroups: { name: { operation: name } } },
    })) as { id: number; globalIdentifier: string; status: { keyName: string } }[];
    return template;
  }

  it('check refuses an image template with an OS code, missing, still captured or elsewhere, before any order', async () => {
    const template = await capturedTemplate('img-check');
    const gid = template.globalIdentifier;
    const before = writes();
    const both = await failuresOf(
      declaredGuest('img-bad', 'example.com', { imageTemplateId: gid }),
    );
    assert.match(
      both.imageTemplateId,
      /give operatingSystemReferenceCode or imageTemplateId, not both/,
    );
    const fromImage = (extra: Bag) =>
      declaredGuest('img-bad', 'example.com', {
        operatingSystemReferenceCode: undefined,
        imageTemplateId: gid,
        ...extra,
      });
    const neither = await failuresOf(fromImage({ imageTemplateId: undefined }));
    assert.match(neither.operatingSystemReferenceCode, /or imageTemplateId .* is required/);
    const early = await failuresOf(fromImage({}));
    assert.match(early.imageTemplateId, /is not ready \(CREATING\)/);
    await captureDone(template.id);
    const away = await failuresOf(fromImage({ datacenter: 'dal12' }));
    assert.match(away.imageTemplateId, /is not available in dal12 \(it is in dal10\)/);
    const missing = await failuresOf(fromImage({ imageTemplateId: 'no-such-template' }));
    assert.match(missing.imageTemplateId, /there is no image template no-such-template/);
    assert.deepEqual(writes(), before, 'nothing ordered');
    assert.deepEqual(await failuresOf(fromImage({})), {});
  });

  it('orders a guest from an image template, priced as its order; an import names the template, not the OS', async () => {
    const template = await capturedTemplate('img-make');
    await captureDone(template.id);
    const declared = declaredGuest('img-guest', 'example.com', {
      operatingSystemReferenceCode: undefined,
      imageTemplateId: template.globalIdentifier,
    });
    const inputs = await checkedGuest(declared);
    const { id, outs } = await provider.create(inputs);
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'blockDeviceTemplateGroup.globalIdentifier,billingItem.hourlyRecurringFee',
    })) as {
      blockDeviceTemplateGroup: { globalIdentifier: string };
      billingItem: { hourlyRecurringFee: string };
    };
    assert.equal(guest.blockDeviceTemplateGroup.globalIdentifier, template.globalIdentifier);
    assert.equal(
      outs!.operatingSystemReferenceCode,
      'DEBIAN_12_64',
      "an output: the template's OS",
    );
    assert.equal(
      inputs.estimatedHourlyCost,
      Number(guest.billingItem.hourlyRecurringFee),
      'priced as billed',
    );
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.equal(imported.imageTemplateId, template.globalIdentifier);
    assert.equal(imported.operatingSystemReferenceCode, undefined, 'the OS is not an input');
    assert.equal((await provider.diff(id, outs!, inputs)).changes, false);
    const refreshed = (await provider.read(id, outs!)).props as Bag;
    assert.equal((await provider.diff(id, refreshed, inputs)).changes, false);
    const other = { ...inputs, imageTemplateId: 'another-template' };
    assert.deepEqual((await provider.diff(id, outs!, other)).replaces, ['imageTemplateId']);
    await provider.delete(id, outs!);
  });
});

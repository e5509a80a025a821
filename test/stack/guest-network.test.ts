import assert from 'node:assert/strict';
import { cliFixture, previewBilling, writeCalls, type CliFixture, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlProgram } from './plugin-project';
import {
  bindOutside,
  guestBindings,
  guestVlans,
  newPlacementGroup,
  newSecurityGroup,
  placementMembers,
  vlansIn,
} from '../support/guest-network';

/**
 * A guest's network inputs through the Pulumi CLI, both doors: its security groups (bound in the
 * order, changed in place, drift repaired, released before the cancel), its placement group and
 * its VLANs.
 * The groups are the account's, made over XML-RPC; what is asserted is what the emulator shows of
 * the guest.
 */

scenarioPerDoor("A guest's network inputs through the Pulumi CLI", scenario);

scenarioPerDoor(
  'One stack orders a VLAN, a dedicated host and a guest on both: priced in preview, placed on them, a new host replaces the guest, destroyed in order',
  placedScenario,
);

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const f = await door.owner({}, { emulator });
  try {
    const client = f.client;
    const [web, ssh, db] = [
      await newSecurityGroup(client, `web-${door.name}`),
      await newSecurityGroup(client, `ssh-${door.name}`),
      await newSecurityGroup(client, `db-${door.name}`),
    ];
    const placementGroupId = await newPlacementGroup(client, `spread-${door.name}`, 'dal10');
    const vlans = await vlansIn(client, 'dal10', `vlans-${door.name}`);
    const network = {
      placementGroupId,
      publicVlanId: vlans.public.id,
      publicSubnetId: vlans.public.subnetId,
      privateVlanId: vlans.private.id,
    };
    const ordered = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;

    // A group that is not the account's, a placement group of another pod, a VLAN of another
    // datacenter: the preview fails naming each field, and nothing is ordered.
    const elsewhere = await newPlacementGroup(client, `far-${door.name}`, 'dal12');
    const far = await vlansIn(client, 'dal12', `far-${door.name}`);
    const before = ordered();
    await door.setOwner(f, {
      guest: {
        privateSecurityGroupIds: [db, 987_654],
        placementGroupId: elsewhere,
        privateVlanId: far.private.id,
      },
    });
    await assert.rejects(f.stack.preview(), (err: Error) => {
      assert.match(err.message, /privateSecurityGroupIds: there is no security group 987654/);
      assert.match(err.message, /placementGroupId: placement group \d+ \("far-\w+"\) is behind/);
      assert.match(
        err.message,
        /privateVlanId: VLAN \d+ is in dal12, the guest is ordered in dal10/,
      );
      return true;
    });
    assert.equal(ordered(), before);

    await door.setOwner(f, {
      guest: { ...network, securityGroupIds: [web, ssh], privateSecurityGroupIds: [db] },
    });
    await f.stack.up();
    const [id] = await f.stateIds('VirtualGuest');
    assert.deepEqual(await guestBindings(client, id), {
      public: [web, ssh].sort((a, b) => a - b),
      private: [db],
    });
    assert.deepEqual(await placementMembers(client, placementGroupId), [Number(id)]);
    assert.deepEqual(await guestVlans(client, id), vlans);

    // A change in place: the same guest, ssh detached from the public interface.
    await door.setOwner(f, {
      guest: { ...network, securityGroupIds: [web], privateSecurityGroupIds: [db] },
    });
    await f.stack.up();
    assert.deepEqual(await f.stateIds('VirtualGuest'), [id]);
    assert.deepEqual(await guestBindings(client, id), { public: [web], private: [db] });

    // Bound outside Pulumi: refresh sees it, up detaches it, and then nothing is left to do.
    await bindOutside(client, id, 'primaryNetworkComponent', ssh, 500);
    await f.stack.refresh();
    await f.stack.up();
    assert.deepEqual(await guestBindings(client, id), { public: [web], private: [db] });
    await f.stack.preview(['--expect-no-changes']);

    // The destroy releases the groups: each can be deleted right after.
    await f.stack.destroy();
    for (const group of [web, ssh, db])
      await client.call('Network_SecurityGroup', 'deleteObject', { id: group });
  } finally {
    await f.close();
  }
}

type Args = Record<string, unknown>;

const VLAN = { datacenter: 'dal10', networkSpace: 'PRIVATE', cancelImmediately: true };
const HOST = { domain: 'example.com', datacenter: 'dal10', size: '48_CORES_X_192_RAM_X_1_TB' };
const GUEST = {
  domain: 'example.com',
  datacenter: 'dal10',
  startCpus: 2,
  maxMemory: 4096,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
};

/**
 * The stack of a door: the `network` program (TypeScript, its config) or the same resources in
 * YAML on the plugin, the guest on the VLAN's and the host's ids (outputs of the same `up`).
 */
function placedProgram(door: FrontDoor) {
  if (door.name !== 'plugin')
    return {
      fixture: (emulator: Emulator) => cliFixture({ program: 'network', emulator }),
      write: (f: CliFixture, vlan: Args, host: Args, guest: Args) =>
        f.stack.setConfig({
          'network:vlan': { value: JSON.stringify(vlan) },
          'network:host': { value: JSON.stringify(host) },
          'network:guest': { value: JSON.stringify(guest) },
        }),
    };
  const resources = (vlan: Args, host: Args, guest: Args) => ({
    db: { type: 'svc:index:Vlan', properties: vlan },
    host: { type: 'svc:index:DedicatedHost', properties: host },
    guest: {
      type: 'svc:index:VirtualGuest',
      properties: { ...guest, privateVlanId: '${db.vlanId}', dedicatedHostId: '${host.hostId}' },
    },
  });
  const program = yamlProgram('network', resources(VLAN, HOST, GUEST));
  return {
    fixture: program.fixture,
    write: async (_f: CliFixture, vlan: Args, host: Args, guest: Args) =>
      program.writeResources(resources(vlan, host, guest)),
  };
}

async function placedScenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program = placedProgram(door);
  const f = await program.fixture(emulator);
  const vlan = { ...VLAN, name: `db-${door.name}` };
  const host = { ...HOST, name: `dh-${door.name}` };
  const guest = { ...GUEST, hostname: `placed-${door.name}` };
  const writes = () => writeCalls(emulator);
  const orders = () => writeCalls(emulator, 'Product_Order.placeOrder');
  const guests = () => writeCalls(emulator, 'Virtual_Guest.createObject');
  const [ordersBefore, guestsBefore] = [orders(), guests()];
  try {
    await program.write(f, vlan, host, guest);

    // Preview: the VLAN, the host and the guest (its VLAN and host known only after apply) are
    // each priced, and nothing is written.
    const before = writes();
    const preview = await previewBilling(f);
    assert.deepEqual(preview.changes.map((c) => `${c.op} ${c.kind}`).sort(), [
      'create DedicatedHost',
      'create VirtualGuest',
      'create Vlan',
    ]);
    assert.match(
      preview.messages,
      /BILLING create VirtualGuest "guest" orders a new guest: 2 CPU, 4096 MB, UBUNTU_LATEST in dal10/,
    );
    assert.equal(writes(), before, 'a preview writes nothing');

    await f.stack.up();
    const [vlanId] = await f.stateIds('Vlan');
    const [hostId] = await f.stateIds('DedicatedHost');
    const [guestId] = await f.stateIds('VirtualGuest');
    const placed = (await f.client.call('Virtual_Guest', 'getObject', {
      id: Number(guestId),
      mask: 'dedicatedHost.id,primaryBackendNetworkComponent.networkVlan.id',
    })) as {
      dedicatedHost: { id: number };
      primaryBackendNetworkComponent: { networkVlan: { id: number } };
    };
    assert.equal(String(placed.primaryBackendNetworkComponent.networkVlan.id), vlanId);
    assert.equal(String(placed.dedicatedHost.id), hostId);
    assert.equal(orders() - ordersBefore, 2, 'the VLAN and the host, each once');
    assert.equal(guests() - guestsBefore, 1, 'one guest');
    const settled = writes();
    await f.stack.preview(['--expect-no-changes']);
    assert.equal(writes(), settled, 'no change, no write');

    // A host of another size is a new host: the preview shows the guest replaced for it.
    await program.write(f, vlan, { ...host, size: '56_CORES_X_242_RAM_X_1_4_TB' }, guest);
    const moved = await previewBilling(f);
    const replaced = moved.changes.find((c) => c.kind === 'VirtualGuest');
    assert.equal(replaced?.op, 'replace');
    assert.ok(replaced?.reasons.includes('dedicatedHostId'), JSON.stringify(replaced));
    assert.equal(writes(), settled, 'a preview writes nothing');
    await program.write(f, vlan, host, guest);

    // The destroy deletes the guest before its VLAN and host: each is then cancelled.
    await f.stack.destroy();
    assert.deepEqual(
      [
        await f.stateIds('Vlan'),
        await f.stateIds('DedicatedHost'),
        await f.stateIds('VirtualGuest'),
      ],
      [[], [], []],
    );
    const hosts = (await f.client.call('Account', 'getDedicatedHosts', { mask: 'id' })) as {
      id: number;
    }[];
    assert.ok(!hosts.some((h) => String(h.id) === hostId), 'the host is cancelled');
  } finally {
    await f.close();
  }
}

import assert from 'node:assert/strict';
import type { Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
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

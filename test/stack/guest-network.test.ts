import assert from 'node:assert/strict';
import type { Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { bindOutside, guestBindings, newSecurityGroup } from '../support/guest-network';

/**
 * A guest's network inputs through the Pulumi CLI, both doors: its security groups (bound in the
 * order, changed in place, drift repaired, released before the cancel). The groups are the
 * account's, made over XML-RPC; what is asserted is what the emulator shows of the guest.
 */

scenarioPerDoor("A guest's security groups through the Pulumi CLI", scenario);

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const f = await door.owner({}, { emulator });
  try {
    const client = f.client;
    const [web, ssh, db] = [
      await newSecurityGroup(client, `web-${door.name}`),
      await newSecurityGroup(client, `ssh-${door.name}`),
      await newSecurityGroup(client, `db-${door.name}`),
    ];
    const ordered = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;

    // A group that is not the account's: the preview fails naming the field, nothing is ordered.
    const before = ordered();
    await door.setOwner(f, { guest: { privateSecurityGroupIds: [db, 987_654] } });
    await assert.rejects(f.stack.preview(), (err: Error) => {
      assert.match(err.message, /privateSecurityGroupIds: there is no security group 987654/);
      return true;
    });
    assert.equal(ordered(), before);

    await door.setOwner(f, {
      guest: { securityGroupIds: [web, ssh], privateSecurityGroupIds: [db] },
    });
    await f.stack.up();
    const [id] = await f.stateIds('VirtualGuest');
    assert.deepEqual(await guestBindings(client, id), {
      public: [web, ssh].sort((a, b) => a - b),
      private: [db],
    });

    // A change in place: the same guest, ssh detached from the public interface.
    await door.setOwner(f, { guest: { securityGroupIds: [web], privateSecurityGroupIds: [db] } });
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

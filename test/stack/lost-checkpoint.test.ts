import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeCalls } from './cli';
import { frontDoors, ownerFixtures } from './front-door';
import { checkpointLost, emptyCheckpoint, restoreFromHistory } from './lost-checkpoint';

// README, "A lost checkpoint": the file backend's checkpoint emptied after an `up` (as a CLI
// killed while writing it left it), the stack's last completed update imported from the
// backend's history, and the next `up` finds everything it made: nothing ordered twice.
for (const door of frontDoors()) {
  describe(`a lost checkpoint on the ${door.name} door`, () => {
    const fixture = ownerFixtures(door);

    it('is restored from the backend history, and the next up orders nothing', async () => {
      const f = await fixture({ guests: ['server', 'worker'] });
      await f.stack.up();
      const guests = (await f.stateIds('VirtualGuest')).sort();
      assert.equal(guests.length, 2);
      emptyCheckpoint(f.stack, 'owner');
      assert.ok(await checkpointLost(f.stack), 'the emptied checkpoint cannot be read');
      const orders = () =>
        writeCalls(f.emulator, 'placeOrder') + writeCalls(f.emulator, 'createObject');
      const before = orders();
      assert.ok(await restoreFromHistory(f.stack, 'owner'), 'a checkpoint of the history');
      await f.stack.up();
      assert.deepEqual((await f.stateIds('VirtualGuest')).sort(), guests);
      assert.equal(orders(), before, 'nothing ordered');
      assert.deepEqual(
        (await f.guests()).map((g) => String(g.id)).sort(),
        guests,
        'the account holds the same two guests, no other',
      );
    });
  });
}

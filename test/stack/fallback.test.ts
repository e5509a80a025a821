import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VirtualGuest } from '../../provider/managers';
import type { CliFixture } from './cli';
import { frontDoors, ownerFixtures } from './front-door';

const CHOICES = ['dal10', 'dal12', 'wdc07'];
const MASK = 'id,datacenter.name,activeTransaction.transactionStatus.name';

/** The guests of the owner program's domain in the emulator, with where each is. */
async function ownerGuests(f: CliFixture) {
  const all = (await f.client.call('Account', 'getVirtualGuests', {
    mask: MASK,
  })) as VirtualGuest[];
  return all
    .filter((g) => g.activeTransaction?.transactionStatus?.name !== 'RECLAIM_WAIT')
    .map((g) => ({ id: String(g.id), datacenter: g.datacenter?.name }));
}

const orders = (f: CliFixture) => f.emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;

// Through the Pulumi CLI on both front doors: `datacenters` orders one guest in the first
// datacenter with room, and the state says where it is; a guest cancelled outside the stack
// leaves the state on `refresh` while the API reclaims it.
for (const door of frontDoors()) {
  describe(`datacenters and a guest cancelled outside the stack (${door.name})`, () => {
    const fixture = ownerFixtures(door);

    it('a full first datacenter: one guest, in the second, where the state says; a new list holding it changes nothing', async () => {
      const f = await fixture({ guest: { datacenters: CHOICES } });
      f.emulator.settings.datacenterCapacity = { dal10: 0 };
      await f.stack.preview();
      assert.match(
        f.output(),
        /BILLING create VirtualGuest "server" .* in dal10, else dal12, wdc07;/,
      );
      await f.stack.up();
      const [id] = await f.stateIds('VirtualGuest');
      assert.deepEqual(await ownerGuests(f), [{ id, datacenter: 'dal12' }]);
      const server = (await f.stack.resources()).find((r) => r.id === id);
      assert.equal(server?.outputs?.datacenter, 'dal12', 'the state says where it is');

      const before = orders(f);
      await door.setOwner(f, { guest: { datacenters: ['dal12', 'wdc07'] } });
      await f.stack.up();
      assert.deepEqual(await f.stateIds('VirtualGuest'), [id], 'not replaced');
      assert.equal(orders(f), before, 'nothing ordered');
      await f.stack.preview(['--expect-no-changes']);
    });

    it('every datacenter full: up fails naming each, and nothing is ordered or recorded', async () => {
      const f = await fixture({ guest: { datacenters: CHOICES } });
      f.emulator.settings.datacenterCapacity = { dal10: 0, dal12: 0, wdc07: 0 };
      await assert.rejects(f.stack.up(), /dal10 \(.*InsufficientCapacity.*dal12 \(.*wdc07 \(/s);
      assert.deepEqual(await ownerGuests(f), []);
      assert.deepEqual(await f.stateIds('VirtualGuest'), []);
    });

    it('refresh drops a guest cancelled outside the stack while it reclaims; up orders a new one', async () => {
      const f = await fixture();
      f.emulator.settings.reclaimDelayMs = 10 * 60_000;
      await f.stack.up();
      const [oldId] = await f.stateIds('VirtualGuest');
      await f.client.call('Virtual_Guest', 'deleteObject', { id: Number(oldId) });
      await f.stack.refresh();
      assert.deepEqual(await f.stateIds('VirtualGuest'), [], 'the state dropped it');
      const before = orders(f);
      await f.stack.up();
      const [newId] = await f.stateIds('VirtualGuest');
      assert.notEqual(newId, oldId, 'the reclaiming guest was not adopted');
      assert.equal(orders(f) - before, 1, 'one new order');
      assert.deepEqual(await ownerGuests(f), [{ id: newId, datacenter: 'dal10' }]);
    });
  });
}

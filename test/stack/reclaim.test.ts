import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gatherAudit } from '../../commands/audit-command';
import { tagNames, type VirtualGuest } from '../../provider/managers';
import { DOORS, ownerFixtures } from './front-door';

const MASK = 'id,hostname,tagReferences.tag.name,activeTransaction.transactionStatus.name';
const ORDERS = ['Virtual_Guest.createObject', 'Product_Order.placeOrder'];

// `pulumi destroy` returns once the guest is cancelled and billed no more; the API's reclaim that
// follows (minutes; ten here) is not waited for, and an `up` of the same program meanwhile orders
// a new guest beside the one reclaiming, never adopting it.
describe('destroy then up while the old guest is still reclaiming', () => {
  const fixture = ownerFixtures(DOORS.dynamic);

  it('destroy returns without waiting; the next up orders one new guest and leaves the old one to its reclaim', async () => {
    const f = await fixture({ guests: ['server'] });
    f.emulator.settings.reclaimDelayMs = 10 * 60_000;
    const orders = () =>
      ORDERS.reduce((sum, call) => sum + (f.emulator.stats().calls[call] ?? 0), 0);
    const guest = async (id: string) =>
      (await f.client.call('Virtual_Guest', 'getObject', {
        id: Number(id),
        mask: MASK,
      })) as VirtualGuest;

    await f.stack.up();
    const [oldId] = await f.stateIds('VirtualGuest');
    await f.stack.destroy();
    assert.deepEqual(await f.stateIds('VirtualGuest'), [], 'the stack holds no guest');
    assert.match(f.output(), new RegExp(`not waited for`), 'destroy said it did not wait');
    const old = await guest(oldId);
    assert.equal(
      old.activeTransaction?.transactionStatus?.name,
      'RECLAIM_WAIT',
      'still reclaiming',
    );

    const audit = await gatherAudit(f.dir, ['test'], f.stack.env);
    assert.ok(!audit.orphans.some((o) => String(o.id) === oldId), 'the audit finds no orphan');
    assert.ok(!audit.importable.some((e) => e.id === oldId), 'nor anything to import');

    const before = orders();
    await f.stack.up();
    const [newId] = await f.stateIds('VirtualGuest');
    assert.notEqual(newId, oldId, 'the reclaiming guest was not adopted');
    assert.equal(orders() - before, 1, 'one new order');
    const [after, fresh] = [await guest(oldId), await guest(newId)];
    assert.equal(fresh.hostname, old.hostname, 'the same hostname, declared again');
    assert.equal(after.activeTransaction?.transactionStatus?.name, 'RECLAIM_WAIT');
    assert.deepEqual(tagNames(after), tagNames(old), 'the old guest was left as it was');
  });
});

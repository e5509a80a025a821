import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VirtualGuest } from '../../provider/managers';
import { cliFixture, previewBilling, writeCalls, type CliFixture } from './cli';

type Guest = VirtualGuest & {
  billingItem: { hourlyRecurringFee: string; recurringFee: string };
};

const MASK =
  'id,startCpus,maxMemory,primaryIpAddress,primaryBackendIpAddress,activeTransaction.id,' +
  'blockDevices[device,diskImage.capacity],billingItem[hourlyRecurringFee,recurringFee],tagReferences.tag.name';

const base = { localDiskFlag: false, disks: [25] };

// Resizing a guest through the Pulumi CLI: one upgrade order, the same server.
describe('VirtualGuest resized in place through the Pulumi CLI', () => {
  let f: CliFixture;
  let id = 0;
  let addresses: (string | null | undefined)[] = [];

  const guest = async () =>
    (await f.client.call('Virtual_Guest', 'getObject', { id, mask: MASK })) as Guest;
  const disks = (g: Guest) =>
    (g.blockDevices ?? []).filter((d) => d.device !== '1').map((d) => d.diskImage?.capacity);
  const declare = (args: object) =>
    f.stack.setConfig({ 'stacktest:guest': { value: JSON.stringify({ ...base, ...args }) } });
  const calls = () => Object.values(f.emulator.stats().calls).reduce((a, b) => a + b, 0);
  /** What the API charges for a new guest of this size in dal10 (the upgraded guest must match). */
  const priceOf = async (startCpus: number, maxMemory: number, capacities: number[]) => {
    const order = (await f.client.call('Virtual_Guest', 'generateOrderTemplate', {
      args: [
        {
          hostname: 'price',
          domain: 'example.com',
          startCpus,
          maxMemory,
          hourlyBillingFlag: true,
          localDiskFlag: false,
          operatingSystemReferenceCode: 'UBUNTU_LATEST',
          datacenter: { name: 'dal10' },
          blockDevices: capacities.map((capacity, i) => ({
            device: String(i === 0 ? 0 : i + 1),
            diskImage: { capacity },
          })),
        },
      ],
    })) as { postTaxRecurringHourly: string; postTaxRecurringMonthly: string };
    return [Number(order.postTaxRecurringHourly), Number(order.postTaxRecurringMonthly)];
  };

  before(async () => {
    f = await cliFixture({
      program: 'fleet',
      config: { 'stacktest:guest': { value: JSON.stringify(base) } },
    });
    await f.stack.up();
    const [stateId] = await f.stateIds('VirtualGuest');
    id = Number(stateId);
    const g = await guest();
    addresses = [g.primaryIpAddress, g.primaryBackendIpAddress];
  });
  after(() => f?.close());

  it('preview of CPUs, memory and a disk change shows one upgrade line priced by the API', async () => {
    await declare({ startCpus: 2, maxMemory: 2048, disks: [100] });
    const before = await guest();
    const writes = writeCalls(f.emulator);
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(
      changes.map((c) => [c.op, c.name, c.reasons]),
      [['upgrade', 'g0', ['startCpus', 'maxMemory', 'disks']]],
    );
    const [change] = changes;
    assert.equal(change.oldHourly, Number(before.billingItem.hourlyRecurringFee), 'billed now');
    assert.equal(change.oldMonthly, Number(before.billingItem.recurringFee));
    assert.deepEqual([change.newHourly, change.newMonthly], await priceOf(2, 2048, [100]));
    const lines = messages.split('\n').filter((line) => line.includes('BILLING'));
    assert.equal(lines.length, 1, `one BILLING line: ${lines.join(' | ')}`);
    assert.match(
      lines[0],
      /BILLING upgrade VirtualGuest "g0" in place \(startCpus 1 -> 2, maxMemory 1024 -> 2048, disks \[25\] -> \[100\]\): \$0\.\d{4}\/hour \(\$\d+\.\d\d\/month, account price\) -> \$0\.\d{4}\/hour .*the guest reboots/,
    );
    assert.equal(writeCalls(f.emulator), writes, 'nothing ordered by a preview');
  });

  it('up upgrades the same guest with one order: same id and addresses, new size and fees', async () => {
    await f.stack.up();
    const { same: _unchanged, ...changed } = await f.lastChanges();
    assert.deepEqual(changed, { update: 1 }, 'updated, not replaced');
    assert.deepEqual(await f.stateIds('VirtualGuest'), [String(id)]);
    const g = await guest();
    assert.deepEqual([g.startCpus, g.maxMemory, disks(g)], [2, 2048, [100]]);
    assert.deepEqual([g.primaryIpAddress, g.primaryBackendIpAddress], addresses);
    assert.equal(g.activeTransaction, undefined);
    assert.ok(
      g.tagReferences?.some((t) => t.tag?.name === 'fleet'),
      'tags kept',
    );
    assert.equal(writeCalls(f.emulator, 'Product_Order.placeOrder'), 1);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'no second guest');
    const [hourly] = await priceOf(2, 2048, [100]);
    assert.equal(Number(g.billingItem.hourlyRecurringFee), hourly);
    const outputs = (await f.stack.resources()).find((r) => r.type.endsWith(':VirtualGuest'));
    assert.equal(outputs?.outputs?.estimatedHourlyCost, hourly);
  });

  it('a second up changes nothing', async () => {
    const writes = writeCalls(f.emulator);
    await f.stack.up();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
    assert.equal(writeCalls(f.emulator), writes);
  });

  it('a shrunk disk fails in check, before any call', async () => {
    await declare({ startCpus: 2, maxMemory: 2048, disks: [25] });
    const before = calls();
    await assert.rejects(f.stack.preview(), /disks\[0\] 100 GB -> 25 GB: a disk can only grow/);
    assert.equal(calls(), before, 'no API call');
    assert.equal(disks(await guest()).join(), '100');
  });

  it('an upgrade whose answer is lost converges with exactly one upgrade order', async () => {
    await declare({ startCpus: 4, maxMemory: 2048, disks: [100, 250] });
    f.emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    const orders = writeCalls(f.emulator, 'Product_Order.placeOrder');
    const lost = () => f.emulator.stats().faultsInjected['lose-response'] ?? 0;
    const lostBefore = lost();
    await f.stack.up();
    assert.equal(lost() - lostBefore, 1, 'the answer of the order was lost');
    const g = await guest();
    assert.deepEqual([g.startCpus, disks(g)], [4, [100, 250]]);
    assert.equal(writeCalls(f.emulator, 'Product_Order.placeOrder') - orders, 1);
    assert.deepEqual(await f.stateIds('VirtualGuest'), [String(id)]);
    await f.stack.up();
    assert.deepEqual(Object.keys(await f.lastChanges()), ['same']);
  });

  it('a datacenter change still replaces the guest', async () => {
    await declare({ startCpus: 4, maxMemory: 2048, disks: [100, 250], datacenter: 'dal12' });
    const { changes, messages } = await previewBilling(f);
    assert.deepEqual(
      changes.map((c) => [c.op, c.reasons]),
      [['replace', ['datacenter']]],
    );
    assert.equal(messages.split('\n').filter((line) => line.includes('BILLING')).length, 1);
    assert.match(messages, /BILLING replace VirtualGuest "g0" \(changed: datacenter\)/);
  });
});

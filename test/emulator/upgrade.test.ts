/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGuest, guestTemplate, sleep, useEmulator } from '../support/emulator-harness';
import type { EmulatorClient } from '../support/emulator-client';

// Long enough that the calls made while an upgrade runs all land inside it.
const DELAY = 1500;
const h = useEmulator({ provisioningDelayMs: DELAY });

const SIZE_MASK =
  'mask[id, startCpus, maxMemory, primaryIpAddress, primaryBackendIpAddress, notes, tagReferences.tag.name, ' +
  'networkComponents.maxSpeed, blockDevices[device, diskImage.capacity], activeTransaction.transactionStatus.name, ' +
  'lastTransaction.transactionStatus.name, powerState.keyName, billingItem[hourlyRecurringFee, recurringFee, children[categoryCode, hourlyRecurringFee]]]';

const PRICE_MASK =
  'mask[id, hourlyRecurringFee, locationGroupId, categories.categoryCode, item[capacity, units]]';

const order = (guestId: number, prices: Record<string, unknown>[]) => ({
  complexType: 'Svc_Container_Product_Order_Virtual_Guest_Upgrade',
  virtualGuests: [{ id: guestId }],
  prices,
  properties: [{ name: 'MAINTENANCE_WINDOW', value: new Date().toISOString() }],
});

async function priceFor(client: EmulatorClient, id: number, category: string, capacity: number) {
  const prices = await client.call<any[]>('Virtual_Guest', 'getUpgradeItemPrices', {
    id,
    args: [true],
    mask: PRICE_MASK,
  });
  const found = prices.find(
    (p) =>
      Number(p.item.capacity) === capacity &&
      p.categories.some((c: any) => c.categoryCode === category),
  );
  assert.ok(found, `an upgrade price for ${category} ${capacity}`);
  return found;
}

const disks = (guest: any) =>
  guest.blockDevices
    .filter((d: any) => d.device !== '1')
    .map((d: any) => [d.device, d.diskImage.capacity]);

async function readyGuest(overrides: Record<string, unknown> = {}) {
  const guest = await createGuest(h.demo, {
    hostname: `up${Math.floor(Math.random() * 1e6)}`,
    notes: 'keep me',
    tagReferences: [{ tag: { name: 'keep' } }],
    ...overrides,
  });
  await sleep(DELAY + 50);
  return guest.id;
}

describe('guest upgrades: getUpgradeItemPrices, Product_Order.verifyOrder and placeOrder', () => {
  it('prices upgrades per category for the guest datacenter; downgrades only when asked', async () => {
    const dal = await readyGuest();
    const tor = await readyGuest({ datacenter: { name: 'tor01' } });
    const up = await h.demo.call<any[]>('Virtual_Guest', 'getUpgradeItemPrices', {
      id: dal,
      mask: PRICE_MASK,
    });
    const codes = new Set(up.flatMap((p) => p.categories.map((c: any) => c.categoryCode)));
    for (const code of [
      'guest_core',
      'ram',
      'port_speed',
      'guest_disk0',
      'guest_disk1',
      'guest_disk4',
    ])
      assert.ok(codes.has(code), code);
    assert.ok(
      !up.some((p) => p.categories[0].categoryCode === 'guest_core' && p.item.capacity < 1),
      'no smaller CPU count without downgrades',
    );
    const dalCore = await priceFor(h.demo, dal, 'guest_core', 2);
    const torCore = await priceFor(h.demo, tor, 'guest_core', 2);
    assert.notEqual(dalCore.id, torCore.id, 'each location has its own price');
    assert.ok(Number(torCore.hourlyRecurringFee) > Number(dalCore.hourlyRecurringFee));
    assert.ok(!dalCore.locationGroupId, 'dal10 has the default prices');
  });

  it('an upgrade runs as an UPGRADE transaction, then the same guest has the new size and fees', async () => {
    const id = await readyGuest();
    const before = await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: SIZE_MASK });
    const prices = [
      { id: (await priceFor(h.demo, id, 'guest_core', 2)).id },
      { id: (await priceFor(h.demo, id, 'ram', 2)).id },
      {
        id: (await priceFor(h.demo, id, 'guest_disk0', 100)).id,
        categories: [{ categoryCode: 'guest_disk0' }],
      },
      {
        id: (await priceFor(h.demo, id, 'guest_disk1', 250)).id,
        categories: [{ categoryCode: 'guest_disk1' }],
      },
    ];
    const verified = await h.demo.call<any>('Product_Order', 'verifyOrder', {
      args: [order(id, prices)],
    });
    assert.equal(verified.prices.length, 4);
    assert.ok(Number(verified.postTaxRecurringHourly) > 0);
    const receipt = await h.demo.call<any>('Product_Order', 'placeOrder', {
      args: [order(id, prices), false],
    });
    assert.equal(typeof receipt.orderId, 'number');
    const during = await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: SIZE_MASK });
    assert.equal(during.activeTransaction.transactionStatus.name, 'UPGRADE');
    assert.equal(during.startCpus, 1, 'the old size while the upgrade runs');
    assert.equal(during.powerState.keyName, 'HALTED', 'a CPU or memory upgrade reboots');
    await assert.rejects(
      h.demo.call('Product_Order', 'placeOrder', { args: [order(id, prices.slice(0, 1))] }),
      /active transaction \(UPGRADE\)/,
    );
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'deleteObject', { id }),
      /active transaction/,
    );
    await sleep(DELAY + 50);
    const after = await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: SIZE_MASK });
    assert.equal(after.activeTransaction, undefined);
    assert.equal(after.lastTransaction.transactionStatus.name, 'UPGRADE');
    assert.deepEqual([after.startCpus, after.maxMemory], [2, 2048]);
    assert.deepEqual(disks(after), [
      ['0', 100],
      ['2', 250],
    ]);
    assert.equal(after.primaryIpAddress, before.primaryIpAddress);
    assert.equal(after.primaryBackendIpAddress, before.primaryBackendIpAddress);
    assert.equal(after.notes, 'keep me');
    assert.deepEqual(
      after.tagReferences.map((t: any) => t.tag.name),
      ['keep'],
    );
    assert.equal(after.powerState.keyName, 'RUNNING');
    const fee = (g: any) => Number(g.billingItem.hourlyRecurringFee);
    const sameSize = await h.demo.call<any>('Virtual_Guest', 'generateOrderTemplate', {
      args: [
        guestTemplate({
          startCpus: 2,
          maxMemory: 2048,
          blockDevices: [
            { device: '0', diskImage: { capacity: 100 } },
            { device: '2', diskImage: { capacity: 250 } },
          ],
        }),
      ],
    });
    assert.ok(fee(after) > fee(before), 'the billing item follows the new size');
    assert.equal(
      fee(after),
      Number(sameSize.postTaxRecurringHourly),
      'as a new guest of that size',
    );
    assert.ok(after.billingItem.children.some((c: any) => c.categoryCode === 'guest_disk1'));
  });

  it('refuses a shrink, a size not offered, a repeated category, a missing window and other containers', async () => {
    const id = await readyGuest({
      blockDevices: [{ device: '0', diskImage: { capacity: 100 } }],
    });
    const small = await priceFor(h.demo, id, 'guest_disk1', 25);
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [order(id, [{ id: small.id, categories: [{ categoryCode: 'guest_disk0' }] }])],
      }),
      /guest_disk0 of virtual guest \d+ is 100 GB: a disk can only grow, it cannot be shrunk/,
    );
    await assert.rejects(
      h.demo.call('Product_Order', 'placeOrder', { args: [order(id, [{ id: 999_999 }])] }),
      /Price #999999 is not an upgrade offered for virtual guest/,
    );
    const core = await priceFor(h.demo, id, 'guest_core', 4);
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [order(id, [{ id: core.id }, { id: core.id }])],
      }),
      /guest_core is given twice/,
    );
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [{ ...order(id, [{ id: core.id }]), properties: [] }],
      }),
      /MAINTENANCE_WINDOW/,
    );
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [
          {
            ...order(id, [{ id: core.id }]),
            complexType: 'Svc_Container_Product_Order_Network_LoadBalancer',
          },
        ],
      }),
      /Orders of Svc_Container_Product_Order_Network_LoadBalancer are not modeled by this emulator/,
    );
    const gap = await priceFor(h.demo, id, 'guest_disk2', 100);
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [order(id, [{ id: gap.id, categories: [{ categoryCode: 'guest_disk2' }] }])],
      }),
      /the next one added is guest_disk1/,
    );
    await assert.rejects(
      h.other.call('Product_Order', 'verifyOrder', { args: [order(id, [{ id: core.id }])] }),
      /ObjectNotFound/,
    );
    const guest = await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: SIZE_MASK });
    assert.equal(guest.startCpus, 1, 'nothing changed');
    assert.equal(guest.activeTransaction, undefined);
  });

  it('a second upgrade keeps what the first one changed', async () => {
    const id = await readyGuest();
    const core = await priceFor(h.demo, id, 'guest_core', 4);
    await h.demo.call('Product_Order', 'placeOrder', { args: [order(id, [{ id: core.id }])] });
    await sleep(DELAY + 50);
    const speed = await priceFor(h.demo, id, 'port_speed', 1000);
    await h.demo.call('Product_Order', 'placeOrder', { args: [order(id, [{ id: speed.id }])] });
    await sleep(DELAY + 50);
    const guest = await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: SIZE_MASK });
    assert.equal(guest.startCpus, 4, 'the first upgrade is kept by the second');
    assert.equal(guest.networkComponents[0].maxSpeed, 1000);
    assert.equal(guest.powerState.keyName, 'RUNNING');
  });
});

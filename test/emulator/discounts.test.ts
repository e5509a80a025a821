/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * An account with negotiated prices (emulator/services/account/discounts.ts): its order
 * containers and the billing items its orders create carry the account's fees; the product
 * package and the create options keep the list prices. Over HTTP, set through the admin API.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { optionsFromArgs } from '../../emulator/cli';
import { GUEST_PACKAGE } from '../../emulator/services/product-package/model';
import { EmulatorClient } from '../support/emulator-client';
import { guestTemplate, sleep, useEmulator } from '../support/emulator-harness';

const h = useEmulator();
// 20% off cores, 10% off memory, 5% off everything else (OS, port, disks).
const DISCOUNTS = { guest_core: 20, ram: 10, '*': 5 };
const BILLING_MASK =
  'mask[billingItem[hourlyRecurringFee, recurringFee, children[categoryCode, hourlyRecurringFee]]]';

async function admin(path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${h.emu.adminUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const quote = (client: EmulatorClient, overrides: Record<string, unknown> = {}) =>
  client.call<any>('Virtual_Guest', 'generateOrderTemplate', {
    args: [
      guestTemplate({ startCpus: 4, maxMemory: 8192, datacenter: { name: 'tor01' }, ...overrides }),
    ],
  });

const fee = (container: any, categoryHint: string) =>
  Number(
    container.prices.find((p: any) => p.item.description.includes(categoryHint)).hourlyRecurringFee,
  );

describe('an account with negotiated prices', () => {
  let list: EmulatorClient;
  let discounted: EmulatorClient;
  before(async () => {
    const plain = await admin('/accounts', { username: 'list-prices' });
    const created = await admin('/accounts', { username: 'negotiated', discounts: DISCOUNTS });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    list = new EmulatorClient(h.emu.url, plain.json);
    discounted = new EmulatorClient(h.emu.url, created.json);
  });

  it('is priced at its discount per category in the order container; the package keeps list prices', async () => {
    assert.deepEqual((await admin('/accounts/negotiated/discounts')).json, DISCOUNTS);
    const [at, listed] = [await quote(discounted), await quote(list)];
    assert.equal(fee(at, 'Core'), Math.round(fee(listed, 'Core') * 0.8 * 1e4) / 1e4);
    assert.equal(fee(at, '8 GB'), Math.round(fee(listed, '8 GB') * 0.9 * 1e4) / 1e4);
    const sum = at.prices.reduce((s: number, p: any) => s + Number(p.hourlyRecurringFee), 0);
    assert.equal(Number(at.postTaxRecurringHourly), Math.round(sum * 1e4) / 1e4);
    assert.ok(Number(at.postTaxRecurringHourly) < Number(listed.postTaxRecurringHourly));
    // verifyOrder prices the same container the same way.
    const verified = await discounted.call<any>('Product_Order', 'verifyOrder', { args: [at] });
    assert.equal(verified.postTaxRecurringHourly, at.postTaxRecurringHourly);
    // The create options and the package's item prices are the list prices for every account.
    for (const [service, method, id] of [
      ['Virtual_Guest', 'getCreateObjectOptions', undefined],
      ['Product_Package', 'getItemPrices', GUEST_PACKAGE.id],
    ] as const) {
      assert.deepEqual(
        await discounted.call(service, method, { id }),
        await list.call(service, method, { id }),
        `${service}.${method}`,
      );
    }
  });

  it('bills what the container quoted: createObject, placeOrder, and an upgrade', async () => {
    for (const hourly of [true, false]) {
      const at = await quote(discounted, { hourlyBillingFlag: hourly });
      const guest = await discounted.call<any>('Virtual_Guest', 'createObject', {
        args: [
          guestTemplate({
            startCpus: 4,
            maxMemory: 8192,
            datacenter: { name: 'tor01' },
            hourlyBillingFlag: hourly,
          }),
        ],
      });
      const billed = await discounted.call<any>('Virtual_Guest', 'getObject', {
        id: guest.id,
        mask: BILLING_MASK,
      });
      assert.equal(billed.billingItem.recurringFee, at.postTaxRecurringMonthly);
      assert.equal(billed.billingItem.hourlyRecurringFee, at.postTaxRecurringHourly);
      const children = billed.billingItem.children.find((c: any) => c.categoryCode === 'ram');
      assert.equal(Number(children.hourlyRecurringFee), fee(at, '8 GB'));
    }
    const placed = await discounted.call<any>('Product_Order', 'placeOrder', {
      args: [
        {
          ...(await quote(discounted, { startCpus: 2 })),
          virtualGuests: [{ hostname: 'po', domain: 'example.com' }],
        },
      ],
    });
    const id = placed.orderDetails.virtualGuests[0].id;
    const billed = await discounted.call<any>('Virtual_Guest', 'getObject', {
      id,
      mask: BILLING_MASK,
    });
    assert.equal(
      billed.billingItem.hourlyRecurringFee,
      (await quote(discounted, { startCpus: 2 })).postTaxRecurringHourly,
    );
    // An upgrade to 8 cores bills what the same order at 8 cores would.
    await sleep(10);
    const prices = await discounted.call<any[]>('Virtual_Guest', 'getUpgradeItemPrices', {
      id,
      args: [true],
      mask: 'mask[id, categories.categoryCode, item.capacity]',
    });
    const core = prices.find(
      (p) => p.categories[0].categoryCode === 'guest_core' && Number(p.item.capacity) === 8,
    );
    const upgrade = {
      complexType: 'Svc_Container_Product_Order_Virtual_Guest_Upgrade',
      virtualGuests: [{ id }],
      prices: [{ id: core.id }],
      properties: [{ name: 'MAINTENANCE_WINDOW', value: new Date().toISOString() }],
    };
    const container = await discounted.call<any>('Product_Order', 'verifyOrder', {
      args: [upgrade],
    });
    assert.equal(
      Number(container.postTaxRecurringHourly),
      fee(await quote(discounted, { startCpus: 8 }), 'Core'),
    );
    await discounted.call('Product_Order', 'placeOrder', { args: [upgrade] });
    await sleep(10);
    const after = await discounted.call<any>('Virtual_Guest', 'getObject', {
      id,
      mask: BILLING_MASK,
    });
    const expected = await quote(discounted, { startCpus: 8 });
    assert.equal(after.billingItem.hourlyRecurringFee, expected.postTaxRecurringHourly);
  });

  it('refuses a discount that is no percent, naming the category', async () => {
    const bad = await admin('/accounts/negotiated/discounts', { ram: 120 });
    assert.equal(bad.status, 400);
    assert.match(bad.json.error, /discounts\.ram must be a percent from 0 to 100/);
    assert.deepEqual((await admin('/accounts/negotiated/discounts')).json, DISCOUNTS);
  });
});

it("svc-emulator --discounts sets the demo account's; a bad entry is refused naming it", () => {
  const options = optionsFromArgs(['--discounts', '{"guest_core":20,"*":5}']);
  assert.notEqual(options, 'help');
  assert.deepEqual(options !== 'help' && options.discounts, { guest_core: 20, '*': 5 });
  assert.throws(
    () => optionsFromArgs(['--discounts', '{"GUEST CORE":20}']),
    /--discounts: discounts: 'GUEST CORE' is no item category code/,
  );
});

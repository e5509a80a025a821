/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * Ordering new guests the way real clients do: Product_Package (derived from the catalog),
 * Network_Pod, and Product_Order.verifyOrder / placeOrder with a
 * Svc_Container_Product_Order_Virtual_Guest, over HTTP against the emulator; asserted on the
 * guests the emulator then holds.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import {
  CPU_OPTIONS,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  OPERATING_SYSTEMS,
  PRICE_GROUPS,
} from '../../emulator/catalog';
import { EmulatorClient } from '../support/emulator-client';
import { freshAccount, guestTemplate, useEmulator } from '../support/emulator-harness';
import { freshEd25519 } from '../support/ssh-keys';

const h = useEmulator();
const GUEST_ORDER = 'Svc_Container_Product_Order_Virtual_Guest';
const ITEM_MASK =
  'mask[id, keyName, capacity, itemCategory.categoryCode, prices[id, locationGroupId, hourlyRecurringFee, categories.categoryCode], softwareDescription.referenceCode]';

let client: EmulatorClient;
let items: any[];

/** The default price of the item of `category` with `capacity` (or OS reference code). */
function price(category: string, capacity: number | string): number {
  const item = items.find(
    (i) =>
      (i.itemCategory.categoryCode === category ||
        (category.startsWith('guest_disk') && i.itemCategory.categoryCode === 'guest_disk0')) &&
      (typeof capacity === 'string'
        ? i.softwareDescription?.referenceCode === capacity
        : Number(i.capacity) === capacity && !/LOCAL/.test(i.keyName)),
  );
  assert.ok(item, `an item ${category} ${capacity}`);
  return item.prices.find((p: any) => p.locationGroupId === '').id;
}

const basePrices = () => [
  { id: price('guest_core', 2) },
  { id: price('ram', 4) },
  { id: price('os', 'UBUNTU_22_64') },
  { id: price('port_speed', 100) },
  { id: price('guest_disk0', 25) },
];

function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    complexType: GUEST_ORDER,
    packageId: 835,
    location: 'dal10',
    quantity: 1,
    useHourlyPricing: true,
    prices: basePrices(),
    virtualGuests: [{ hostname: 'ord1', domain: 'example.com' }],
    ...overrides,
  };
}

const guests = async (c: EmulatorClient) =>
  c.call<any[]>('Account', 'getVirtualGuests', {
    mask: 'mask[id, hostname, startCpus, maxMemory, hourlyBillingFlag, localDiskFlag, datacenter.name, operatingSystemReferenceCode, networkComponents.maxSpeed, blockDevices[device, diskImage.capacity], sshKeys.id, userData.value, billingItem[hourlyRecurringFee, orderItem.order.id]]',
  });

describe('Product_Package: the catalog as packages, items, prices, presets and regions', () => {
  before(async () => {
    client = await freshAccount(h.emu);
    const [pkg] = await client.call<any[]>('Product_Package', 'getAllObjects', {
      mask: 'id',
      filter: { keyName: { operation: 'CLOUD_SERVER' } },
    });
    items = await client.call<any[]>('Product_Package', 'getItems', {
      id: pkg.id,
      mask: ITEM_MASK,
    });
  });

  it('finds packages by key name and type', async () => {
    const byType = await client.call<any[]>('Product_Package', 'getAllObjects', {
      mask: 'id, keyName',
      filter: {
        type: {
          keyName: {
            operation: 'in',
            options: [{ name: 'data', value: ['VIRTUAL_SERVER_INSTANCE'] }],
          },
        },
      },
    });
    assert.deepEqual(byType.map((p) => p.keyName).sort(), ['CLOUD_SERVER', 'PUBLIC_CLOUD_SERVER']);
  });

  it('has one item per catalog option, each with a default price and one per location group', () => {
    const count = (code: string) =>
      items.filter((i) => i.itemCategory.categoryCode === code).length;
    assert.equal(count('guest_core'), CPU_OPTIONS.length);
    assert.equal(count('ram'), MEMORY_OPTIONS.length);
    assert.equal(count('os'), OPERATING_SYSTEMS.length);
    assert.equal(count('port_speed'), NETWORK_SPEEDS.length);
    for (const item of items) {
      assert.equal(item.prices.length, 1 + PRICE_GROUPS.length, item.keyName);
      assert.equal(item.prices.filter((p: any) => p.locationGroupId === '').length, 1);
    }
  });

  it('filters items and prices like the reference client asks', async () => {
    const os = await client.call<any[]>('Product_Package', 'getItems', {
      id: 835,
      filter: { items: { prices: { categories: { categoryCode: { operation: 'os' } } } } },
    });
    assert.equal(os.length, OPERATING_SYSTEMS.length);
    assert.ok(
      os.every((i) => i.prices.length > 0),
      'items come with their prices',
    );
    const montreal = await client.call<any[]>('Product_Package', 'getItemPrices', {
      id: 835,
      mask: 'filteredMask[pricingLocationGroup[locations]]',
      filter: {
        itemPrices: { pricingLocationGroup: { locations: { name: { operation: 'mon01' } } } },
      },
    });
    assert.ok(montreal.length > 0);
    assert.ok(
      montreal.every((p) => p.pricingLocationGroup.locations.some((l: any) => l.name === 'mon01')),
    );
  });

  it('lists presets of catalog sizes and a region per datacenter', async () => {
    const presets = await client.call<any[]>('Product_Package', 'getActivePresets', {
      id: 835,
      mask: 'mask[keyName, prices[id, item.capacity]]',
      filter: { activePresets: { keyName: { operation: '_= B1_2X4X25' } } },
    });
    assert.equal(presets.length, 1);
    assert.deepEqual(
      presets[0].prices.map((p: any) => Number(p.item.capacity)),
      [2, 4, 25],
    );
    const regions = await client.call<any[]>('Product_Package', 'getRegions', {
      id: 835,
      mask: 'location.location.priceGroups',
    });
    assert.ok(
      regions.some((r) => r.keyname === 'DALLAS10' && r.location.location.name === 'dal10'),
    );
  });

  it('Network_Pod lists a pod per datacenter; VLANs name theirs', async () => {
    const pods = await client.call<any[]>('Network_Pod', 'getAllObjects', {
      filter: { datacenterName: { operation: 'dal10' } },
    });
    assert.deepEqual(
      pods.map((p) => p.name),
      ['dal10.pod01'],
    );
    const closing = await client.call<any[]>('Network_Pod', 'getAllObjects', {
      filter: {
        capabilities: {
          operation: 'in',
          options: [{ name: 'data', value: ['CLOSURE_ANNOUNCED'] }],
        },
      },
    });
    assert.deepEqual(closing, []);
  });
});

describe('Product_Order with a Svc_Container_Product_Order_Virtual_Guest', () => {
  it('verifyOrder and placeOrder in a datacenter with no room answer the capacity fault, placing nothing', async () => {
    h.emu.settings.datacenterCapacity = { dal10: 0 };
    try {
      const before = (await guests(client)).length;
      for (const method of ['verifyOrder', 'placeOrder'])
        await assert.rejects(
          client.call('Product_Order', method, { args: [order()] }),
          /Svc_Exception_Virtual_Host_Pool_InsufficientCapacity: .*bcr01a\.dal10.*ord1/,
        );
      assert.equal((await guests(client)).length, before);
    } finally {
      h.emu.settings.datacenterCapacity = undefined;
    }
  });

  it('verifies an order priced like createObject prices the same guest, and places nothing', async () => {
    const verified = await client.call<any>('Product_Order', 'verifyOrder', {
      args: [order({ location: 'DALLAS10' })],
    });
    const template = await client.call<any>('Virtual_Guest', 'generateOrderTemplate', {
      args: [
        guestTemplate({
          startCpus: 2,
          maxMemory: 4096,
          operatingSystemReferenceCode: 'UBUNTU_22_64',
        }),
      ],
    });
    assert.equal(verified.postTaxRecurringHourly, template.postTaxRecurringHourly);
    assert.equal(verified.location, String(template.location));
    assert.equal(verified.prices.length, 5);
    assert.deepEqual(await guests(client), []);
  });

  it('places two guests at a location group price, with an SSH key and user data', async () => {
    const key = await client.call<any>('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'order', key: freshEd25519() }],
    });
    const receipt = await client.call<any>('Product_Order', 'placeOrder', {
      args: [
        order({
          location: 'mon01',
          quantity: 2,
          useHourlyPricing: false,
          prices: [
            ...basePrices(),
            { id: price('guest_disk1', 100), categories: [{ categoryCode: 'guest_disk1' }] },
          ],
          sshKeys: [{ sshKeyIds: [key.id] }],
          virtualGuests: [
            { hostname: 'mon-a', domain: 'example.com', userData: [{ value: 'hello' }] },
            { hostname: 'mon-b', domain: 'example.com' },
          ],
        }),
        false,
      ],
    });
    const ids = receipt.orderDetails.virtualGuests.map((g: any) => g.id);
    assert.equal(ids.length, 2);
    const held = (await guests(client)).filter((g) => ids.includes(g.id));
    assert.deepEqual(held.map((g) => g.hostname).sort(), ['mon-a', 'mon-b']);
    for (const g of held) {
      assert.equal(g.startCpus, 2);
      assert.equal(g.maxMemory, 4096);
      assert.equal(g.hourlyBillingFlag, false);
      assert.equal(g.localDiskFlag, false);
      assert.equal(g.datacenter.name, 'mon01');
      assert.equal(g.operatingSystemReferenceCode, 'UBUNTU_22_64');
      assert.deepEqual(
        g.sshKeys.map((k: any) => k.id),
        [key.id],
      );
      assert.deepEqual(
        g.blockDevices.filter((d: any) => d.device !== '1').map((d: any) => d.diskImage.capacity),
        [25, 100],
      );
      assert.equal(g.billingItem.orderItem.order.id, receipt.orderId);
    }
    assert.deepEqual(held.find((g) => g.hostname === 'mon-a').userData, [{ value: 'hello' }]);
    const monthly = receipt.orderDetails.prices.reduce(
      (s: number, p: any) => s + Number(p.hourlyRecurringFee),
      0,
    );
    assert.equal(Number(held[0].billingItem.hourlyRecurringFee).toFixed(4), monthly.toFixed(4));
    assert.ok(
      receipt.orderDetails.prices.every((p: any) => p.locationGroupId === 503),
      'mon01 prices',
    );
  });

  it('takes orders wrapped in orderContainers, as the ordering manager sends them', async () => {
    const c = await freshAccount(h.emu);
    const receipt = await c.call<any>('Product_Order', 'placeOrder', {
      args: [
        {
          orderContainers: [
            order({ virtualGuests: [{ hostname: 'wrapped', domain: 'example.com' }] }),
          ],
        },
      ],
    });
    assert.equal(receipt.orderDetails.orderContainers.length, 1);
    assert.deepEqual(
      (await guests(c)).map((g) => g.hostname),
      ['wrapped'],
    );
  });

  it('refuses bad orders naming the wrong item, and places nothing', async () => {
    const c = await freshAccount(h.emu);
    const refused = async (o: Record<string, unknown>, code: string, message: RegExp) => {
      const raw = await c.callRaw('Product_Order', 'verifyOrder', { args: [o] });
      assert.equal(raw.fault?.faultCode, code, JSON.stringify(raw.fault));
      assert.match(raw.fault!.faultString, message);
    };
    /** The base prices without the one of `index` (core, ram, os, port speed, boot disk). */
    const without = (index: number) => basePrices().filter((_, i) => i !== index);
    await refused(
      order({ prices: without(1) }),
      'Svc_Exception_Order_MissingCategory',
      /missing the following category: RAM\./,
    );
    const monPrice = items
      .find((i) => Number(i.capacity) === 2 && i.itemCategory.categoryCode === 'guest_core')
      .prices.find((p: any) => p.locationGroupId === 503);
    await refused(
      order({ prices: [...without(0), { id: monPrice.id }] }),
      'Svc_Exception_Public',
      new RegExp(
        `The price for 2 x 2.0 GHz or higher Cores \\(#${monPrice.id}\\) is not valid for location dal10\\.`,
      ),
    );
    await refused(
      order({ prices: [...basePrices(), { id: price('guest_core', 4) }] }),
      'Svc_Exception_Order_Item_Conflict',
      /You cannot order 2 x 2.0 GHz or higher Cores \(#\d+\) with 4 x 2.0 GHz or higher Cores/,
    );
    await refused(
      order({ prices: [...basePrices(), { id: 999_999 }] }),
      'Svc_Exception_Order_Item_Invalid',
      /Invalid price #999999/,
    );
    await refused(
      order({ location: 'xyz99' }),
      'Svc_Exception_Order_InvalidLocation',
      /location provided for this order is invalid/,
    );
    await refused(order({ quantity: 2 }), 'Svc_Exception_InvalidValue', /quantity 2 and 1 entries/);
    assert.deepEqual(await guests(c), []);
  });

  it('keeps placed guests across a restart (the same journal as createObject)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-order-'));
    try {
      let emu = await startEmulator({ port: 0, dataDir, provisioningDelayMs: 0 });
      const made = await emu.createAccount({ username: 'orders' });
      const c1 = new EmulatorClient(emu.url, { username: made.username, apiKey: made.apiKey });
      const receipt = await c1.call<any>('Product_Order', 'placeOrder', { args: [order()] });
      await emu.close();
      emu = await startEmulator({ port: 0, dataDir, provisioningDelayMs: 0 });
      const c2 = new EmulatorClient(emu.url, { username: made.username, apiKey: made.apiKey });
      const after = await guests(c2);
      assert.deepEqual(
        after.map((g) => g.id),
        [receipt.orderDetails.virtualGuests[0].id],
      );
      await emu.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

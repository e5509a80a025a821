/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { freshAccount, guestTemplate, useEmulator } from '../support/emulator-harness';

const h = useEmulator();

type Row = Record<string, any>;
const ORDER = 'Svc_Container_Product_Order_Virtual_DedicatedHost';
const DH = 'Virtual_DedicatedHost';
const DETAIL =
  'id,name,cpuCount,memoryCapacity,diskCapacity,guestCount,datacenter.name,backendRouter.hostname,billingItem[id,hourlyFlag,recurringFee,hourlyRecurringFee,cancellationDate],allocationStatus,tagReferences.tag.name';

/** The package's host sizes, as the reference client reads them (by its key name). */
async function hostPackage(client: EmulatorClient) {
  const [pkg] = await client.call<Row[]>('Product_Package', 'getAllObjects', {
    filter: { keyName: { operation: 'DEDICATED_HOST' } },
    mask: 'id,items[keyName,capacity,itemCategory.categoryCode,prices.id,bundleItems[capacity,categories.categoryCode]]',
  });
  return pkg;
}

/** The backend router a host goes behind in `datacenter` (by its id, as the client asks). */
async function routerIn(client: EmulatorClient, datacenter: string): Promise<number> {
  const [dc] = await client.call<Row[]>('Location_Datacenter', 'getDatacenters', {
    filter: { name: { operation: datacenter } },
    mask: 'id',
  });
  const routers = await client.call<Row[]>(DH, 'getAvailableRouters', {
    args: [{ cpuCount: 48, memoryCapacity: 192, diskCapacity: 1000, datacenter: { id: dc.id } }],
    mask: 'id,hostname',
  });
  assert.equal(routers.length, 1);
  assert.equal(routers[0].hostname, 'bcr01a');
  return routers[0].id;
}

async function container(client: EmulatorClient, overrides: Row = {}): Promise<Row> {
  const pkg = await hostPackage(client);
  const size = pkg.items.find((i: Row) => i.keyName === '48_CORES_X_192_RAM_X_1_TB');
  return {
    complexType: ORDER,
    packageId: pkg.id,
    location: 'dal10',
    quantity: 1,
    prices: [{ id: size.prices[0].id }],
    hardware: [
      {
        hostname: 'dh1',
        domain: 'example.com',
        primaryBackendNetworkComponent: { router: { id: await routerIn(client, 'dal10') } },
        tagReferences: [{ tag: { name: 'token-1' } }],
      },
    ],
    useHourlyPricing: true,
    ...overrides,
  };
}

async function orderHost(client: EmulatorClient, overrides: Row = {}): Promise<Row> {
  const receipt = await client.call<Row>('Product_Order', 'placeOrder', {
    args: [await container(client, overrides)],
  });
  assert.ok(receipt.orderId > 0);
  const [host] = await client.call<Row[]>('Account', 'getDedicatedHosts', {
    mask: 'id',
    filter: { dedicatedHosts: { name: { operation: overrides.hardware?.[0]?.hostname ?? 'dh1' } } },
  });
  return host;
}

describe('Virtual_DedicatedHost', () => {
  it('sells host sizes with their memory and disk, prices and places an hourly host', async () => {
    const client = await freshAccount(h.emu);
    const pkg = await hostPackage(client);
    const size = pkg.items.find((i: Row) => i.keyName === '56_CORES_X_242_RAM_X_1_4_TB');
    assert.equal(size.capacity, '56');
    assert.equal(size.itemCategory.categoryCode, 'dedicated_virtual_hosts');
    assert.deepEqual(
      size.bundleItems.map((b: Row) => [b.categories[0].categoryCode, b.capacity]),
      [
        ['dedicated_host_ram', '242'],
        ['dedicated_host_disk', '1200'],
      ],
    );
    const verified = await client.call<Row>('Product_Order', 'verifyOrder', {
      args: [await container(client)],
    });
    assert.equal(verified.postTaxRecurringHourly, '1.6993');
    assert.equal(await client.call('Account', 'getDedicatedHostCount'), 0, 'verify orders nothing');

    const { id } = await orderHost(client);
    const host = await client.call<Row>(DH, 'getObject', { id, mask: DETAIL });
    assert.deepEqual(
      {
        ...host,
        billingItem: { ...host.billingItem, id: undefined },
        tagReferences: host.tagReferences.map((r: Row) => r.tag.name),
      },
      {
        id,
        name: 'dh1',
        cpuCount: 48,
        memoryCapacity: 192,
        diskCapacity: 1000,
        guestCount: 0,
        datacenter: { name: 'dal10' },
        backendRouter: { hostname: 'bcr01a' },
        billingItem: {
          id: undefined,
          hourlyFlag: true,
          hourlyRecurringFee: '1.6993',
          recurringFee: '1240.49',
        },
        allocationStatus: {
          cpuAllocated: 0,
          cpuAvailable: 48,
          cpuCount: 48,
          diskAllocated: 0,
          diskAvailable: 1000,
          diskCapacity: 1000,
          guestCount: 0,
          memoryAllocated: 0,
          memoryAvailable: 192,
          memoryCapacity: 192,
        },
        tagReferences: ['token-1'],
      },
    );
    await client.call(DH, 'editObject', { id, args: [{ name: 'renamed' }] });
    assert.equal((await client.call<Row>(DH, 'getObject', { id, mask: 'name' })).name, 'renamed');
    const refused = await client.callRaw(DH, 'editObject', { id, args: [{ cpuCount: 8 }] });
    assert.match(refused.fault!.faultString, /'name' and 'notes' only, not 'cpuCount'/);
    assert.deepEqual(
      await h.demo.callRaw(DH, 'getObject', { id }).then((r) => r.fault?.faultCode),
      'Svc_Exception_ObjectNotFound',
    );
  });

  it('refuses an order naming the wrong router, no size or two hosts', async () => {
    const client = await freshAccount(h.emu);
    const refuse = async (overrides: Row, pattern: RegExp) => {
      const answer = await client.callRaw('Product_Order', 'verifyOrder', {
        args: [await container(client, overrides)],
      });
      assert.match(answer.fault?.faultString ?? '', pattern);
    };
    const dal13 = await routerIn(client, 'dal13');
    await refuse(
      {
        hardware: [
          {
            hostname: 'a',
            domain: 'example.com',
            primaryBackendNetworkComponent: { router: { id: dal13 } },
          },
        ],
      },
      /router\.id: \d+ is not a backend router of dal10/,
    );
    await refuse({ prices: [] }, /exactly one price, of the category dedicated_virtual_hosts/);
    await refuse({ quantity: 2 }, /a dedicated host order is for 1 host/);
    await refuse(
      { hardware: [{ hostname: 'a', domain: 'example.com' }] },
      /needs 'hardware\[0\]\.primaryBackendNetworkComponent\.router\.id'/,
    );
    assert.equal(await client.call('Account', 'getDedicatedHostCount'), 0);
  });

  it('places guests on the host within its capacity, refuses one that does not fit, and is cancelled only empty', async () => {
    const client = await freshAccount(h.emu);
    const { id } = await orderHost(client);
    const onHost = (hostname: string, cpus: number) =>
      guestTemplate({ hostname, startCpus: cpus, maxMemory: 65536, dedicatedHost: { id } });
    const guest = await client.call<Row>('Virtual_Guest', 'createObject', {
      args: [onHost('g1', 32)],
    });
    const full = await client.callRaw('Virtual_Guest', 'createObject', {
      args: [onHost('g2', 32)],
    });
    assert.equal(full.fault?.faultCode, 'Svc_Exception_Virtual_Host_Pool_InsufficientCapacity');
    assert.match(
      full.fault!.faultString,
      /Dedicated host \d+ has insufficient capacity for g2: it has 16 cores, 128 GB/,
    );
    const elsewhere = await client.callRaw('Virtual_Guest', 'createObject', {
      args: [{ ...onHost('g3', 1), datacenter: { name: 'dal13' } }],
    });
    assert.match(
      elsewhere.fault?.faultString ?? '',
      /dedicatedHost\.id: dedicated host \d+ is in another datacenter than dal13/,
    );
    const foreign = await h.demo.callRaw('Virtual_Guest', 'createObject', {
      args: [onHost('g4', 1)],
    });
    assert.match(
      foreign.fault?.faultString ?? '',
      /dedicated host \d+ does not exist on this account/,
    );

    const host = await client.call<Row>(DH, 'getObject', {
      id,
      mask: 'guestCount,allocationStatus[cpuAvailable,memoryAvailable,diskAvailable],guests[id,dedicatedAccountHostOnlyFlag]',
    });
    const { guestCount, allocationStatus, guests } = host;
    assert.deepEqual(
      { guestCount, allocationStatus, guests },
      {
        guestCount: 1,
        allocationStatus: { cpuAvailable: 16, memoryAvailable: 128, diskAvailable: 975 },
        guests: [{ id: guest.id, dedicatedAccountHostOnlyFlag: true }],
      },
    );
    const onGuest = await client.call<Row>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'dedicatedHost.id',
    });
    assert.equal(onGuest.dedicatedHost.id, id);

    // An upgrade on the host needs room for what the guest grows by, from its order on.
    const upgrades = await client.call<Row[]>('Virtual_Guest', 'getUpgradeItemPrices', {
      id: guest.id,
      args: [true],
      mask: 'mask[id, categories.categoryCode, item.capacity]',
    });
    const cores = (n: number) => ({
      complexType: 'Svc_Container_Product_Order_Virtual_Guest_Upgrade',
      virtualGuests: [{ id: guest.id }],
      prices: [
        {
          id: upgrades.find(
            (p) => p.categories[0].categoryCode === 'guest_core' && Number(p.item.capacity) === n,
          )!.id,
        },
      ],
      properties: [{ name: 'MAINTENANCE_WINDOW', value: new Date().toISOString() }],
    });
    const tooBig = await client.callRaw('Product_Order', 'verifyOrder', { args: [cores(56)] });
    assert.equal(tooBig.fault?.faultCode, 'Svc_Exception_Virtual_Host_Pool_InsufficientCapacity');
    assert.match(
      tooBig.fault!.faultString,
      /to upgrade g1: it has 16 cores.*the upgrade needs more: 24 cores/,
    );
    await client.call('Product_Order', 'placeOrder', { args: [cores(48)] });
    const grown = await client.call<Row>(DH, 'getObject', {
      id,
      mask: 'allocationStatus.cpuAvailable',
    });
    assert.equal(grown.allocationStatus.cpuAvailable, 0, 'the upgrade holds its cores at once');

    const busy = await client.callRaw(DH, 'deleteObject', { id });
    assert.match(
      busy.fault?.faultString ?? '',
      new RegExp(`still has guests \\(${guest.id}\\); cancel the guests`),
    );
    await client.call('Virtual_Guest', 'deleteObject', { id: guest.id });
    assert.equal(await client.call(DH, 'deleteObject', { id }), true);
    assert.equal(await client.call('Account', 'getDedicatedHostCount'), 0);
  });

  it('is cancelled through its billing item: hourly at once, monthly at the anniversary', async () => {
    const client = await freshAccount(h.emu);
    const hourly = await orderHost(client);
    const monthly = await orderHost(client, {
      useHourlyPricing: false,
      hardware: [
        {
          hostname: 'dh2',
          domain: 'example.com',
          primaryBackendNetworkComponent: { router: { id: await routerIn(client, 'dal10') } },
        },
      ],
    });
    const itemOf = async (id: number) =>
      (await client.call<Row>(DH, 'getObject', { id, mask: 'billingItem.id' })).billingItem.id;
    const [hourlyItem, monthlyItem] = [await itemOf(hourly.id), await itemOf(monthly.id)];
    await client.call('Billing_Item', 'cancelItem', {
      id: hourlyItem,
      args: [false, true, 'done'],
    });
    await client.call('Billing_Item', 'cancelItem', {
      id: monthlyItem,
      args: [false, true, 'done'],
    });
    const left = await client.call<Row[]>('Account', 'getDedicatedHosts', {
      mask: 'id,billingItem.cancellationDate',
    });
    assert.deepEqual(
      left.map((x) => x.id),
      [monthly.id],
      'the hourly host is gone at once',
    );
    assert.ok(left[0].billingItem.cancellationDate, 'the monthly host ends at its anniversary');
    const again = await client.callRaw('Billing_Item', 'cancelItem', {
      id: monthlyItem,
      args: [false, true, 'x'],
    });
    assert.match(again.fault?.faultString ?? '', /already been cancelled/);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGuest, freshAccount, sleep, useEmulator } from '../support/emulator-harness';
import type { EmulatorClient } from '../support/emulator-client';

const DELAY_MS = 2000;
const h = useEmulator({ provisioningDelayMs: DELAY_MS });

type Row = Record<string, any>;
const ORDER = 'Svc_Container_Product_Order_Network_Storage_AsAService';
const UPGRADE = 'Svc_Container_Product_Order_Network_Storage_AsAService_Upgrade';

/** The storage package's price ids, read as a client reads them (Product_Package.getItems). */
async function priceIds(client: EmulatorClient) {
  const items = await client.call<Row[]>('Product_Package', 'getItems', {
    id: 759,
    mask: 'mask[keyName,capacity,capacityMinimum,capacityMaximum,itemCategory,prices[id,capacityRestrictionMinimum,capacityRestrictionMaximum]]',
  });
  const price = (pick: (i: Row) => boolean) => {
    const found = items.find(pick);
    assert.ok(found, 'the package sells it');
    return { id: found.prices[0].id as number };
  };
  const inCategory = (code: string) => (i: Row) => i.itemCategory.categoryCode === code;
  return {
    service: price(inCategory('storage_as_a_service')),
    block: price(inCategory('storage_block')),
    file: price(inCategory('storage_file')),
    tier: (capacity: number) =>
      price((i) => inCategory('storage_tier_level')(i) && Number(i.capacity) === capacity),
    tierSpace: (key: string) => price((i) => i.keyName === `STORAGE_SPACE_FOR_${key}_IOPS_PER_GB`),
    perfSpace: (gb: number) =>
      price(
        (i) =>
          /_GBS$/.test(i.keyName) &&
          Number(i.capacityMinimum) <= gb &&
          gb <= Number(i.capacityMaximum),
      ),
    iops: (gb: number) =>
      price(
        (i) =>
          inCategory('performance_storage_iops')(i) &&
          Number(i.prices[0].capacityRestrictionMinimum) <= gb &&
          gb <= Number(i.prices[0].capacityRestrictionMaximum),
      ),
  };
}

type Prices = Awaited<ReturnType<typeof priceIds>>;

/** An endurance block order at 2 IOPS per GB (tier capacity 200). */
const blockOrder = (p: Prices, over: Record<string, unknown> = {}) => ({
  complexType: ORDER,
  packageId: 759,
  location: 'dal10',
  quantity: 1,
  useHourlyPricing: false,
  volumeSize: 20,
  osFormatType: { keyName: 'LINUX' },
  prices: [p.service, p.block, p.tierSpace('2'), p.tier(200)],
  ...over,
});

const byToken = (client: EmulatorClient, token: string) =>
  client.call<Row[]>('Account', 'getNetworkStorage', {
    mask: 'mask[id,capacityGb,billingItem[id,recurringFee,cancellationDate]]',
    filter: { networkStorage: { properties: { value: { operation: token } } } },
  });

async function orderedVolume(
  client: EmulatorClient,
  p: Prices,
  over: Record<string, unknown> = {},
) {
  const token = `t-${Math.random().toString(36).slice(2)}`;
  await client.call('Product_Order', 'placeOrder', {
    args: [blockOrder(p, { containerIdentifier: token, ...over })],
  });
  const [volume] = await byToken(client, token);
  return volume;
}

/** Waits until the volume's transactions (provisioning, a modification) are done. */
async function settled(client: EmulatorClient, id: number) {
  for (;;) {
    const v = await client.call<Row>('Network_Storage', 'getObject', {
      id,
      mask: 'activeTransactionCount',
    });
    if (v.activeTransactionCount === 0) return;
    await sleep(100);
  }
}

const fault = async (client: EmulatorClient, service: string, method: string, options: any) => {
  const res = await client.callRaw(service, method, options);
  assert.ok(res.fault, `${service}.${method} is refused`);
  return res.fault;
};

const VOLUME_MASK =
  'mask[id,username,capacityGb,nasType,storageType.keyName,storageTierLevel,provisionedIops,serviceResource.datacenter.name,serviceResourceBackendIpAddress,lunId,fileNetworkMountAddress,osType.keyName,activeTransactionCount,activeTransactions.transactionStatus.name,billingItem[hourlyFlag,recurringFee,categoryCode]]';

describe('Network_Storage', () => {
  it('orders endurance block and performance file volumes from package 759; they provision, then list on the account', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const verified = await client.call<Row>('Product_Order', 'verifyOrder', {
      args: [blockOrder(p)],
    });
    // 20 GB at .00019 per GB-hour, 730 hours a month.
    assert.equal(verified.postTaxRecurringMonthly, '2.77');
    const file = await orderedVolume(client, p, {
      osFormatType: undefined,
      useHourlyPricing: true,
      volumeSize: 100,
      iops: 1000,
      prices: [p.service, p.file, p.perfSpace(100), p.iops(100)],
    });
    const block = await orderedVolume(client, p);
    const shown = (id: number) =>
      client.call<Row>('Network_Storage', 'getObject', { id, mask: VOLUME_MASK });
    const provisioning = await shown(block.id);
    assert.equal(provisioning.activeTransactionCount, 1);
    assert.equal(provisioning.activeTransactions[0].transactionStatus.name, 'PROVISION');
    await settled(client, block.id);
    await settled(client, file.id);
    const b = await shown(block.id);
    assert.equal(b.activeTransactionCount, 0);
    assert.equal(b.nasType, 'ISCSI');
    assert.equal(b.storageType.keyName, 'ENDURANCE_BLOCK_STORAGE');
    assert.equal(b.storageTierLevel, 'READHEAVY_TIER');
    assert.equal(b.provisionedIops, '40');
    assert.equal(b.capacityGb, 20);
    assert.equal(b.osType.keyName, 'LINUX');
    assert.equal(b.serviceResource.datacenter.name, 'dal10');
    assert.equal(b.billingItem.categoryCode, 'storage_as_a_service');
    assert.equal(b.billingItem.hourlyFlag, false);
    assert.ok(b.lunId !== undefined && b.fileNetworkMountAddress === undefined);
    const f = await shown(file.id);
    assert.equal(f.nasType, 'NAS');
    assert.equal(f.storageType.keyName, 'PERFORMANCE_FILE_STORAGE');
    assert.equal(f.provisionedIops, '1000');
    assert.equal(f.billingItem.hourlyFlag, true);
    assert.match(f.fileNetworkMountAddress, /^10\.[\d.]+:\/SVC02SV\d+_1\/data01$/);
    const ids = async (method: string) =>
      (await client.call<Row[]>('Account', method, { mask: 'id' })).map((v) => v.id);
    assert.deepEqual(await ids('getIscsiNetworkStorage'), [block.id]);
    assert.deepEqual(await ids('getNasNetworkStorage'), [file.id]);
    assert.deepEqual((await ids('getNetworkStorage')).sort(), [block.id, file.id].sort());
  });

  it('refuses orders as the API does, naming the property, before anything is made', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ osFormatType: undefined }, /osFormatType/],
      [{ osFormatType: { keyName: 'BEOS' } }, /osFormatType/],
      [{ volumeSize: 10 }, /volumeSize.*20 to 12000/],
      [
        { prices: [p.service, p.block, p.tierSpace('4'), p.tier(200)] },
        /not the space of the tier/,
      ],
      [{ prices: [p.service, p.block, p.tierSpace('2')] }, /exactly one of a storage_tier_level/],
      [
        { prices: [p.service, p.block, p.file, p.tierSpace('2'), p.tier(200)] },
        /storage_block and a storage_file/,
      ],
      [
        { prices: [p.service, p.block, p.perfSpace(20), p.iops(20)], iops: 150 },
        /'iops'.*steps of 100/,
      ],
      [
        { prices: [p.service, p.block, p.perfSpace(20), p.iops(20)], iops: 2000 },
        /'iops'.*100 to 1000/,
      ],
      [
        { prices: [p.service, p.block, p.perfSpace(100), p.iops(20)], volumeSize: 100, iops: 1000 },
        /for volumes of 20 to 99 GB/,
      ],
      [{ packageId: 835 }, /package 759/],
      [{ location: 'nowhere' }, /location/],
    ];
    for (const [over, message] of refusals) {
      const f = await fault(client, 'Product_Order', 'placeOrder', { args: [blockOrder(p, over)] });
      assert.match(f.faultString, message, JSON.stringify(over));
    }
    assert.deepEqual(await client.call('Account', 'getNetworkStorage'), []);
  });

  it('allows guests of its datacenter once provisioned; another datacenter and another account are refused', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const volume = await orderedVolume(client, p);
    const guest = await createGuest(client, { hostname: 'db1' });
    const far = await createGuest(client, { hostname: 'far', datacenter: { name: 'fra02' } });
    const early = await fault(client, 'Network_Storage', 'allowAccessFromVirtualGuest', {
      id: volume.id,
      args: [{ id: guest.id }],
    });
    assert.match(early.faultString, /still being provisioned/);
    await settled(client, volume.id);
    await client.call('Network_Storage', 'allowAccessFromVirtualGuest', {
      id: volume.id,
      args: [{ id: guest.id }],
    });
    await client.call('Network_Storage', 'allowAccessFromVirtualGuest', {
      id: volume.id,
      args: [{ id: guest.id }],
    });
    const allowed = () =>
      client.call<Row[]>('Network_Storage', 'getAllowedVirtualGuests', {
        id: volume.id,
        mask: 'id',
      });
    assert.deepEqual(
      (await allowed()).map((g) => g.id),
      [guest.id],
      'allowing twice changes nothing',
    );
    const attached = (nasType?: string) =>
      client.call<Row[]>('Virtual_Guest', 'getAttachedNetworkStorages', {
        id: guest.id,
        args: nasType ? [nasType] : [],
        mask: 'id',
      });
    assert.deepEqual(
      (await attached()).map((v) => v.id),
      [volume.id],
      "the guest's side",
    );
    assert.deepEqual(await attached('NAS'), []);
    const away = await fault(client, 'Network_Storage', 'allowAccessFromHostList', {
      id: volume.id,
      args: [[{ objectType: 'Svc_Virtual_Guest', id: far.id }]],
    });
    assert.match(away.faultString, /another datacenter/);
    const stranger = await freshAccount(h.emu);
    const theirs = await createGuest(stranger, { hostname: 'theirs' });
    const notFound = await fault(client, 'Network_Storage', 'allowAccessFromVirtualGuest', {
      id: volume.id,
      args: [{ id: theirs.id }],
    });
    assert.equal(notFound.faultCode, 'Svc_Exception_ObjectNotFound');
    const theirView = await fault(stranger, 'Network_Storage', 'getObject', { id: volume.id });
    assert.equal(theirView.faultCode, 'Svc_Exception_ObjectNotFound');
    await fault(stranger, 'Network_Storage', 'removeAccessFromVirtualGuest', {
      id: volume.id,
      args: [{ id: guest.id }],
    });
    await client.call('Network_Storage', 'removeAccessFromHostList', {
      id: volume.id,
      args: [[{ objectType: 'Svc_Virtual_Guest', id: guest.id }]],
    });
    assert.deepEqual(await allowed(), []);
  });

  it('resizes in place through an upgrade order: a larger size once the upgrade is done, never a smaller one', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const volume = await orderedVolume(client, p);
    const upgrade = (over: Record<string, unknown>) => ({
      complexType: UPGRADE,
      packageId: 759,
      volume: { id: volume.id },
      volumeSize: 40,
      prices: [p.service, p.tierSpace('2'), p.tier(200)],
      ...over,
    });
    const busy = await fault(client, 'Product_Order', 'placeOrder', { args: [upgrade({})] });
    assert.match(busy.faultString, /active transaction/);
    await settled(client, volume.id);
    await client.call('Product_Order', 'placeOrder', { args: [upgrade({})] });
    const read = () =>
      client.call<Row>('Network_Storage', 'getObject', {
        id: volume.id,
        mask: 'mask[capacityGb,provisionedIops,activeTransactions.transactionStatus.name,billingItem.recurringFee]',
      });
    const running = await read();
    assert.equal(running.capacityGb, 20, 'the old size until the upgrade is done');
    assert.equal(running.activeTransactions[0].transactionStatus.name, 'MODIFY');
    await settled(client, volume.id);
    const done = await read();
    assert.equal(done.capacityGb, 40);
    assert.equal(done.provisionedIops, '80');
    assert.equal(done.billingItem.recurringFee, '5.55');
    const smaller = await fault(client, 'Product_Order', 'verifyOrder', {
      args: [upgrade({ volumeSize: 30 })],
    });
    assert.match(smaller.faultString, /smaller than the current capacity.*40 GB/);
    const same = await fault(client, 'Product_Order', 'verifyOrder', {
      args: [upgrade({ volumeSize: 40 })],
    });
    assert.match(same.faultString, /changes nothing/);
    // Another tier in place: 4 IOPS per GB.
    await client.call('Product_Order', 'placeOrder', {
      args: [upgrade({ prices: [p.service, p.tierSpace('4'), p.tier(300)] })],
    });
    await settled(client, volume.id);
    assert.equal((await read()).provisionedIops, '160');
    const stranger = await freshAccount(h.emu);
    const theirs = await fault(stranger, 'Product_Order', 'verifyOrder', {
      args: [upgrade({ volumeSize: 80 })],
    });
    assert.equal(theirs.faultCode, 'Svc_Exception_ObjectNotFound');
  });

  it('snapshot space: ordered with the volume or later, billed as a child of its item, only grown; schedules need it', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const items = await client.call<Row[]>('Product_Package', 'getItems', {
      id: 759,
      mask: 'mask[capacity,itemCategory.categoryCode,prices[id,capacityRestrictionType,capacityRestrictionMinimum,capacityRestrictionMaximum]]',
    });
    // As the reference client picks it: the item of that capacity, the price of the volume's tier.
    const space = (gb: number, type: string, value: number) => {
      const item = items.find(
        (i) =>
          i.itemCategory.categoryCode === 'storage_snapshot_space' &&
          Number(i.capacity) === gb &&
          i.prices[0].capacityRestrictionType === type &&
          Number(i.prices[0].capacityRestrictionMinimum) <= value &&
          value <= Number(i.prices[0].capacityRestrictionMaximum),
      );
      assert.ok(item, `${gb} GB of snapshot space for ${type} ${value}`);
      return { id: item.prices[0].id as number };
    };
    const SPACE = 'Svc_Container_Product_Order_Network_Storage_Enterprise_SnapshotSpace';
    const withSpace = await orderedVolume(client, p, {
      prices: [...blockOrder(p).prices, space(20, 'STORAGE_TIER_LEVEL', 200)],
    });
    const bare = await orderedVolume(client, p);
    await settled(client, withSpace.id);
    await settled(client, bare.id);
    const shown = (id: number) =>
      client.call<Row>('Network_Storage', 'getObject', {
        id,
        mask: 'mask[snapshotCapacityGb,schedules[type.keyname,properties[value,type.keyname]],billingItem[recurringFee,activeChildren[categoryCode,recurringFee]]]',
      });
    const a = await shown(withSpace.id);
    assert.equal(a.snapshotCapacityGb, '20');
    assert.deepEqual(
      a.billingItem.activeChildren.map((c: Row) => c.categoryCode),
      ['storage_snapshot_space'],
    );
    const plain = await shown(bare.id);
    assert.equal(plain.snapshotCapacityGb, '0');
    assert.ok(Number(a.billingItem.recurringFee) > Number(plain.billingItem.recurringFee));

    const order = (id: number, price: { id: number }, over: Row = {}) => ({
      args: [
        {
          complexType: SPACE,
          packageId: 759,
          volumeId: id,
          location: 'dal10',
          quantity: 1,
          useHourlyPricing: false,
          prices: [price],
          ...over,
        },
      ],
    });
    // A schedule needs snapshot space.
    const noSpace = await fault(client, 'Network_Storage', 'enableSnapshots', {
      id: bare.id,
      args: ['DAILY', 7, 0, 2, 'SUNDAY'],
    });
    assert.match(noSpace.faultString, /no snapshot space; order snapshot space before/);
    const wrongTier = await fault(client, 'Product_Order', 'placeOrder', {
      ...order(bare.id, space(20, 'STORAGE_TIER_LEVEL', 300)),
    });
    assert.match(wrongTier.faultString, /not a snapshot space price for a 2 IOPS per GB volume/);
    const second = await fault(client, 'Product_Order', 'placeOrder', {
      ...order(withSpace.id, space(40, 'STORAGE_TIER_LEVEL', 200)),
    });
    assert.match(
      second.faultString,
      /already has 20 GB of snapshot space; order more with .*_Upgrade/,
    );
    const smaller = await fault(client, 'Product_Order', 'placeOrder', {
      ...order(withSpace.id, space(10, 'STORAGE_TIER_LEVEL', 200), {
        complexType: `${SPACE}_Upgrade`,
      }),
    });
    assert.match(smaller.faultString, /not larger than .* snapshot space can only grow/);
    await client.call(
      'Product_Order',
      'placeOrder',
      order(bare.id, space(10, 'STORAGE_TIER_LEVEL', 200)),
    );
    await client.call('Product_Order', 'placeOrder', {
      ...order(withSpace.id, space(40, 'STORAGE_TIER_LEVEL', 200), {
        complexType: `${SPACE}_Upgrade`,
      }),
    });
    assert.equal((await shown(bare.id)).snapshotCapacityGb, '10');
    assert.equal((await shown(withSpace.id)).snapshotCapacityGb, '40');

    // Schedules: one per type, replaced by a second enable, removed by disable; 50 kept at most.
    const enable = (...args: unknown[]) =>
      client.call('Network_Storage', 'enableSnapshots', { id: bare.id, args });
    await enable('DAILY', 7, 30, 2, 'SUNDAY');
    await enable('WEEKLY', 4, 0, 3, 'SATURDAY');
    await enable('DAILY', 5, 0, 1, 'SUNDAY');
    const tooMany = await fault(client, 'Network_Storage', 'enableSnapshots', {
      id: bare.id,
      args: ['HOURLY', 45, 0, 0, 'SUNDAY'],
    });
    assert.match(tooMany.faultString, /would keep 54 snapshots; a volume keeps at most 50/);
    await client.call('Network_Storage', 'disableSnapshots', { id: bare.id, args: ['WEEKLY'] });
    const [daily] = (await shown(bare.id)).schedules;
    assert.equal(daily.type.keyname, 'SNAPSHOT_DAILY');
    assert.deepEqual(
      Object.fromEntries(daily.properties.map((q: Row) => [q.type.keyname, q.value])),
      { MINUTE: '0', HOUR: '1', SNAPSHOT_LIMIT: '5' },
    );
  });

  it('allows the private addresses of its datacenter by their records; a public one is refused', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const guest = await createGuest(client, { datacenter: { name: 'dal10' } });
    const volume = await orderedVolume(client, p);
    await settled(client, volume.id);
    const ips = await client.call<Row[]>('Account', 'getIpAddresses', {
      mask: 'mask[id,ipAddress,virtualGuest.id,subnet.addressSpace]',
    });
    const of = (space: string) =>
      ips.find((i) => i.virtualGuest?.id === guest.id && i.subnet.addressSpace === space)!;
    const publicIp = await fault(client, 'Network_Storage', 'allowAccessFromIpAddress', {
      id: volume.id,
      args: [{ id: of('PUBLIC').id }],
    });
    assert.match(publicIp.faultString, /is public: a volume is reached over the private network/);
    await client.call('Network_Storage', 'allowAccessFromIpAddressList', {
      id: volume.id,
      args: [[{ id: of('PRIVATE').id }]],
    });
    const allowed = async () =>
      (
        await client.call<Row>('Network_Storage', 'getObject', {
          id: volume.id,
          mask: 'allowedIpAddresses.ipAddress',
        })
      ).allowedIpAddresses.map((a: Row) => a.ipAddress);
    assert.deepEqual(await allowed(), [of('PRIVATE').ipAddress]);
    await client.call('Network_Storage', 'removeAccessFromHostList', {
      id: volume.id,
      args: [[{ objectType: 'Svc_Network_Subnet_IpAddress', id: of('PRIVATE').id }]],
    });
    assert.deepEqual(await allowed(), []);
  });

  it('edits notes only', async () => {
    const client = await freshAccount(h.emu);
    const volume = await orderedVolume(client, await priceIds(client));
    await client.call('Network_Storage', 'editObject', {
      id: volume.id,
      args: [{ notes: 'db data' }],
    });
    const read = await client.call<Row>('Network_Storage', 'getObject', {
      id: volume.id,
      mask: 'notes',
    });
    assert.equal(read.notes, 'db data');
    const f = await fault(client, 'Network_Storage', 'editObject', {
      id: volume.id,
      args: [{ capacityGb: 80 }],
    });
    assert.match(f.faultString, /'notes' only, not 'capacityGb'/);
  });

  it('cancels through its billing item: monthly at the anniversary, or at once', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    const monthly = await orderedVolume(client, p);
    const early = await fault(client, 'Billing_Item', 'cancelItem', {
      id: monthly.billingItem.id,
      args: [true, true, 'No longer needed'],
    });
    assert.match(early.faultString, /active transaction/);
    await settled(client, monthly.id);
    await client.call('Billing_Item', 'cancelItem', {
      id: monthly.billingItem.id,
      args: [false, true, 'x'],
    });
    const [still] = await client.call<Row[]>('Account', 'getIscsiNetworkStorage', {
      mask: 'id,billingItem.cancellationDate',
    });
    assert.equal(still.id, monthly.id, 'billed and kept until the anniversary');
    const now = new Date();
    const anniversary = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    assert.equal(new Date(still.billingItem.cancellationDate).getTime(), anniversary.getTime());
    // Asked again at once: gone now.
    await client.call('Billing_Item', 'cancelItem', {
      id: monthly.billingItem.id,
      args: [true, true, 'x'],
    });
    assert.deepEqual(await client.call('Account', 'getIscsiNetworkStorage'), []);
    const gone = await fault(client, 'Network_Storage', 'getObject', { id: monthly.id });
    assert.equal(gone.faultCode, 'Svc_Exception_ObjectNotFound');
    const again = await fault(client, 'Billing_Item', 'cancelItem', {
      id: monthly.billingItem.id,
      args: [true],
    });
    assert.match(again.faultString, /already been cancelled/);
  });

  it('makes one volume when the order answer is lost or a 500 follows the commit; its identifier finds it', async () => {
    const client = await freshAccount(h.emu);
    const p = await priceIds(client);
    for (const fault of ['lose-response', 'error-after-commit'] as const) {
      const token = `lost-${fault}`;
      h.emu.setFaults({
        once: { service: 'Product_Order', method: 'placeOrder', fault, status: 500 },
      });
      const res = await client
        .callRaw('Product_Order', 'placeOrder', {
          args: [blockOrder(p, { containerIdentifier: token })],
        })
        .catch((err: unknown) => ({ error: err }));
      assert.ok('error' in res || (res as Row).status >= 500, `${fault}: no answer to read`);
      h.emu.setFaults(null);
      const found = await byToken(client, token);
      assert.equal(
        found.length,
        1,
        `${fault}: exactly one volume, found by its container identifier`,
      );
    }
    assert.equal(
      h.emu.objects(
        (await client.call<Row>('Account', 'getCurrentUser', { mask: 'username' })).username,
      ).billingItems.length,
      2,
    );
  });
});

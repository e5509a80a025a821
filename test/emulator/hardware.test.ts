/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAccount, sleep, useEmulator } from '../support/emulator-harness';
import type { EmulatorClient } from '../support/emulator-client';

const STAGE_MS = 250;
const h = useEmulator({ provisioningDelayMs: STAGE_MS });

type Row = Record<string, any>;
const ORDER = 'Svc_Container_Product_Order_Hardware_Server';
const MASK =
  'mask[id,hostname,domain,notes,provisionDate,primaryIpAddress,hourlyBillingFlag,operatingSystemReferenceCode,hardwareStatus.status,activeTransaction.transactionStatus.name,lastOperatingSystemReload.id,billingItem[id,hourlyFlag,recurringFee,cancellationDate],tagReferences.tag.name,sshKeys.id,userData.value]';

/** The package's presets and prices, read as a client reads them. */
async function catalog(client: EmulatorClient) {
  const presets = await client.call<Row[]>('Product_Package', 'getActivePresets', {
    id: 200,
    mask: 'mask[id,keyName,totalMinimumHourlyFee,totalMinimumRecurringFee]',
  });
  const items = await client.call<Row[]>('Product_Package', 'getItems', {
    id: 200,
    mask: 'mask[keyName,capacity,itemCategory.categoryCode,prices.id]',
  });
  const price = (pick: (i: Row) => boolean) => ({ id: items.find(pick)!.prices[0].id as number });
  return {
    hourlyPreset: presets.find((p) => p.totalMinimumHourlyFee !== undefined)!.id as number,
    monthlyOnly: presets.find((p) => p.totalMinimumHourlyFee === undefined)!.id as number,
    presets,
    os: price((i) => i.itemCategory.categoryCode === 'os'),
    port: (mbps: number) =>
      price((i) => i.itemCategory.categoryCode === 'port_speed' && Number(i.capacity) === mbps),
  };
}

type Catalog = Awaited<ReturnType<typeof catalog>>;

const order = (c: Catalog, over: Record<string, unknown> = {}) => ({
  complexType: ORDER,
  packageId: 200,
  presetId: c.hourlyPreset,
  location: 'dal10',
  quantity: 1,
  useHourlyPricing: true,
  prices: [c.os, c.port(1000)],
  hardware: [
    {
      hostname: 'bm1',
      domain: 'example.com',
      userData: [{ value: '#!/bin/sh\necho hi' }],
      tagReferences: [{ tag: { name: 'token-abc' } }],
    },
  ],
  ...over,
});

const fault = async (client: EmulatorClient, service: string, method: string, options: any) => {
  const res = await client.callRaw(service, method, options);
  assert.ok(res.fault, `${service}.${method} is refused`);
  return res.fault;
};

const servers = (client: EmulatorClient) =>
  client.call<Row[]>('Account', 'getHardware', { mask: 'mask[id,hostname]' });

async function place(client: EmulatorClient, container: Row): Promise<Row> {
  const receipt = await client.call<Row>('Product_Order', 'placeOrder', { args: [container] });
  return receipt.orderDetails.hardware[0];
}

async function untilStatus(client: EmulatorClient, id: number, done: (s: Row) => boolean) {
  for (let i = 0; i < 100; i += 1) {
    const s = await client.call<Row>('Hardware_Server', 'getObject', { id, mask: MASK });
    if (done(s)) return s;
    await sleep(50);
  }
  throw new Error(`server ${id} did not get there`);
}

describe('Hardware_Server ordered through Product_Order', () => {
  it('orders once from a preset, provisions in stages, is found by its tag; another account sees nothing', async () => {
    h.emu.settings.hardwareStageMs = STAGE_MS * 2;
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    assert.equal(c.presets.length, 4);
    const verified = await client.call<Row>('Product_Order', 'verifyOrder', { args: [order(c)] });
    assert.equal(verified.presetId, c.hourlyPreset);
    assert.ok(Number(verified.postTaxRecurringHourly) > 0);
    assert.equal((await servers(client)).length, 0, 'verifyOrder orders nothing');

    const made = await place(client, order(c));
    const stages = new Set<string>();
    const ready = await untilStatus(client, made.id, (s) => {
      if (s.activeTransaction) stages.add(s.activeTransaction.transactionStatus.name);
      return s.provisionDate !== undefined;
    });
    // Seen in the API's order, and more than one of them (polls on a busy machine may miss one).
    const order4 = ['HARDWARE_ALLOCATION', 'HARDWARE_TESTING', 'OS_INSTALL', 'NETWORK_SETUP'];
    assert.deepEqual(
      [...stages],
      order4.filter((s) => stages.has(s)),
    );
    assert.ok(stages.size >= 2, [...stages].join());
    assert.equal(ready.hardwareStatus.status, 'ACTIVE');
    assert.ok(ready.primaryIpAddress);
    assert.equal(ready.hourlyBillingFlag, true);
    assert.equal(ready.userData[0].value, '#!/bin/sh\necho hi');
    assert.equal(ready.billingItem.hourlyFlag, true);

    // A client that lost the answer finds the server by its creation token.
    const found = await client.call<Row[]>('Account', 'getHardware', {
      mask: 'mask[id]',
      filter: { hardware: { tagReferences: { tag: { name: { operation: 'token-abc' } } } } },
    });
    assert.deepEqual(
      found.map((s) => s.id),
      [made.id],
    );

    const other = await freshAccount(h.emu);
    assert.equal((await servers(other)).length, 0);
    const hidden = await fault(other, 'Hardware_Server', 'getObject', { id: made.id });
    assert.equal(hidden.faultCode, 'Svc_Exception_ObjectNotFound');
    const cancel = await fault(other, 'Billing_Item', 'cancelItem', {
      id: ready.billingItem.id,
      args: [true, false, 'No longer needed', ''],
    });
    assert.equal(cancel.faultCode, 'Svc_Exception_ObjectNotFound');
    assert.equal((await servers(client)).length, 1);
  });

  it('makes one server when the order answer is lost; its tag finds it', async () => {
    h.emu.settings.hardwareStageMs = STAGE_MS;
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    h.emu.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response', status: 500 },
    });
    const container = order(c, {
      hardware: [
        { hostname: 'lost', domain: 'example.com', tagReferences: [{ tag: { name: 'tok-lost' } }] },
      ],
    });
    const res = await client
      .callRaw('Product_Order', 'placeOrder', { args: [container] })
      .catch((err: unknown) => ({ error: err }));
    h.emu.setFaults(null);
    assert.ok('error' in res || (res as Row).status >= 500, 'no answer to read');
    const found = await client.call<Row[]>('Account', 'getHardware', {
      mask: 'mask[id,hostname]',
      filter: { hardware: { tagReferences: { tag: { name: { operation: 'tok-lost' } } } } },
    });
    assert.equal(found.length, 1);
    assert.equal(found[0].hostname, 'lost');
    assert.equal((await servers(client)).length, 1, 'one order, one server');
  });

  it('takes its stage length and failing stage over the admin API, refusing an unknown stage', async () => {
    const post = (body: unknown) =>
      fetch(`${h.emu.adminUrl}/settings`, { method: 'POST', body: JSON.stringify(body) });
    const bad = await post({ failHardwareAt: 'NOWHERE' });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /failHardwareAt must be one of HARDWARE_ALLOCATION/);
    assert.equal((await post({ hardwareStageMs: 40, failHardwareAt: 'OS_INSTALL' })).status, 200);
    assert.equal(h.emu.settings.hardwareStageMs, 40);
    assert.equal(h.emu.settings.failHardwareAt, 'OS_INSTALL');
    assert.equal((await post({ failHardwareAt: null })).status, 200);
    assert.equal(h.emu.settings.failHardwareAt, undefined);
  });

  it('refuses bad orders naming the field, writing nothing', async () => {
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    const cases: [Row, RegExp][] = [
      [{ packageId: 835 }, /package 200/],
      [{ presetId: 12345 }, /Invalid preset #12345/],
      [{ presetId: c.monthlyOnly }, /billed monthly only.*useHourlyPricing/],
      [{ prices: [c.os] }, /category port_speed/],
      [{ prices: [c.os, c.port(1000), c.port(100)] }, /port_speed is given twice/],
      [{ prices: [c.os, { id: 2710 }] }, /Price #2710/],
      [{ quantity: 2 }, /quantity 2 and 1 entries in 'hardware'/],
      [{ hardware: [{ hostname: 'bad_host!', domain: 'example.com' }] }, /hardware\[0\]\.hostname/],
      [{ sshKeys: [{ sshKeyIds: [999999] }] }, /999999/],
    ];
    for (const [over, message] of cases) {
      const f = await fault(client, 'Product_Order', 'placeOrder', { args: [order(c, over)] });
      assert.match(f.faultString, message, JSON.stringify(over));
    }
    assert.equal((await servers(client)).length, 0);
  });

  it('a failed provisioning stays failed and can be cancelled', async () => {
    h.emu.settings.hardwareStageMs = STAGE_MS;
    h.emu.settings.failHardwareAt = 'HARDWARE_TESTING';
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    let made: Row;
    try {
      made = await place(client, order(c));
    } finally {
      delete h.emu.settings.failHardwareAt;
    }
    const failed = await untilStatus(
      client,
      made.id,
      (s) => s.activeTransaction?.transactionStatus.name === 'PROVISION_FAILED',
    );
    await sleep(STAGE_MS * 4);
    const later = await client.call<Row>('Hardware_Server', 'getObject', {
      id: made.id,
      mask: MASK,
    });
    assert.equal(later.provisionDate, undefined, 'never provisioned');
    assert.equal(later.hardwareStatus.status, 'DEPLOY_FAILED');
    const reload = await fault(client, 'Hardware_Server', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE'],
    });
    assert.match(reload.faultString, /provisioning failed/);
    await client.call('Billing_Item', 'cancelItem', { id: failed.billingItem.id, args: [false] });
    assert.equal((await servers(client)).length, 0, 'hourly: gone at once');
  });

  it('reloads its OS in place, edits hostname and notes; a monthly server is cancelled at the anniversary unless immediate', async () => {
    h.emu.settings.hardwareStageMs = 50;
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    const monthly = order(c, { presetId: c.monthlyOnly, useHourlyPricing: false });
    const made = await place(client, monthly);
    const ready = await untilStatus(client, made.id, (s) => s.provisionDate !== undefined);
    assert.equal(ready.hourlyBillingFlag, false);

    const centos = await client.call<Row[]>('Product_Package', 'getItems', {
      id: 200,
      mask: 'mask[keyName,itemCategory.categoryCode,prices.id]',
    });
    const other = centos.find(
      (i) => i.itemCategory.categoryCode === 'os' && i.prices[0].id !== c.os.id,
    )!;
    h.emu.settings.hardwareStageMs = 1000; // long enough to see the reload running
    await client.call('Hardware_Server', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE', { itemPrices: [{ id: other.prices[0].id }] }],
    });
    const busy = await fault(client, 'Hardware_Server', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE'],
    });
    assert.match(busy.faultString, /active transaction/);
    const reloaded = await untilStatus(client, made.id, (s) => !s.activeTransaction);
    assert.notEqual(reloaded.operatingSystemReferenceCode, ready.operatingSystemReferenceCode);
    assert.equal(reloaded.id, ready.id);
    assert.equal(reloaded.primaryIpAddress, ready.primaryIpAddress);

    await client.call('Hardware_Server', 'editObject', {
      id: made.id,
      args: [{ hostname: 'bm2', notes: 'rack 4' }],
    });
    const bad = await fault(client, 'Hardware_Server', 'editObject', {
      id: made.id,
      args: [{ memoryCapacity: 64 }],
    });
    assert.match(bad.faultString, /not 'memoryCapacity'/);
    await client.call('Hardware_Server', 'setTags', { id: made.id, args: ['a, b'] });
    const edited = await client.call<Row>('Hardware_Server', 'getObject', {
      id: made.id,
      mask: MASK,
    });
    assert.equal(edited.hostname, 'bm2');
    assert.equal(edited.notes, 'rack 4');
    assert.deepEqual(edited.tagReferences.map((r: Row) => r.tag.name).sort(), ['a', 'b']);

    await client.call('Billing_Item', 'cancelItem', { id: ready.billingItem.id, args: [false] });
    const scheduled = await client.call<Row>('Hardware_Server', 'getObject', {
      id: made.id,
      mask: MASK,
    });
    assert.ok(scheduled.billingItem.cancellationDate, 'billed until the anniversary');
    assert.ok(new Date(scheduled.billingItem.cancellationDate).getTime() > Date.now());
    await client.call('Billing_Item', 'cancelItem', { id: ready.billingItem.id, args: [true] });
    assert.equal((await servers(client)).length, 0, 'immediate: gone at once');
  });

  it('sets an uplink speed up to its port, in force a stage later (busy meanwhile); redundant only when ordered so, at a price of its own', async () => {
    h.emu.settings.hardwareStageMs = 50;
    const client = await freshAccount(h.emu);
    const c = await catalog(client);
    const uplinks =
      'mask[primaryNetworkComponent[maxSpeed,speed,redundancyCapableFlag,redundancyEnabledFlag],primaryBackendNetworkComponent[maxSpeed,speed]]';
    const read = () =>
      client.call<Row>('Hardware_Server', 'getObject', { id: made.id, mask: uplinks });
    const made = await place(client, order(c));
    await untilStatus(client, made.id, (s) => s.provisionDate !== undefined);
    const ordered = await read();
    assert.deepEqual(
      [ordered.primaryNetworkComponent, ordered.primaryBackendNetworkComponent.speed],
      [
        { maxSpeed: 1000, speed: 1000, redundancyCapableFlag: false, redundancyEnabledFlag: false },
        1000,
      ],
    );

    const set = (method: string, args: unknown[]) =>
      client.callRaw('Hardware_Server', method, { id: made.id, args });
    const refused = async (method: string, args: unknown[]) => {
      const res = await set(method, args);
      assert.ok(res.fault, `${method}(${JSON.stringify(args)}) is refused`);
      return [String(res.fault.faultCode), String(res.fault.faultString)];
    };
    assert.match((await refused('setPublicNetworkInterfaceSpeed', [10000]))[0], /NotSupported/);
    assert.match((await refused('setPublicNetworkInterfaceSpeed', [250]))[0], /InvalidValue/);
    assert.match(
      (await refused('setPublicNetworkInterfaceSpeed', [100, 'redundant']))[1],
      /'redundant' is not available/,
    );
    h.emu.settings.hardwareStageMs = 1000; // long enough to see the change pending
    assert.equal((await set('setPublicNetworkInterfaceSpeed', [100])).value, true);
    assert.equal((await read()).primaryNetworkComponent.speed, 1000, 'not yet in force');
    assert.match((await refused('setPrivateNetworkInterfaceSpeed', [100]))[0], /NotReady/);
    let done = await read();
    for (let i = 0; i < 60 && done.primaryNetworkComponent.speed !== 100; i += 1) {
      await sleep(50);
      done = await read();
    }
    assert.equal(done.primaryNetworkComponent.speed, 100, 'in force a stage later');
    assert.deepEqual(
      [done.primaryNetworkComponent.maxSpeed, done.primaryBackendNetworkComponent.speed],
      [1000, 1000],
      'the port stays what was ordered; the other uplink is untouched',
    );
    assert.equal(
      (await set('setPublicNetworkInterfaceSpeed', [100])).value,
      false,
      'no change needed',
    );

    // Redundant uplinks: their own item, dearer; ordered so, the server shows it.
    const items = await client.call<Row[]>('Product_Package', 'getItems', {
      id: 200,
      mask: 'mask[keyName,capacity,itemCategory.categoryCode,prices[id,hourlyRecurringFee]]',
    });
    const port = (key: string) => items.find((i) => i.keyName === key)!;
    const single = port('1000_MBPS_PUBLIC_PRIVATE_NETWORK_UPLINKS');
    const redundant = port('1000_MBPS_REDUNDANT_PUBLIC_PRIVATE_NETWORK_UPLINKS');
    assert.ok(
      Number(redundant.prices[0].hourlyRecurringFee) > Number(single.prices[0].hourlyRecurringFee),
    );
    h.emu.settings.hardwareStageMs = 50;
    const both = await place(client, order(c, { prices: [c.os, { id: redundant.prices[0].id }] }));
    const ready = await untilStatus(client, both.id, (s) => s.provisionDate !== undefined);
    const flags = await client.call<Row>('Hardware_Server', 'getObject', {
      id: ready.id,
      mask: uplinks,
    });
    assert.deepEqual(
      [
        flags.primaryNetworkComponent.redundancyCapableFlag,
        flags.primaryNetworkComponent.redundancyEnabledFlag,
      ],
      [true, true],
    );
    const kept = await client.callRaw('Hardware_Server', 'setPublicNetworkInterfaceSpeed', {
      id: ready.id,
      args: [100, 'redundant'],
    });
    assert.equal(kept.value, true);
  });
});

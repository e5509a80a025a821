/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createGuest,
  freshAccount,
  guestTemplate,
  sleep,
  useEmulator,
  type Guest,
} from '../support/emulator-harness';
import { freshEd25519 } from '../support/ssh-keys';
import { admin } from '../support/emulator-client';

const DELAY = 400;
const h = useEmulator({ provisioningDelayMs: DELAY });

const READY_MASK =
  'mask[id, provisionDate, primaryIpAddress, primaryBackendIpAddress, activeTransaction.transactionStatus, powerState, lastKnownPowerState]';

async function waitReady(id: number) {
  await sleep(DELAY + 50);
  return h.demo.call<Record<string, unknown>>('Virtual_Guest', 'getObject', {
    id,
    mask: READY_MASK,
  });
}

describe('Virtual_Guest.createObject', () => {
  it('creates a guest from the spec template with literal string flags', async () => {
    const guest = await h.demo.call<Record<string, unknown>>('Virtual_Guest', 'createObject', {
      args: [
        guestTemplate({
          hostname: 'strflags',
          hourlyBillingFlag: 'true',
          localDiskFlag: 'false',
          startCpus: 2,
          maxMemory: 4096,
        }),
      ],
    });
    assert.equal(typeof guest.id, 'number');
    assert.match(String(guest.globalIdentifier), /^[0-9a-f-]{36}$/);
    assert.equal(guest.fullyQualifiedDomainName, 'strflags.example.com');
    assert.equal(guest.hourlyBillingFlag, true);
    assert.equal(guest.localDiskFlag, false);
    assert.equal(guest.maxCpu, 2);
    assert.equal(guest.maxMemory, 4096);
    assert.equal(
      guest.operatingSystemReferenceCode,
      'UBUNTU_24_64',
      '*_LATEST resolves to a concrete code',
    );
    assert.match(String(guest.createDate), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    assert.equal(guest.provisionDate, undefined);
    const booleans = await createGuest(h.demo, {
      hostname: 'boolflags',
      hourlyBillingFlag: false,
      localDiskFlag: true,
    });
    assert.equal(booleans.hourlyBillingFlag, false);
    assert.equal(booleans.localDiskFlag, true);
  });

  it('provisions over the delay: a transaction first, then dates, addresses and power', async () => {
    const guest = await createGuest(h.demo, { hostname: 'prov' });
    const during = await h.demo.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: READY_MASK,
    });
    assert.equal(typeof during.activeTransaction.id, 'number');
    assert.equal(typeof during.activeTransaction.transactionStatus.name, 'string');
    assert.equal(typeof during.activeTransaction.transactionStatus.friendlyName, 'string');
    assert.equal(during.provisionDate, undefined);
    assert.equal(during.primaryIpAddress, undefined);
    assert.equal(during.primaryBackendIpAddress, undefined);
    assert.deepEqual(during.powerState, { keyName: 'HALTED', name: 'Halted' });

    const ready = await waitReady(guest.id);
    assert.equal(ready.activeTransaction, undefined);
    assert.match(String(ready.provisionDate), /^\d{4}-/);
    assert.match(String(ready.primaryIpAddress), /^\d+\.\d+\.\d+\.\d+$/);
    assert.match(String(ready.primaryBackendIpAddress), /^10\./);
    assert.deepEqual(ready.powerState, { keyName: 'RUNNING', name: 'Running' });
    assert.deepEqual(ready.lastKnownPowerState, { keyName: 'RUNNING', name: 'Running' });
  });

  it('gives a private-network-only guest no public address', async () => {
    const guest = await createGuest(h.demo, { hostname: 'private', privateNetworkOnlyFlag: true });
    const ready = await waitReady(guest.id);
    assert.equal(ready.primaryIpAddress, undefined);
    assert.match(String(ready.primaryBackendIpAddress), /^10\./);
    const nics = await h.demo.call<{ port: number }[]>('Virtual_Guest', 'getNetworkComponents', {
      id: guest.id,
    });
    assert.deepEqual(
      nics.map((n) => n.port),
      [0],
    );
  });

  it('records every optional property of the template', async () => {
    const [key1, key2] = await Promise.all(
      ['k1', 'k2'].map((label) =>
        h.demo.call<{ id: number }>('Security_Ssh_Key', 'createObject', {
          args: [{ label, key: freshEd25519() }],
        }),
      ),
    );
    const guest = await createGuest(h.demo, {
      hostname: 'full',
      networkComponents: [{ maxSpeed: 1000 }],
      tagReferences: [{ tag: { name: 'Pulumi-Token:ABC' } }, { tag: { name: 'web' } }],
      notes: 'hello',
      userData: [{ value: '#cloud-config' }],
      sshKeys: [{ id: key1.id }, { id: key2.id }],
      blockDevices: [
        { device: '0', diskImage: { capacity: 100 } },
        { device: 2, diskImage: { capacity: 250 } },
      ],
      postInstallScriptUri: 'https://example.com/setup.sh',
      datacenter: { name: 'LON06' },
    });
    const got = await h.demo.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'mask[notes, postInstallScriptUri, datacenter, networkComponents.maxSpeed, tagReferences.tag.name, userData, sshKeys.id, blockDevices.diskImage.capacity, operatingSystem.softwareLicense.softwareDescription.referenceCode, billingItem]',
    });
    assert.equal(got.notes, 'hello');
    assert.equal(got.datacenter.name, 'lon06');
    assert.equal(got.datacenter.longName, 'London 6');
    assert.deepEqual(got.networkComponents, [{ maxSpeed: 1000 }, { maxSpeed: 1000 }]);
    assert.deepEqual(
      got.tagReferences.map((r: any) => r.tag.name),
      ['pulumi-token:abc', 'web'],
    );
    assert.deepEqual(got.userData, [{ value: '#cloud-config' }]);
    assert.deepEqual(got.sshKeys, [{ id: key1.id }, { id: key2.id }]);
    assert.deepEqual(
      got.blockDevices.map((b: any) => b.diskImage.capacity),
      [100, 2, 250],
      'the boot disk, the swap disk (device 1) every guest has, and the extra disk',
    );
    assert.equal(
      got.operatingSystem.softwareLicense.softwareDescription.referenceCode,
      'UBUNTU_24_64',
    );
    assert.match(got.billingItem.hourlyRecurringFee, /^\d*\.?\d+$/);
    assert.match(got.billingItem.recurringFee, /^\d*\.?\d+$/);
    assert.equal(typeof got.billingItem.id, 'number');
  });

  it('refuses invalid templates with faults naming the field, creating nothing', async () => {
    const before = (await h.demo.callRaw('Account', 'getVirtualGuests', { mask: 'id' })).totalItems;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ hostname: undefined }, 'Svc_Exception_Public', /'hostname' must be set/],
      [{ domain: undefined }, 'Svc_Exception_Public', /'domain' must be set/],
      [{ localDiskFlag: undefined }, 'Svc_Exception_Public', /'localDiskFlag' must be set/],
      [
        { operatingSystemReferenceCode: undefined },
        'Svc_Exception_Public',
        /'operatingSystemReferenceCode' must be set/,
      ],
      [{ hostname: 'bad_host!' }, 'Svc_Exception_InvalidValue', /'hostname'/],
      [{ hostname: '-lead' }, 'Svc_Exception_InvalidValue', /'hostname'/],
      [{ domain: 'nodot' }, 'Svc_Exception_InvalidValue', /'domain'/],
      [{ datacenter: { name: 'xyz99' } }, 'Svc_Exception_Public', /'datacenter\.name'.*dal10/],
      [
        { operatingSystemReferenceCode: 'WIN_95' },
        'Svc_Exception_Public',
        /'operatingSystemReferenceCode'.*UBUNTU_22_64/,
      ],
      [{ maxMemory: 3000 }, 'Svc_Exception_Public', /'maxMemory'.*1024/],
      [{ startCpus: 3 }, 'Svc_Exception_Public', /'startCpus'.*16/],
      [{ startCpus: 'two' }, 'Svc_Exception_InvalidValue', /'startCpus'/],
      [{ hourlyBillingFlag: 'yes' }, 'Svc_Exception_InvalidValue', /'hourlyBillingFlag'/],
      [
        { networkComponents: [{ maxSpeed: 50 }] },
        'Svc_Exception_Public',
        /'networkComponents\[0\]\.maxSpeed'/,
      ],
      [{ notes: 'x'.repeat(1001) }, 'Svc_Exception_InvalidValue', /'notes'/],
      [
        { flavor: 'B1' },
        'Svc_Exception_Public',
        /^Property 'flavor' not valid for 'Svc_Virtual_Guest'\.$/,
      ],
      [
        { blockDevices: [{ device: 1, diskImage: { capacity: 25 } }] },
        'Svc_Exception_InvalidValue',
        /swap/,
      ],
    ];
    for (const [overrides, code, message] of cases) {
      const res = await h.demo.callRaw('Virtual_Guest', 'createObject', {
        args: [guestTemplate(overrides)],
      });
      assert.equal(res.fault?.faultCode, code, JSON.stringify(overrides));
      assert.match(res.fault!.faultString, message, JSON.stringify(overrides));
    }
    const after = (await h.demo.callRaw('Account', 'getVirtualGuests', { mask: 'id' })).totalItems;
    assert.equal(after, before);
  });

  it('creates several guests with createObjects', async () => {
    const guests = await h.demo.call<Guest[]>('Virtual_Guest', 'createObjects', {
      args: [[guestTemplate({ hostname: 'multi1' }), guestTemplate({ hostname: 'multi2' })]],
    });
    assert.deepEqual(
      guests.map((g) => g.hostname),
      ['multi1', 'multi2'],
    );
  });
});

describe('Virtual_Guest options and order templates', () => {
  it('prices every option of getCreateObjectOptions with API-style fee strings', async () => {
    const options = await h.demo.call<Record<string, any[]>>(
      'Virtual_Guest',
      'getCreateObjectOptions',
    );
    const fee = /^(\d+|\d*\.\d+)$/;
    for (const group of [
      'processors',
      'memory',
      'operatingSystems',
      'networkComponents',
      'blockDevices',
    ]) {
      assert.ok(options[group].length > 0, group);
      for (const option of options[group]) {
        assert.match(option.itemPrice.hourlyRecurringFee, fee, group);
        assert.match(option.itemPrice.recurringFee, fee, group);
        assert.equal(typeof option.itemPrice.item.description, 'string');
      }
    }
    const values = <T>(group: string, read: (o: any) => T) => options[group].map(read);
    const cpus = values('processors', (p) => p.template.startCpus as number);
    const memory = values('memory', (m) => m.template.maxMemory as number);
    const osCodes = values('operatingSystems', (o) => o.template.operatingSystemReferenceCode);
    const datacenters = values('datacenters', (d) => d.template.datacenter.name);
    for (const [group, list] of Object.entries({ cpus, memory, osCodes, datacenters })) {
      assert.equal(new Set(list).size, list.length, `${group} are listed once each`);
    }
    assert.deepEqual(
      cpus,
      [...cpus].sort((a, b) => a - b),
      'core counts ascend',
    );
    assert.deepEqual(
      memory,
      [...memory].sort((a, b) => a - b),
      'memory sizes ascend',
    );
    // The sizes of the public virtual server package, including those offered from the start.
    for (const n of [1, 2, 4, 8, 12, 16, 32, 48, 56]) assert.ok(cpus.includes(n), `${n} cores`);
    for (const mb of [1024, 2048, 4096, 6144, 8192, 12288, 16384, 32768, 65536, 131072]) {
      assert.ok(memory.includes(mb), `${mb} MB`);
    }
    for (const code of [
      'UBUNTU_LATEST',
      'UBUNTU_22_64',
      'UBUNTU_24_64',
      'DEBIAN_12_64',
      'CENTOS_STREAM_9_64',
      'WIN_2022-STD_64',
      'REDHAT_9_64',
      'WIN_2019-STD_64',
    ]) {
      assert.ok(osCodes.includes(code), code);
    }
    for (const name of ['dal10', 'dal12', 'dal13', 'wdc07', 'lon06', 'fra02', 'tok02', 'syd01']) {
      assert.ok(datacenters.includes(name), name);
    }
    assert.equal(datacenters[0], 'dal10', 'the default datacenter comes first');
    // Default prices (the same in every datacenter without a pricing location group).
    const priceOf = (group: string, field: string, value: number) =>
      options[group].find((o: any) => o.template[field] === value)?.itemPrice;
    assert.equal(priceOf('processors', 'startCpus', 1).hourlyRecurringFee, '.025');
    assert.equal(priceOf('processors', 'startCpus', 1).locationGroupId, null);
    assert.equal(priceOf('memory', 'maxMemory', 2048).hourlyRecurringFee, '.024');
    assert.deepEqual(
      options.networkComponents.map((n) => n.template.networkComponents[0].maxSpeed),
      [10, 100, 1000],
    );
  });

  it('lists the same datacenters as the Location services, with cities and price groups', async () => {
    const options = await h.demo.call<Record<string, any[]>>(
      'Virtual_Guest',
      'getCreateObjectOptions',
    );
    const offered = options.datacenters.map((d) => d.template.datacenter.name).sort();
    for (const service of ['Location', 'Location_Datacenter']) {
      const listed = await h.anonymous.call<any[]>(service, 'getDatacenters', {
        mask: 'name, longName, priceGroups[id, description], regions[keyname]',
      });
      assert.deepEqual(listed.map((d) => d.name).sort(), offered, service);
      const dal13 = listed.find((d) => d.name === 'dal13');
      assert.deepEqual(dal13, {
        name: 'dal13',
        longName: 'Dallas 13',
        priceGroups: [],
        regions: [{ keyname: 'DALLAS13' }],
      });
      const toronto = listed.find((d) => d.name === 'tor01');
      assert.equal(toronto.longName, 'Toronto 1');
      assert.deepEqual(toronto.priceGroups, [{ id: 503, description: 'Location Group 2' }]);
    }
  });

  it("prices an order at the datacenter: default prices, or its location group's", async () => {
    const client = await freshAccount(h.emu);
    const template = guestTemplate({ startCpus: 2, maxMemory: 4096 });
    const order = async (datacenter: string) =>
      client.call<Record<string, any>>('Virtual_Guest', 'generateOrderTemplate', {
        args: [{ ...template, datacenter: { name: datacenter } }],
      });
    const [group] = await client.call<any[]>('Location', 'getDatacenters', {
      filter: { name: { operation: 'sao01' } },
      mask: 'mask[priceGroups[id, name, locations[name]]]',
    });
    assert.equal(group.priceGroups.length, 1);
    assert.ok(group.priceGroups[0].locations.some((l: any) => l.name === 'sao01'));
    const standard = await order('dal10');
    const grouped = await order('sao01');
    assert.equal(standard.prices.length, grouped.prices.length);
    for (const [i, price] of standard.prices.entries()) {
      const local = grouped.prices[i];
      assert.equal(price.locationGroupId, null);
      assert.equal(local.locationGroupId, group.priceGroups[0].id);
      assert.equal(local.item.description, price.item.description);
      if (Number(price.hourlyRecurringFee) > 0) {
        assert.ok(
          Number(local.hourlyRecurringFee) > Number(price.hourlyRecurringFee),
          `${price.item.description} costs more in sao01`,
        );
        assert.notEqual(local.id, price.id, 'a location price has its own id');
      }
    }
    assert.ok(Number(grouped.postTaxRecurringHourly) > Number(standard.postTaxRecurringHourly));
    // The guest is billed what its datacenter's order costs.
    for (const [datacenter, quote] of [
      ['dal10', standard],
      ['sao01', grouped],
    ] as const) {
      const guest = await createGuest(client, { ...template, datacenter: { name: datacenter } });
      const { billingItem } = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
        id: guest.id,
        mask: 'billingItem[hourlyRecurringFee, children[hourlyRecurringFee]]',
      });
      assert.equal(billingItem.hourlyRecurringFee, quote.postTaxRecurringHourly, datacenter);
      const parts = quote.prices.slice(1).map((p: any) => p.hourlyRecurringFee);
      assert.deepEqual(
        billingItem.children.map((c: any) => c.hourlyRecurringFee),
        parts,
        `${datacenter}: children are the order's other prices`,
      );
    }
  });

  it('generates an order template with prices without creating anything', async () => {
    const client = await freshAccount(h.emu);
    const order = await client.call<Record<string, any>>('Virtual_Guest', 'generateOrderTemplate', {
      args: [guestTemplate({ startCpus: 4, maxMemory: 8192, datacenter: { name: 'fra02' } })],
    });
    assert.equal(order.location, '449506');
    assert.equal(order.useHourlyPricing, true);
    assert.deepEqual(order.virtualGuests, [{ hostname: 'web1', domain: 'example.com' }]);
    assert.ok(order.prices.some((p: any) => p.item.description.startsWith('4 x')));
    assert.deepEqual(await client.call('Account', 'getVirtualGuests'), []);
    const bad = await client.callRaw('Virtual_Guest', 'generateOrderTemplate', {
      args: [guestTemplate({ maxMemory: 3 })],
    });
    assert.equal(bad.fault?.faultCode, 'Svc_Exception_Public');
  });
});

describe('Virtual_Guest changes', () => {
  it('edits hostname, domain and notes, and refuses other properties', async () => {
    const guest = await createGuest(h.demo, { hostname: 'before' });
    assert.equal(
      await h.demo.call('Virtual_Guest', 'editObject', {
        id: guest.id,
        args: [{ hostname: 'after', domain: 'example.org', notes: 'n1' }],
      }),
      true,
    );
    const got = await h.demo.call<Record<string, unknown>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'hostname, domain, fullyQualifiedDomainName, notes',
    });
    assert.deepEqual(got, {
      hostname: 'after',
      domain: 'example.org',
      fullyQualifiedDomainName: 'after.example.org',
      notes: 'n1',
    });
    const memory = await h.demo.callRaw('Virtual_Guest', 'editObject', {
      id: guest.id,
      args: [{ maxMemory: 2048 }],
    });
    assert.equal(memory.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(memory.fault!.faultString, /maxMemory/);
    const badName = await h.demo.callRaw('Virtual_Guest', 'editObject', {
      id: guest.id,
      args: [{ hostname: 'no spaces' }],
    });
    assert.equal(badName.fault?.faultCode, 'Svc_Exception_InvalidValue');
  });

  it('sets tags from a comma-separated string, lower-cased and trimmed, and clears them', async () => {
    const guest = await createGuest(h.demo, {
      hostname: 'tagged',
      tagReferences: [{ tag: { name: 'keep' } }],
    });
    const [keepRef] = await h.demo.call<{ id: number }[]>('Virtual_Guest', 'getTagReferences', {
      id: guest.id,
    });
    assert.equal(
      await h.demo.call('Virtual_Guest', 'setTags', {
        id: guest.id,
        args: [' Web, DB ,web,,keep'],
      }),
      true,
    );
    const refs = await h.demo.call<{ id: number; tag: { name: string } }[]>(
      'Virtual_Guest',
      'getTagReferences',
      {
        id: guest.id,
        mask: 'id, tag.name',
      },
    );
    assert.deepEqual(
      refs.map((r) => r.tag.name),
      ['web', 'db', 'keep'],
    );
    assert.equal(refs[2].id, keepRef.id, 'an unchanged tag keeps its reference');
    await h.demo.call('Virtual_Guest', 'setTags', { id: guest.id, args: [''] });
    assert.deepEqual(await h.demo.call('Virtual_Guest', 'getTagReferences', { id: guest.id }), []);
    const missing = await h.demo.callRaw('Virtual_Guest', 'setTags', { id: guest.id, args: [] });
    assert.equal(missing.fault?.faultCode, '-32602');
  });

  it('switches power off and on once provisioned', async () => {
    const guest = await createGuest(h.demo, { hostname: 'power' });
    const early = await h.demo.callRaw('Virtual_Guest', 'powerOff', { id: guest.id });
    assert.equal(early.fault?.faultCode, 'Svc_Exception_Public');
    await sleep(DELAY + 50);
    assert.equal(await h.demo.call('Virtual_Guest', 'powerOff', { id: guest.id }), true);
    assert.deepEqual(await h.demo.call('Virtual_Guest', 'getPowerState', { id: guest.id }), {
      keyName: 'HALTED',
      name: 'Halted',
    });
    assert.equal(await h.demo.call('Virtual_Guest', 'powerOn', { id: guest.id }), true);
    assert.deepEqual(await h.demo.call('Virtual_Guest', 'getPowerState', { id: guest.id }), {
      keyName: 'RUNNING',
      name: 'Running',
    });
  });
});

describe('Virtual_Guest cancellation', () => {
  it('refuses to delete during provisioning, then deletes an hourly guest for good', async () => {
    const guest = await createGuest(h.demo, { hostname: 'doomed' });
    const early = await h.demo.callRaw('Virtual_Guest', 'deleteObject', { id: guest.id });
    assert.equal(early.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(early.fault!.faultString, /active transaction/);
    const { billingItem } = await h.demo.call<{ billingItem: { id: number } }>(
      'Virtual_Guest',
      'getObject',
      { id: guest.id, mask: 'billingItem.id' },
    );
    await sleep(DELAY + 50);
    assert.equal(await h.demo.call('Virtual_Guest', 'deleteObject', { id: guest.id }), true);
    const gone = await h.demo.callRaw('Virtual_Guest', 'getObject', { id: guest.id });
    assert.equal(gone.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    const again = await h.demo.callRaw('Virtual_Guest', 'deleteObject', { id: guest.id });
    assert.equal(again.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    const item = await h.demo.call<{ cancellationDate?: string }>('Billing_Item', 'getObject', {
      id: billingItem.id,
    });
    assert.match(String(item.cancellationDate), /^\d{4}-/);
  });

  it('cancels a monthly guest through Billing_Item.cancelService', async () => {
    const client = await freshAccount(h.emu);
    const guest = await createGuest(client, { hostname: 'monthly', hourlyBillingFlag: false });
    await sleep(DELAY + 50);
    const monthly = await client.call<{ id: number }[]>('Account', 'getMonthlyVirtualGuests', {
      mask: 'id',
    });
    assert.deepEqual(monthly, [{ id: guest.id }]);
    assert.deepEqual(await client.call('Account', 'getHourlyVirtualGuests'), []);
    const { billingItem } = await client.call<{
      billingItem: { id: number; recurringFee: string };
    }>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'billingItem[id, recurringFee]',
    });
    assert.ok(Number(billingItem.recurringFee) > 0);
    assert.equal(await client.call('Billing_Item', 'cancelService', { id: billingItem.id }), true);
    assert.deepEqual(await client.call('Account', 'getVirtualGuests'), []);
    const twice = await client.callRaw('Billing_Item', 'cancelService', { id: billingItem.id });
    assert.equal(twice.fault?.faultCode, 'Svc_Exception_Public');
  });
});

describe('cancelling a guest: billing stops, the guest is reclaimed, then gone', () => {
  const RECLAIM_MASK =
    'mask[id, activeTransaction.transactionStatus.name, billingItem[id, cancellationDate, nextBillDate]]';
  const view = (id: number) =>
    h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: RECLAIM_MASK });

  it('keeps a cancelled guest visible while it reclaims (reclaimDelayMs), unbilled', async () => {
    await admin(h.emu.adminUrl, 'POST', '/settings', { reclaimDelayMs: 800 });
    try {
      const hourly = await createGuest(h.demo, { hostname: 'reclaim-h', hourlyBillingFlag: true });
      const monthly = await createGuest(h.demo, {
        hostname: 'reclaim-m',
        hourlyBillingFlag: false,
      });
      await sleep(DELAY + 50);
      const before = await view(monthly.id);
      const billingId = before.billingItem.id;
      const cancelledAt = Date.now();
      assert.equal(await h.demo.call('Virtual_Guest', 'deleteObject', { id: hourly.id }), true);
      assert.equal(await h.demo.call('Billing_Item', 'cancelService', { id: billingId }), true);

      const reclaiming = await view(hourly.id);
      assert.equal(reclaiming.activeTransaction.transactionStatus.name, 'RECLAIM_WAIT');
      const billedTo = Date.parse(reclaiming.billingItem.cancellationDate);
      assert.ok(Math.abs(billedTo - cancelledAt) < 5_000, 'hourly: billed until the cancel');
      const monthlyNow = await view(monthly.id);
      assert.equal(monthlyNow.activeTransaction.transactionStatus.name, 'RECLAIM_WAIT');
      assert.equal(
        monthlyNow.billingItem.cancellationDate,
        before.billingItem.nextBillDate,
        'monthly: billed to its anniversary',
      );
      await assert.rejects(
        h.demo.call('Virtual_Guest', 'deleteObject', { id: hourly.id }),
        /already been cancelled/,
      );

      await sleep(900);
      for (const id of [hourly.id, monthly.id]) {
        await assert.rejects(view(id), /Unable to find object/);
      }
    } finally {
      await admin(h.emu.adminUrl, 'POST', '/settings', { reclaimDelayMs: 0 });
    }
  });
});

describe('datacenter capacity (settings.datacenterCapacity, the admin API)', () => {
  const CAPACITY_FAULT = 'Svc_Exception_Virtual_Host_Pool_InsufficientCapacity';
  const inSjc03 = async () =>
    (
      await h.demo.call<any[]>('Account', 'getVirtualGuests', {
        mask: 'id,datacenter.name',
        filter: { virtualGuests: { datacenter: { name: { operation: 'sjc03' } } } },
      })
    ).map((g) => g.id);

  it('refuses an order beyond a datacenter’s active guests, of every account, writing nothing', async () => {
    const sjc03 = { datacenter: { name: 'sjc03' } };
    await admin(h.emu.adminUrl, 'POST', '/settings', {
      datacenterCapacity: { sjc03: 1 },
      reclaimDelayMs: 60_000,
    });
    try {
      const first = await createGuest(h.demo, { hostname: 'room-1', ...sjc03 });
      await assert.rejects(createGuest(h.demo, { hostname: 'room-2', ...sjc03 }), (err: any) => {
        assert.equal(err.faultCode, CAPACITY_FAULT);
        assert.match(err.message, /insufficient resources behind router bcr01a\.sjc03.*room-2/);
        return true;
      });
      const other = await freshAccount(h.emu);
      await assert.rejects(createGuest(other, { hostname: 'room-3', ...sjc03 }), /bcr01a\.sjc03/);
      await assert.rejects(
        h.demo.call('Virtual_Guest', 'createObjects', {
          args: [
            [
              guestTemplate({ hostname: 'room-4', datacenter: { name: 'dal13' } }),
              guestTemplate({ hostname: 'room-5', ...sjc03 }),
            ],
          ],
        }),
        /bcr01a\.sjc03.*room-5/,
      );
      assert.deepEqual(await inSjc03(), [first.id], 'nothing else was written');
      // Another datacenter has room; a reclaiming guest has left its host.
      await createGuest(h.demo, { hostname: 'room-6', datacenter: { name: 'sjc04' } });
      await sleep(DELAY + 50); // provisioned: a guest is cancelled once it has no transaction
      await h.demo.call('Virtual_Guest', 'deleteObject', { id: first.id });
      const again = await createGuest(h.demo, { hostname: 'room-7', ...sjc03 });
      assert.equal((await inSjc03()).includes(again.id), true);
      // null: unlimited again.
      await admin(h.emu.adminUrl, 'POST', '/settings', { datacenterCapacity: { sjc03: null } });
      await createGuest(h.demo, { hostname: 'room-8', ...sjc03 });
    } finally {
      await admin(h.emu.adminUrl, 'POST', '/settings', {
        datacenterCapacity: { sjc03: null },
        reclaimDelayMs: 0,
      });
    }
  });

  it('the admin API refuses an unknown datacenter or a count that is not one', async () => {
    await assert.rejects(
      admin(h.emu.adminUrl, 'POST', '/settings', { datacenterCapacity: { nowhere1: 1 } }),
      /nowhere1 is not a datacenter/,
    );
    await assert.rejects(
      admin(h.emu.adminUrl, 'POST', '/settings', { datacenterCapacity: { dal10: -1 } }),
      /datacenterCapacity\.dal10 must be a non-negative integer/,
    );
    assert.equal(h.emu.settings.datacenterCapacity?.dal10, undefined);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VirtualGuest } from '../../provider/managers';
import { UNKNOWN } from '../../provider/framework/unknown';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { GUEST_FIELDS } from '../../provider/kinds/virtual-guest/fields';
import { providerEnv, type Emulator } from '../support/provider-env';
import type { Client } from '../../provider/client';

type Bag = Record<string, unknown>;

const declared: Bag = {
  resourceName: 'web',
  identity: 'proj/dev/web',
  domain: 'unit.example.com',
  startCpus: 2,
  maxMemory: 4096,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
  tags: ['Web', 'unit '],
};

describe('VirtualGuest provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  let checked: Bag;
  let id = '';
  let outs: Bag = {};

  before(async () => ({ emulator, client } = await providerEnv()));
  after(() => emulator?.close());

  const guestsInDomain = async () =>
    (
      (await client.call('Account', 'getVirtualGuests', { mask: 'id,domain' })) as VirtualGuest[]
    ).filter((g) => g.domain === 'unit.example.com');

  it('check applies defaults, normalises tags, names the hostname and prices the order', async () => {
    const result = await provider.check({}, declared);
    assert.deepEqual(result.failures, []);
    checked = result.inputs as Bag;
    assert.match(String(checked.hostname), /^web-[0-9a-f]{7}$/);
    assert.equal(checked.hourlyBillingFlag, true);
    assert.equal(checked.waitForReady, true);
    assert.deepEqual(checked.tags, ['unit', 'web']);
    assert.match(String(checked.creationToken), /^pulumi-svc-[0-9a-f]{24}$/);
    assert.ok((checked.estimatedHourlyCost as number) > 0);
    const again = await provider.check(checked, declared);
    assert.equal((again.inputs as Bag).hostname, checked.hostname, 'the auto-name is stable');
    assert.equal((again.inputs as Bag).creationToken, checked.creationToken, 'so is the token');
  });

  it('check names each bad field and its rule, before any call that bills', async () => {
    const shape = await provider.check(
      {},
      { ...declared, hostname: '-bad-', domain: 'nodot', startCpus: 1.5, tags: ['ok', 'UPPER!'] },
    );
    const byField = Object.fromEntries((shape.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byField.hostname, /hostname "-bad-" must be letters, digits and inner hyphens/);
    assert.match(byField.domain, /domain "nodot" must be a domain name/);
    assert.match(byField.startCpus, /startCpus must be an integer, got 1.5/);
    assert.match(byField.tags, /tags\[1\] "upper!"/);
    const offered = await provider.check(
      {},
      {
        ...declared,
        startCpus: 3,
        maxMemory: 1000,
        datacenter: 'mars01',
        operatingSystemReferenceCode: 'BEOS_5',
      },
    );
    const reasons = (offered.failures ?? []).map((f) => `${f.property}: ${f.reason}`).join('\n');
    assert.match(
      reasons,
      /startCpus: startCpus 3 is not a CPU count this account is offered; allowed: 1, 2, 4/,
    );
    assert.match(reasons, /maxMemory: maxMemory 1000 is not a memory size/);
    assert.match(reasons, /datacenter: datacenter "mars01" is not a known datacenter/);
    assert.match(
      reasons,
      /operatingSystemReferenceCode: operatingSystemReferenceCode "BEOS_5" is not a known operating system code/,
    );
    const missing = await provider.check({}, { resourceName: 'x', identity: 'p/s/x' });
    assert.deepEqual((missing.failures ?? []).map((f) => f.property).sort(), [
      'datacenter',
      'domain',
      'maxMemory',
      'operatingSystemReferenceCode',
      'startCpus',
    ]);
    assert.equal((await guestsInDomain()).length, 0);
  });

  it('check lets unknown values through during preview', async () => {
    const result = await provider.check({}, { ...declared, startCpus: UNKNOWN, domain: UNKNOWN });
    assert.deepEqual(result.failures, []);
    assert.equal(
      (result.inputs as Bag).creationToken,
      undefined,
      'no token until the order is known',
    );
  });

  it('create orders one guest, waits until it is ready and reports its outputs', async () => {
    const result = await provider.create(checked);
    id = result.id;
    outs = result.outs as Bag;
    assert.match(id, /^\d+$/);
    assert.equal(outs.guestId, Number(id));
    assert.equal(outs.fullyQualifiedDomainName, `${checked.hostname}.unit.example.com`);
    assert.match(String(outs.primaryIpAddress), /^\d+\.\d+\.\d+\.\d+$/);
    assert.ok(outs.provisionDate, 'provisioned');
    assert.equal(outs.powerState, 'RUNNING');
    assert.deepEqual(outs.tags, ['unit', 'web']);
    assert.equal((await guestsInDomain()).length, 1);
  });

  it('diff: names, tags and the size (CPUs, memory, port speed, disks) in place; billing, OS, datacenter replace', async () => {
    assert.deepEqual(await provider.diff(id, outs, checked), { changes: false });
    // `changes` left unknown: the engine diffs the inputs itself, so replaceOnChanges applies.
    for (const change of [
      { hostname: 'renamed', notes: 'hello', tags: ['web'] },
      { startCpus: 4 },
      { maxMemory: 8192 },
      { networkSpeed: 1000 },
      { disks: [100, 250] },
    ]) {
      const result = await provider.diff(id, outs, { ...checked, ...change });
      // In the table's order.
      const names = Object.keys(GUEST_FIELDS).filter((name) => name in change);
      const fields = names.map((name) => ({
        name,
        kind: outs[name] === undefined ? 'add' : 'update',
        replace: false,
      }));
      const inPlace = { replaces: [], fields };
      assert.deepEqual(result, inPlace, `${Object.keys(change).join(', ')} in place`);
    }
    for (const [field, value] of Object.entries({
      hourlyBillingFlag: false,
      operatingSystemReferenceCode: 'DEBIAN_12_64',
      datacenter: 'lon06',
    })) {
      const result = await provider.diff(id, outs, { ...checked, [field]: value });
      assert.deepEqual(result.replaces, [field], `${field} replaces`);
    }
    const unknown = await provider.diff(id, outs, { ...checked, datacenter: UNKNOWN });
    assert.deepEqual(unknown.replaces, ['datacenter'], 'an unknown ordered field may replace');
    const unknownSize = await provider.diff(id, outs, { ...checked, startCpus: UNKNOWN });
    assert.deepEqual(unknownSize.replaces, [], 'an unknown size is still an upgrade');
    assert.notEqual(unknownSize.changes, false);
  });

  it('update edits hostname, notes and tags in place, keeping the provider tags on the guest', async () => {
    const news = { ...checked, hostname: 'renamed', notes: 'hello', tags: ['web'] };
    const result = await provider.update(id, outs, news);
    outs = result.outs as Bag;
    assert.equal(outs.fullyQualifiedDomainName, 'renamed.unit.example.com');
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'hostname,notes,tagReferences.tag.name',
    })) as VirtualGuest;
    assert.equal(guest.hostname, 'renamed');
    assert.equal(guest.notes, 'hello');
    assert.deepEqual(guest.tagReferences?.map((t) => t.tag?.name).sort(), [
      String(checked.creationToken),
      'pulumi-svc-owned',
      'web',
    ]);
  });

  /** The inputs after the in-place edits above, with `startCpus` CPUs, 8 GB and grown disks. */
  const resized = async (startCpus: number) =>
    (
      await provider.check(outs, {
        ...declared,
        hostname: 'renamed',
        notes: 'hello',
        tags: ['web'],
        startCpus,
        maxMemory: 8192,
        disks: [100, 250],
      })
    ).inputs as Bag;

  it('update upgrades CPUs, memory and disks in place: same guest, addresses and tags, new fees', async () => {
    const before = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'primaryIpAddress,billingItem.hourlyRecurringFee',
    })) as VirtualGuest;
    const news = await resized(4);
    assert.ok((news.estimatedHourlyCost as number) > (outs.estimatedHourlyCost as number));
    const orders = emulator.stats().calls['Product_Order.placeOrder'] ?? 0;
    const result = await provider.update(id, outs, news);
    outs = result.outs as Bag;
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'id,startCpus,maxMemory,primaryIpAddress,activeTransaction,blockDevices[device,diskImage.capacity],billingItem.hourlyRecurringFee,tagReferences.tag.name',
    })) as VirtualGuest & { billingItem: { hourlyRecurringFee: string } };
    assert.deepEqual([guest.startCpus, guest.maxMemory], [4, 8192]);
    assert.deepEqual(
      guest.blockDevices?.filter((d) => d.device !== '1').map((d) => d.diskImage?.capacity),
      [100, 250],
    );
    assert.equal(guest.primaryIpAddress, before.primaryIpAddress, 'same addresses');
    assert.equal(guest.activeTransaction, undefined, 'the upgrade is done');
    assert.ok(guest.tagReferences?.some((t) => t.tag?.name === 'web'));
    assert.equal((emulator.stats().calls['Product_Order.placeOrder'] ?? 0) - orders, 1);
    assert.equal(outs.estimatedHourlyCost, Number(guest.billingItem.hourlyRecurringFee));
    assert.equal(outs.estimatedHourlyCost, news.estimatedHourlyCost, 'the preview price is billed');
    assert.deepEqual(outs.disks, [100, 250]);
    const again = await provider.update(id, outs, news);
    assert.equal((emulator.stats().calls['Product_Order.placeOrder'] ?? 0) - orders, 1, 'no-op');
    outs = again.outs as Bag;
  });

  it('check refuses a disk that would shrink or disappear, before any call', async () => {
    const calls = Object.values(emulator.stats().calls).reduce((a, b) => a + b, 0);
    const shrink = await provider.check(outs, {
      ...declared,
      startCpus: 4,
      maxMemory: 8192,
      disks: [100, 100],
    });
    assert.match(
      shrink.failures?.map((f) => `${f.property}: ${f.reason}`).join('\n') ?? '',
      /disks: disks\[1\] 250 GB -> 100 GB: a disk can only grow/,
    );
    const removed = await provider.check(outs, {
      ...declared,
      startCpus: 4,
      maxMemory: 8192,
      disks: [100],
    });
    assert.match(
      removed.failures?.[0]?.reason ?? '',
      /a disk cannot be removed from a running guest/,
    );
    assert.equal(
      Object.values(emulator.stats().calls).reduce((a, b) => a + b, 0),
      calls,
    );
    const replaced = await provider.check(outs, { ...declared, datacenter: 'lon06', disks: [25] });
    assert.deepEqual(replaced.failures, [], 'a new guest may have smaller disks');
  });

  it('an upgrade order whose answer is lost is found by the guest size, never placed twice', async () => {
    const news = await resized(8);
    const orders = emulator.stats().calls['Product_Order.placeOrder'] ?? 0;
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    outs = (await provider.update(id, outs, news)).outs as Bag;
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'startCpus',
    })) as VirtualGuest;
    assert.equal(guest.startCpus, 8);
    assert.equal((emulator.stats().calls['Product_Order.placeOrder'] ?? 0) - orders, 1);
  });

  it('read refreshes every output from the API and notices drift', async () => {
    await client.call('Virtual_Guest', 'editObject', {
      id: Number(id),
      args: [{ hostname: 'drifted' }],
    });
    const result = await provider.read(id, outs);
    assert.equal(result.id, id);
    assert.equal((result.props as Bag).hostname, 'drifted');
    assert.equal(
      (result.props as Bag).operatingSystemReferenceCode,
      'UBUNTU_LATEST',
      'an _LATEST code is not drift',
    );
    const drift = await provider.diff(id, result.props as Bag, {
      ...checked,
      hostname: 'renamed',
      notes: 'hello',
      tags: ['web'],
    });
    assert.deepEqual(drift, {
      replaces: [],
      // What the refresh found (the CPUs and memory) and what the program now declares.
      fields: ['hostname', 'startCpus', 'maxMemory'].map((name) => ({
        name,
        kind: 'update',
        replace: false,
      })),
    });
    assert.equal(
      (result.inputs as Bag).hostname,
      'drifted',
      'the stored inputs follow the drift, so the engine sees it too',
    );
    assert.equal((result.inputs as Bag).guestId, undefined, 'computed outputs are not inputs');
  });

  it('delete cancels the guest; read then reports it gone; a second delete is a no-op', async () => {
    await provider.delete(id, outs);
    await assert.rejects(
      client.call('Virtual_Guest', 'getObject', { id: Number(id) }),
      /ObjectNotFound/,
    );
    assert.deepEqual(await provider.read(id, outs), {});
    await provider.delete(id, outs);
  });

  it('a lost createObject response is recovered by the token, without a second order', async () => {
    const inputs = (
      await provider.check({}, { ...declared, resourceName: 'lost', identity: 'proj/dev/lost' })
    ).inputs as Bag;
    emulator.setFaults({
      once: { service: 'Virtual_Guest', method: 'createObject', fault: 'lose-response' },
    });
    const result = await provider.create(inputs);
    const guests = await guestsInDomain();
    assert.deepEqual(
      guests.map((g) => String(g.id)),
      [result.id],
    );
  });
});

describe('VirtualGuest provider: slow provisioning and monthly billing', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(4_000)));
  after(() => emulator?.close());

  const spec = (name: string, extra: Bag = {}) => ({
    ...declared,
    resourceName: name,
    identity: `p/s/${name}`,
    ...extra,
  });

  it('a readiness timeout fails with a clear message but keeps the id, and the next update resumes waiting', async () => {
    const inputs = (await provider.check({}, spec('slow', { readyTimeoutMinutes: 0.02 })))
      .inputs as Bag;
    const failure = await provider.create(inputs).then(
      () => assert.fail('create should time out'),
      (err: Error & { id?: string; properties?: Bag }) => err,
    );
    assert.match(
      failure.message,
      /virtual guest \d+ was not ready after 1 s .*the next `pulumi up` waits for it again \(no new order\)/,
    );
    assert.match(String(failure.id), /^\d+$/, 'the engine keeps this id in the state');
    const resumed = await provider.update(failure.id!, failure.properties!, {
      ...inputs,
      readyTimeoutMinutes: 1,
    });
    assert.ok((resumed.outs as Bag).provisionDate, 'ready after resuming');
    const ordered = (await client.call('Account', 'getVirtualGuests', {
      mask: 'id,hostname',
    })) as VirtualGuest[];
    assert.equal(
      ordered.filter((g) => g.hostname === inputs.hostname).length,
      1,
      'still one guest',
    );
  });

  it('deleting a monthly guest cancels its billing item instead of deleting it outright', async () => {
    const inputs = (await provider.check({}, spec('monthly', { hourlyBillingFlag: false })))
      .inputs as Bag;
    assert.ok((inputs.estimatedMonthlyCost as number) > 0);
    const { id, outs } = await provider.create(inputs);
    const before = emulator.stats().calls;
    await provider.delete(id, outs as Bag);
    const after = emulator.stats().calls;
    assert.equal(
      (after['Billing_Item.cancelService'] ?? 0) - (before['Billing_Item.cancelService'] ?? 0),
      1,
    );
    assert.equal(
      after['Virtual_Guest.deleteObject'] ?? 0,
      before['Virtual_Guest.deleteObject'] ?? 0,
    );
  });
});

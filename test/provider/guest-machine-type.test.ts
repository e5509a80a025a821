import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import type { VirtualGuest } from '../../provider/managers';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { admin } from '../support/emulator-client';
import { printed } from '../support/printed';
import {
  checkedGuest,
  declaredGuest,
  flavoredGuest,
  providerEnv,
  type Emulator,
} from '../support/provider-env';

type Bag = Record<string, unknown>;

/**
 * A guest's machine type against the emulator: a flavor instead of cores and memory (ordered,
 * read back with no drift, imported, upgraded to another flavor in place), and a transient guest
 * (priced lower, refused monthly, reclaimed by the API: gone for `refresh`, ordered anew by `up`).
 */
describe('VirtualGuest machine types: flavorKeyName and transientGuestFlag', () => {
  let emulator: Emulator;
  let client: Client;

  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  const flavored = (name: string, flavorKeyName: string, extra: Bag = {}) =>
    flavoredGuest(name, 'flavor.example.com', flavorKeyName, extra);
  const guestsInDomain = async (domain: string) =>
    (
      (await client.call('Account', 'getVirtualGuests', {
        mask: 'id,domain,startCpus,maxMemory,transientGuestFlag,blockDevices[device,diskImage[capacity]],billingItem[hourlyRecurringFee,orderItem[preset[keyName]]]',
      })) as VirtualGuest[]
    ).filter((g) => g.domain === domain);
  const reasons = async (olds: Bag, news: Bag) =>
    Object.fromEntries(
      ((await provider.check(olds, news)).failures ?? []).map((f) => [f.property, f.reason]),
    );

  it('check names the fields: a flavor with cores or memory, neither, an unknown flavor, a monthly transient guest; nothing is ordered', async () => {
    const both = await reasons(
      {},
      { ...flavored('a', 'B1_2X8X25'), startCpus: 2, maxMemory: 8192 },
    );
    assert.match(both.startCpus, /give either flavorKeyName or startCpus and maxMemory, not both/);
    assert.match(both.maxMemory, /the flavor B1_2X8X25 sets the cores and memory/);
    const { flavorKeyName: _f, ...neither } = flavored('a', 'B1_2X8X25');
    const none = await reasons({}, neither);
    assert.match(none.startCpus, /startCpus is required unless flavorKeyName is given/);
    assert.match(none.maxMemory, /maxMemory is required unless flavorKeyName is given/);
    const unknown = await reasons({}, flavored('a', 'Z9_1X1X1'));
    assert.match(
      unknown.flavorKeyName,
      /flavorKeyName "Z9_1X1X1" is not a flavor this account is offered; offered: .*B1_2X8X25.*C1_1X1X25.*M1_1X8X25/,
    );
    const place = await reasons({}, flavored('a', 'M1_1X8X25', { datacenter: 'che01' }));
    assert.match(
      place.flavorKeyName,
      /flavorKeyName M1_1X8X25 is not offered in che01; offered there: B1_1X2X25, .*C1_1X1X25/,
    );
    assert.doesNotMatch(place.flavorKeyName, /there: .*M1_/);
    const disk = await reasons({}, flavored('a', 'B1_2X8X25', { disks: [100] }));
    assert.match(
      disk.disks,
      /disks\[0\] 100 GB is not the boot disk of flavorKeyName B1_2X8X25 \(25 GB\)/,
    );
    const monthly = await reasons(
      {},
      declaredGuest('a', 'flavor.example.com', {
        transientGuestFlag: true,
        hourlyBillingFlag: false,
      }),
    );
    assert.match(monthly.transientGuestFlag, /a transient guest is billed hourly only/);
    const dedicated = await reasons(
      {},
      declaredGuest('a', 'flavor.example.com', {
        transientGuestFlag: true,
        dedicatedAccountHostOnlyFlag: true,
      }),
    );
    assert.match(dedicated.transientGuestFlag, /a transient guest cannot run on a dedicated host/);
    assert.equal((await guestsInDomain('flavor.example.com')).length, 0, 'nothing ordered');
  });

  it('a flavor is priced as the API quotes it, and a transient guest lower', async () => {
    const flavor = await checkedGuest(flavored('p', 'B1_2X8X25'));
    const sized = await checkedGuest(
      declaredGuest('p', 'flavor.example.com', { startCpus: 2, maxMemory: 8192 }),
    );
    assert.ok((flavor.estimatedHourlyCost as number) > 0);
    assert.equal(
      flavor.estimatedHourlyCost,
      sized.estimatedHourlyCost,
      'the same size costs the same',
    );
    const transient = await checkedGuest(
      declaredGuest('p', 'flavor.example.com', {
        startCpus: 2,
        maxMemory: 8192,
        transientGuestFlag: true,
      }),
    );
    assert.equal(transient.estimatedCostSource, 'account');
    const share = (transient.estimatedHourlyCost as number) / (sized.estimatedHourlyCost as number);
    assert.ok(share > 0.3 && share < 0.5, `a transient guest costs less (${share})`);
  });

  let id = '';
  let outs: Bag = {};
  let inputs: Bag = {};

  it("orders a flavor guest with the flavor's size, reads it back with no drift, imports it as a flavor", async () => {
    inputs = await checkedGuest(flavored('fl', 'B1_2X8X25'));
    ({ id, outs } = (await provider.create(inputs)) as { id: string; outs: Bag });
    const [guest] = await guestsInDomain('flavor.example.com');
    assert.equal(guest.id, Number(id));
    assert.equal(guest.startCpus, 2);
    assert.equal(guest.maxMemory, 8192);
    assert.deepEqual(
      guest.blockDevices?.filter((d) => d.device !== '1').map((d) => d.diskImage?.capacity),
      [25],
    );
    assert.equal(guest.billingItem?.orderItem?.preset?.keyName, 'B1_2X8X25');
    assert.equal(outs.flavorKeyName, 'B1_2X8X25');
    assert.equal(outs.startCpus, 2, "the flavor's cores, an output");
    assert.equal(outs.maxMemory, 8192);
    const refreshed = await provider.read(id, outs);
    assert.deepEqual(await provider.diff(id, refreshed.props as Bag, inputs), { changes: false });
    const imported = await provider.read(id, {});
    const importedInputs = imported.inputs as Bag;
    assert.equal(importedInputs.flavorKeyName, 'B1_2X8X25');
    assert.equal(
      importedInputs.startCpus,
      undefined,
      'an import declares the flavor, not its size',
    );
    assert.deepEqual((await provider.check({}, importedInputs)).failures, []);
  });

  it('another flavor upgrades the guest in place, priced old and new in the BILLING line', async () => {
    const news = await checkedGuest(flavored('fl', 'B1_4X16X25'));
    const diff = await printed(() => provider.diff(id, outs, news));
    assert.deepEqual(diff.result.replaces, []);
    assert.deepEqual(
      diff.result.fields?.map((f) => f.name),
      ['flavorKeyName'],
    );
    assert.match(
      diff.lines,
      /BILLING upgrade VirtualGuest "fl" in place \(flavorKeyName B1_2X8X25 -> B1_4X16X25\): \$\d+\.\d{4}\/hour .* -> \$\d+\.\d{4}\/hour .*; same guest, id and addresses; the guest reboots/,
    );
    const before = Number(
      (await guestsInDomain('flavor.example.com'))[0].billingItem?.hourlyRecurringFee,
    );
    outs = (await provider.update(id, outs, news)).outs as Bag;
    const [guest] = await guestsInDomain('flavor.example.com');
    assert.equal(guest.id, Number(id), 'the same guest');
    assert.equal(guest.startCpus, 4);
    assert.equal(guest.maxMemory, 16384);
    assert.equal(guest.billingItem?.orderItem?.preset?.keyName, 'B1_4X16X25');
    assert.ok(Number(guest.billingItem?.hourlyRecurringFee) > before, 'billed the bigger flavor');
    assert.equal(outs.startCpus, 4);
    const refreshed = await provider.read(id, outs);
    assert.deepEqual(await provider.diff(id, refreshed.props as Bag, news), { changes: false });
    await provider.delete(id, outs);
  });

  it('a transient guest reclaimed by the API is gone for refresh, and the next create orders a new one', async () => {
    const declared = declaredGuest('tr', 'transient.example.com', { transientGuestFlag: true });
    const first = await printed(() => provider.check({}, declared));
    assert.match(
      first.lines,
      /BILLING create VirtualGuest "tr" orders a new guest: 1 CPU, 1024 MB, UBUNTU_LATEST in dal10 \(transient: the API may reclaim it\); hourly, \$/,
    );
    const made = await provider.create(first.result.inputs as Bag);
    const [guest] = await guestsInDomain('transient.example.com');
    assert.equal(guest.transientGuestFlag, true);
    assert.equal(made.outs?.transientGuestFlag, true);
    await admin(emulator.adminUrl, 'POST', `/guests/${made.id}/reclaim`);
    assert.equal((await guestsInDomain('transient.example.com')).length, 0, 'reclaimed: gone');
    assert.deepEqual(await provider.read(made.id, made.outs as Bag), {}, 'refresh drops it');
    // The next up's check: a new order (nothing to adopt), priced like the first.
    const again = (await provider.check({}, declared)).inputs as Bag;
    assert.equal(again.adopts, undefined);
    assert.equal(again.estimatedHourlyCost, (first.result.inputs as Bag).estimatedHourlyCost);
    const remade = await provider.create(again);
    assert.notEqual(remade.id, made.id);
    assert.equal((await guestsInDomain('transient.example.com')).length, 1);
    await provider.delete(remade.id, remade.outs as Bag);
  });
});

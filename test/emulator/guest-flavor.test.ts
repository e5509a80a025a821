/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGuest, sleep, useEmulator } from '../support/emulator-harness';
import { admin } from '../support/emulator-client';

const DELAY = 300;
const h = useEmulator({ provisioningDelayMs: DELAY });

const MASK =
  'mask[id, startCpus, maxMemory, transientGuestFlag, blockDevices[device, diskImage.capacity], billingItem[hourlyRecurringFee, orderItem[presetId, preset.keyName]]]';
const flavor = (flavorKeyName: string, more: Record<string, unknown> = {}) => ({
  startCpus: undefined,
  maxMemory: undefined,
  supplementalCreateObjectOptions: { flavorKeyName },
  ...more,
});
const upgradeTo = (guestId: number, presetId: number) => ({
  complexType: 'Svc_Container_Product_Order_Virtual_Guest_Upgrade',
  virtualGuests: [{ id: guestId }],
  presetId,
  properties: [{ name: 'MAINTENANCE_WINDOW', value: new Date().toISOString() }],
});
const presetIdOf = async (keyName: string) => {
  const presets = await h.demo.call<any[]>('Product_Package', 'getActivePresets', {
    id: 835,
    mask: 'mask[id, keyName]',
  });
  return presets.find((p) => p.keyName === keyName).id as number;
};

describe('Virtual_Guest flavors and transient guests', () => {
  it('getCreateObjectOptions lists the flavors in the reference client fixture shape', async () => {
    const options = await h.demo.call<any>('Virtual_Guest', 'getCreateObjectOptions');
    const b1 = options.flavors.find((f: any) => f.flavor.keyName === 'B1_2X8X25');
    assert.deepEqual(b1.template, {
      supplementalCreateObjectOptions: { flavorKeyName: 'B1_2X8X25' },
    });
  });

  it("a flavor orders its cores, memory and boot disk, read back as the billing item's preset; the API's refusals name the field", async () => {
    const guest = await createGuest(h.demo, flavor('M1_2X16X100', { hostname: 'fl1' }));
    const read = await h.demo.call<any>('Virtual_Guest', 'getObject', { id: guest.id, mask: MASK });
    assert.equal(read.startCpus, 2);
    assert.equal(read.maxMemory, 16384);
    assert.deepEqual(
      read.blockDevices.filter((d: any) => d.device !== '1').map((d: any) => d.diskImage.capacity),
      [100],
    );
    assert.equal(read.billingItem.orderItem.preset.keyName, 'M1_2X16X100');
    assert.equal(read.billingItem.orderItem.presetId, await presetIdOf('M1_2X16X100'));
    await assert.rejects(
      createGuest(h.demo, flavor('B1_2X8X25', { startCpus: 2 })),
      /startCpus.*leave startCpus and maxMemory out/,
    );
    await assert.rejects(
      createGuest(h.demo, flavor('Z9_1X1X1')),
      /flavorKeyName.*is not offered.*B1_2X8X25/,
    );
    await assert.rejects(
      createGuest(
        h.demo,
        flavor('B1_2X8X25', { blockDevices: [{ device: 0, diskImage: { capacity: 100 } }] }),
      ),
      /has a 25 GB boot disk/,
    );
    await assert.rejects(createGuest(h.demo, { startCpus: undefined }), /startCpus/);
    // The memory family is offered where the default prices apply, not in che01.
    await assert.rejects(
      createGuest(h.demo, flavor('M1_1X8X25', { datacenter: { name: 'che01' } })),
      /M1_1X8X25.*flavorKeyName.*is not offered.*B1_2X8X25/,
    );
  });

  it("an upgrade's presetId takes the guest to the flavor (the boot disk only grows)", async () => {
    const guest = await createGuest(h.demo, flavor('B1_1X2X100', { hostname: 'fl2' }));
    await sleep(DELAY + 50);
    await assert.rejects(
      h.demo.call('Product_Order', 'verifyOrder', {
        args: [upgradeTo(guest.id, await presetIdOf('B1_2X4X25'))],
      }),
      /has a 25 GB boot disk and virtual guest \d+ has 100 GB: a disk can only grow/,
    );
    await h.demo.call('Product_Order', 'placeOrder', {
      args: [upgradeTo(guest.id, await presetIdOf('B1_4X8X100'))],
    });
    await sleep(DELAY + 50);
    const read = await h.demo.call<any>('Virtual_Guest', 'getObject', { id: guest.id, mask: MASK });
    assert.equal(read.startCpus, 4);
    assert.equal(read.maxMemory, 8192);
    assert.equal(read.billingItem.orderItem.preset.keyName, 'B1_4X8X100');
  });

  it('a transient guest costs 40% of each fee, is hourly only, and the API reclaims it (gone at once); another guest is not reclaimed', async () => {
    const plain = await createGuest(h.demo, { hostname: 'tr0' });
    const transient = await createGuest(h.demo, { hostname: 'tr1', transientGuestFlag: true });
    const fee = async (id: number) =>
      Number(
        (await h.demo.call<any>('Virtual_Guest', 'getObject', { id, mask: MASK })).billingItem
          .hourlyRecurringFee,
      );
    const share = (await fee(transient.id)) / (await fee(plain.id));
    assert.ok(Math.abs(share - 0.4) < 0.02, `transient fee share ${share}`);
    await assert.rejects(
      createGuest(h.demo, { transientGuestFlag: true, hourlyBillingFlag: false }),
      /transientGuestFlag.*billed hourly only/,
    );
    await assert.rejects(
      admin(h.emu.adminUrl, 'POST', `/guests/${plain.id}/reclaim`),
      /is not transient/,
    );
    await admin(h.emu.adminUrl, 'POST', `/guests/${transient.id}/reclaim`);
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'getObject', { id: transient.id }),
      /ObjectNotFound|not found|Unable to find/i,
    );
  });
});

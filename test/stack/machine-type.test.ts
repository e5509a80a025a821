import assert from 'node:assert/strict';
import type { VirtualGuest } from '../../provider/managers';
import type { Emulator } from './cli';
import { admin } from '../support/emulator-client';
import { scenarioPerDoor, type FrontDoor } from './front-door';

/**
 * A guest's machine type through the Pulumi CLI, both doors: a transient guest of a flavor is
 * priced in the preview, ordered with the flavor's size, refreshed with no drift; another flavor
 * previews as an upgrade in place; once the API reclaims it, `refresh` drops it from the state and
 * the next `up` (its preview's BILLING line saying so) orders one new guest.
 */

scenarioPerDoor("A guest's flavor and transient flag through the Pulumi CLI", scenario);

const MASK = 'id,startCpus,maxMemory,transientGuestFlag,billingItem[id,orderItem[preset[keyName]]]';

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const f = await door.owner({}, { emulator });
  try {
    const ordered = () => emulator.stats().calls['Virtual_Guest.createObject'] ?? 0;
    // The owner program's base guest gives cores and memory: null leaves them to the flavor.
    const machine = (flavorKeyName: string) => ({
      guest: { flavorKeyName, startCpus: null, maxMemory: null, transientGuestFlag: true },
    });
    const created =
      /BILLING create VirtualGuest "server" orders a new guest: flavor B1_2X8X25, UBUNTU_LATEST in dal10 \(transient: the API may reclaim it\); hourly, \$\d+\.\d{4}\/hour/;

    await door.setOwner(f, machine('B1_2X8X25'));
    assert.match((await f.stack.preview()).stdout, created);
    const before = ordered();
    await f.stack.up();
    const [id] = await f.stateIds('VirtualGuest');
    const guest = (await f.client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: MASK,
    })) as VirtualGuest;
    assert.equal(ordered() - before, 1);
    assert.equal(guest.startCpus, 2);
    assert.equal(guest.maxMemory, 8192);
    assert.equal(guest.transientGuestFlag, true);
    assert.equal(guest.billingItem?.orderItem?.preset?.keyName, 'B1_2X8X25');
    await f.stack.preview(['--refresh', '--expect-no-changes']);

    // Another flavor: an upgrade of the same guest, priced old and new.
    await door.setOwner(f, machine('B1_4X16X25'));
    assert.match(
      (await f.stack.preview()).stdout,
      /BILLING upgrade VirtualGuest "server" in place \(flavorKeyName B1_2X8X25 -> B1_4X16X25\): \$\d+\.\d{4}\/hour .* -> \$\d+\.\d{4}\/hour/,
    );

    // Reclaimed by the API: gone from the account, so refresh drops it and up orders anew.
    await door.setOwner(f, machine('B1_2X8X25'));
    await admin(emulator.adminUrl, 'POST', `/guests/${id}/reclaim`);
    await f.stack.refresh();
    assert.deepEqual(await f.stateIds('VirtualGuest'), []);
    assert.match((await f.stack.preview()).stdout, created);
    const again = ordered();
    await f.stack.up();
    const [newId] = await f.stateIds('VirtualGuest');
    assert.notEqual(newId, id);
    assert.equal(ordered() - again, 1, 'one new order');
    await f.stack.destroy();
  } finally {
    await f.close();
  }
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmulator } from '../../emulator';
import type { Client } from '../../provider/client';
import { isNoteMarked } from '../../provider/framework/creation-token';
import { StorageManager } from '../../provider/managers';
import { writeCalls, type Emulator } from './cli';
import { DOORS, providersEnded } from './front-door';

/**
 * The Pulumi CLI killed (SIGKILL) while a file volume provisions, whose datacenter is a guest's:
 * the guest fell back to dal12 (dal10 had no room), so the volume was ordered there. A destroy
 * then removes the guest, and the next `up` makes it in dal10 again, so the volume is declared in
 * dal10. The volume in dal12 is still the resource's unfinished order: the create refuses it,
 * naming it and the datacenter, and orders nothing (a second order would leave the first billed
 * outside every state: the chaos test found that, seed 4). Once the user cancels it as the message
 * says, the next `up` orders one in dal10.
 */

const door = DOORS.dynamic;

interface Row {
  id: number;
  notes?: string;
  serviceResource?: { datacenter?: { name: string } };
  billingItem?: { cancellationDate?: string };
}

/** The account's live volumes: id, datacenter, and whether a state was handed it. */
async function volumes(client: Client) {
  return (
    (await client.call('Account', 'getNetworkStorage', {
      mask: 'id,notes,serviceResource.datacenter.name,billingItem[id,cancellationDate]',
    })) as Row[]
  )
    .filter((v) => v.billingItem && !v.billingItem.cancellationDate)
    .map((v) => ({
      id: String(v.id),
      datacenter: v.serviceResource?.datacenter?.name,
      handed: isNoteMarked(v.notes),
    }));
}

const program = {
  guests: ['g0'],
  guest: { datacenters: ['dal10', 'dal12'] },
  resources: {
    share: {
      kind: 'FileVolume',
      properties: {
        datacenter: '${g0.datacenter}',
        capacityGb: 100,
        iops: 1000,
        hourlyBilling: true,
        authorizedGuestIds: ['${g0.guestId}'],
        cancelImmediately: true,
      },
    },
  },
};

describe("a killed up's volume, declared in another datacenter by the next up, is refused (dynamic)", () => {
  let emulator: Emulator;
  // A volume provisions 4 s after its order: still provisioning when the CLI dies.
  before(
    async () =>
      (emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 4_000 })),
  );
  after(() => emulator?.close());

  it(
    'no second volume beside it; ordered once the user cancels it',
    { timeout: 300_000 },
    async () => {
      const f = await door.owner(program, { emulator });
      try {
        emulator.settings.datacenterCapacity = { dal10: 0 };
        const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
        const ordered = () => writeCalls(emulator, 'Product_Order.placeOrder') > 0;
        for (let i = 0; i < 3000 && !ordered(); i++) await sleep(20);
        assert.ok(ordered(), 'the volume ordered');
        process.kill(run.child.pid!, 'SIGKILL');
        await run.done.catch(() => undefined);
        assert.ok(
          await providersEnded(door, f, 30_000),
          'the provider ends once its engine is gone',
        );
        const [left, ...more] = await volumes(f.client);
        assert.deepEqual(more, []);
        assert.deepEqual(left, { id: left.id, datacenter: 'dal12', handed: false });

        await f.stack.run(['cancel', '--yes']);
        await f.stack.destroy(); // the guest goes; the volume was never in the state
        emulator.settings.datacenterCapacity = undefined;
        await assert.rejects(
          f.stack.up(),
          new RegExp(
            `volume ${left.id} was ordered by an earlier unfinished create of this resource .* datacenter "dal12" \\(declared "dal10"\\)`,
          ),
        );
        assert.equal(writeCalls(emulator, 'Product_Order.placeOrder'), 1, 'nothing more ordered');
        assert.deepEqual(await volumes(f.client), [left]);
        assert.deepEqual(await f.stateIds('FileVolume'), []);

        // The user cancels it, as the message says: the next up orders the volume in dal10.
        const storage = new StorageManager(f.client);
        const { billingItem } = await storage.getVolume(Number(left.id));
        await storage.cancel(billingItem!.id, true, 'not wanted');
        await f.stack.up();
        const now = await volumes(f.client);
        assert.deepEqual(now, [{ id: now[0]?.id, datacenter: 'dal10', handed: true }]);
        assert.deepEqual(await f.stateIds('FileVolume'), [now[0].id]);

        await f.stack.destroy();
        assert.deepEqual(await volumes(f.client), []);
      } finally {
        await f.close();
      }
    },
  );
});

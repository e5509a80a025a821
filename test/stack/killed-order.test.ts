import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmulator } from '../../emulator';
import type { Client } from '../../provider/client';
import { isNoteMarked } from '../../provider/framework/creation-token';
import { writeCalls, type Emulator } from './cli';
import { DOORS, providersEnded } from './front-door';
import { yamlProgram } from './plugin-project';

/**
 * The Pulumi CLI killed (SIGKILL, a crash) while a stack's billed orders are under way, on the
 * plugin: a VLAN whose create is handing it to the state (its mark's write slowed, so it is in
 * flight), and a block volume still provisioning. The provider sees its engine gone, takes back
 * the VLAN's mark and exits; after the user's `pulumi cancel` and `refresh --clear-pending-creates`,
 * the next `up` takes both over: one order of each in all, both in the state, none refused.
 */

const door = DOORS.plugin;
/** A volume provisions this long after its order: still provisioning when the CLI dies. */
const PROVISIONING_MS = 8_000;

interface Row {
  id: number;
  note?: string;
  notes?: string;
  billingItem?: { notes?: string; cancellationDate?: string };
  properties?: { value: string }[];
}

/** The live VLANs and volumes ordered with one of this provider's creation tokens. */
async function ordered(client: Client) {
  const live = (r: Row) => r.billingItem !== undefined && !r.billingItem.cancellationDate;
  const vlans = (
    (await client.call('Account', 'getNetworkVlans', {
      mask: 'id,note,billingItem[id,notes,cancellationDate]',
    })) as Row[]
  ).filter((v) => live(v) && v.billingItem?.notes?.startsWith('pulumi-svc-'));
  const volumes = (
    (await client.call('Account', 'getNetworkStorage', {
      mask: 'id,notes,properties.value,billingItem[id,cancellationDate]',
    })) as Row[]
  ).filter((v) => live(v) && (v.properties ?? []).some((p) => p.value.startsWith('pulumi-svc-')));
  return {
    vlans: vlans.map((v) => ({ id: String(v.id), handed: isNoteMarked(v.note) })),
    volumes: volumes.map((v) => ({ id: String(v.id), handed: isNoteMarked(v.notes) })),
  };
}

describe('a CLI killed while a VLAN and a volume are ordered: the next up takes both over (plugin)', () => {
  let emulator: Emulator;
  before(
    async () =>
      (emulator = await startEmulator({
        port: 0,
        seed: 'demo',
        provisioningDelayMs: PROVISIONING_MS,
      })),
  );
  after(() => emulator?.close());

  it('one order of each, both in the state, no refusal', { timeout: 300_000 }, async () => {
    const program = yamlProgram('killedorder', {});
    const f = await program.fixture(emulator);
    try {
      program.writeResources({
        net: {
          type: 'svc:index:Vlan',
          properties: { datacenter: 'dal10', networkSpace: 'PRIVATE', notes: 'db tier' },
        },
        data: {
          type: 'svc:index:BlockVolume',
          properties: { datacenter: 'dal10', capacityGb: 20, tierIopsPerGb: 2, osFormat: 'LINUX' },
        },
      });
      // The VLAN's handover (its note with the mark) takes 6 s to answer: the CLI dies meanwhile.
      emulator.setFaults({
        once: { service: 'Network_Vlan', method: 'editObject', fault: 'latency', delayMs: 6_000 },
      });
      const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
      const moment = () =>
        writeCalls(emulator, 'Product_Order.placeOrder') === 2 &&
        (emulator.stats().faultsInjected.latency ?? 0) > 0;
      for (let i = 0; i < 1500 && !moment(); i++) await sleep(20);
      assert.ok(moment(), 'both ordered, the VLAN being handed over');
      process.kill(run.child.pid!, 'SIGKILL'); // the CLI alone, as a crash would
      await run.done.catch(() => undefined);
      assert.ok(await providersEnded(door, f, 30_000), 'the provider ends once its engine is gone');
      const killed = await ordered(f.client);
      assert.deepEqual(
        [killed.vlans.length, killed.volumes.length],
        [1, 1],
        'one of each ordered before the kill',
      );
      assert.deepEqual(
        [...killed.vlans, ...killed.volumes].map((o) => o.handed),
        [false, false],
        'neither handed to a state: the mark in flight was taken back',
      );

      // What a user does after a crashed update: remove its lock, reconcile the pending creates.
      await f.stack.run(['cancel', '--yes']);
      await f.stack.refresh(['--clear-pending-creates']);
      await sleep(PROVISIONING_MS); // the volume is provisioned by now: taken over all the same
      await f.stack.up();

      const now = await ordered(f.client);
      assert.equal(writeCalls(emulator, 'Product_Order.placeOrder'), 2, 'no second order');
      assert.deepEqual(now, {
        vlans: [{ id: killed.vlans[0].id, handed: true }],
        volumes: [{ id: killed.volumes[0].id, handed: true }],
      });
      assert.deepEqual(await f.stateIds('Vlan'), [killed.vlans[0].id]);
      assert.deepEqual(await f.stateIds('BlockVolume'), [killed.volumes[0].id]);
      assert.match(f.output(), /was ordered by an earlier unfinished create of this resource/);

      await f.stack.destroy();
      assert.deepEqual(await ordered(f.client), { vlans: [], volumes: [] });
    } finally {
      await f.close();
    }
  });
});

import assert from 'node:assert/strict';
import type { Client } from '../../provider/client';
import { StorageManager, type Volume } from '../../provider/managers';
import { cliFixture, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';
import { guestTemplate } from '../support/emulator-harness';
import { orderByHand } from '../support/volumes';

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'volume', emulator }),
  write: (f, data) => f.stack.setConfig({ 'volume:data': { value: JSON.stringify(data) } }),
});

/** A monthly endurance volume in dal10 at 2 IOPS per GB. */
const VOLUME = { datacenter: 'dal10', tierIopsPerGb: 2, osFormat: 'LINUX' };

scenarioPerDoor(
  'BlockVolume through the Pulumi CLI: create, resize in place, drift, import, destroy',
  scenario,
);

/** A guest in dal10, made over XML-RPC. */
async function guest(client: Client, hostname: string): Promise<number> {
  const { id } = (await client.call('Virtual_Guest', 'createObject', {
    args: [guestTemplate({ hostname, domain: 'volume.example.com' })],
  })) as { id: number };
  return id;
}

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin' ? yamlOneKind('volume', 'BlockVolume', 'data', {}) : tsProgram();
  const f = await program.fixture(emulator);
  try {
    const volumes = new StorageManager(f.client);
    const db = await guest(f.client, `db-${door.name}`);
    const other = await guest(f.client, `other-${door.name}`);
    const allowed = async (id: string) =>
      ((await volumes.getVolume(Number(id))).allowedVirtualGuests ?? [])
        .map((g) => g.id)
        .sort((a, b) => a - b);
    const before = (await volumes.listVolumes()).map((v) => v.id);
    const newVolumes = async () =>
      (await volumes.listVolumes()).filter((v) => !before.includes(v.id));

    const data = { ...VOLUME, capacityGb: 20, authorizedGuestIds: [db] };
    await program.write(f, data);
    await f.stack.up();
    const [id] = await f.stateIds('BlockVolume');
    const made = await newVolumes();
    assert.deepEqual(
      made.map((v) => String(v.id)),
      [id],
      'exactly one volume ordered',
    );
    assert.equal(made[0].capacityGb, 20);
    assert.deepEqual(await allowed(id), [db]);

    // A larger size: an upgrade order on the same volume.
    const grown = { ...data, capacityGb: 40 };
    await program.write(f, grown);
    await f.stack.up();
    assert.deepEqual(await f.stateIds('BlockVolume'), [id]);
    assert.equal((await volumes.getVolume(Number(id))).capacityGb, 40);
    assert.equal((await newVolumes()).length, 1, 'no second volume');

    // Out of band over XML-RPC: a second guest allowed. Refresh sees it; up removes it.
    await f.client.call('Network_Storage', 'allowAccessFromVirtualGuest', {
      id: Number(id),
      args: [{ id: other }],
    });
    await f.stack.refresh();
    const refreshed = (await f.stack.resources()).find((r) => r.id === id)!;
    assert.deepEqual(
      refreshed.outputs?.authorizedGuestIds,
      [db, other].sort((a, b) => a - b),
      'refresh saw the second guest',
    );
    await f.stack.up();
    assert.deepEqual(await allowed(id), [db]);
    await f.stack.preview(['--expect-no-changes']);

    // Import (the plugin: Pulumi imports no dynamic resource, README's Limitations): a volume
    // ordered over XML-RPC, then declared as it is: no change.
    let byHand: Volume | undefined;
    if (door.name === 'plugin') {
      const order = { type: 'block', ...VOLUME, hourly: false, capacityGb: 20 } as const;
      byHand = await orderByHand(volumes, order, `by-hand-${door.name}`);
      await f.stack.run([
        'import',
        'svc:index:BlockVolume',
        'imported',
        String(byHand.id),
        '--yes',
        '--protect=false',
      ]);
      await program.write(f, grown, { ...VOLUME, capacityGb: 20 });
      assert.deepEqual((await f.stateIds('BlockVolume')).sort(), [id, String(byHand.id)].sort());
      await f.stack.preview(['--expect-no-changes']);
    }

    // Destroy: a monthly volume's billing item is cancelled (at its anniversary).
    await f.stack.destroy();
    const cancelled = async (volumeId: number) =>
      (await volumes.listVolumes()).find((v) => v.id === volumeId)?.billingItem?.cancellationDate;
    assert.ok(await cancelled(Number(id)), 'the volume is cancelled');
    if (byHand) assert.ok(await cancelled(byHand.id), 'the imported volume is cancelled');
    assert.deepEqual(await f.stateIds('BlockVolume'), []);
  } finally {
    await f.close();
  }
}

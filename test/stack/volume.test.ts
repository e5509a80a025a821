import assert from 'node:assert/strict';
import type { Client } from '../../provider/client';
import { StorageManager, type Volume } from '../../provider/managers';
import { cliFixture, previewBilling, type CliFixture, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlProgram } from './plugin-project';
import { guestTemplate } from '../support/emulator-harness';
import { orderByHand } from '../support/volumes';

type Args = Record<string, unknown>;
/** The stack's volumes: block volume `data`, file volume `share`, and an imported block volume. */
interface Declared {
  data: Args;
  share: Args;
  imported?: Args;
}
interface VolumesProgram {
  fixture(emulator: Emulator): Promise<CliFixture>;
  write(f: CliFixture, declared: Declared): Promise<void>;
}

const tsProgram = (): VolumesProgram => ({
  fixture: (emulator) => cliFixture({ program: 'volume', emulator }),
  write: (f, { data, share }) =>
    f.stack.setConfig({
      'volume:data': { value: JSON.stringify(data) },
      'volume:share': { value: JSON.stringify(share) },
    }),
});

function yamlVolumes(): VolumesProgram {
  const block = (properties: Args) => ({ type: 'svc:index:BlockVolume', properties });
  const program = yamlProgram('volume', {});
  return {
    fixture: program.fixture,
    write: async (_f, { data, share, imported }) =>
      program.writeResources({
        data: block(data),
        share: { type: 'svc:index:FileVolume', properties: share },
        ...(imported ? { imported: block(imported) } : {}),
      }),
  };
}

/** A monthly endurance volume in dal10 at 2 IOPS per GB. */
const VOLUME = { datacenter: 'dal10', tierIopsPerGb: 2, osFormat: 'LINUX' };

/** An hourly performance file volume in dal10. */
const SHARE = { datacenter: 'dal10', iops: 1000, hourlyBilling: true };

/** Schedules as the program declares them (and the state records them, defaults filled in). */
const DAILY = { type: 'DAILY', retentionCount: 7, minute: 30, hour: 2 };
const WEEKLY = { type: 'WEEKLY', retentionCount: 4, minute: 0, hour: 3, dayOfWeek: 'SATURDAY' };

scenarioPerDoor(
  'BlockVolume and FileVolume through the Pulumi CLI: create, resize and grow snapshot space in place, schedules and hosts by address kept, drift, import, destroy',
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
  const program = door.name === 'plugin' ? yamlVolumes() : tsProgram();
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

    // The guest's private address (its record on the account), for the share's hosts by address.
    const ips = (await f.client.call('Account', 'getIpAddresses', {
      mask: 'ipAddress,virtualGuest.id,subnet.addressSpace',
    })) as { ipAddress: string; virtualGuest?: { id: number }; subnet: { addressSpace: string } }[];
    const dbAddress = ips.find(
      (i) => i.virtualGuest?.id === db && i.subnet.addressSpace === 'PRIVATE',
    )!.ipAddress;
    const addresses = async (volumeId: string) =>
      ((await volumes.getVolume(Number(volumeId))).allowedIpAddresses ?? []).map(
        (a) => a.ipAddress,
      );
    const schedules = async (volumeId: string) =>
      ((await volumes.getVolume(Number(volumeId))).schedules ?? [])
        .map((s) => s.type?.keyname)
        .sort();

    const data = {
      ...VOLUME,
      capacityGb: 20,
      authorizedGuestIds: [db],
      snapshotCapacityGb: 20,
      snapshotSchedules: [DAILY],
    };
    const share = {
      ...SHARE,
      capacityGb: 100,
      authorizedGuestIds: [db],
      authorizedIpAddresses: [dbAddress],
    };
    await program.write(f, { data, share });
    await f.stack.up();
    const [id] = await f.stateIds('BlockVolume');
    const [shareId] = await f.stateIds('FileVolume');
    const made = await newVolumes();
    assert.deepEqual(
      made.map((v) => String(v.id)).sort(),
      [id, shareId].sort(),
      'exactly one volume of each kind ordered',
    );
    const madeShare = await volumes.getVolume(Number(shareId));
    assert.equal(madeShare.nasType, 'NAS');
    assert.equal(Number(madeShare.provisionedIops), 1000);
    assert.equal(madeShare.capacityGb, 100);
    assert.equal((await volumes.getVolume(Number(id))).capacityGb, 20);
    assert.deepEqual(await allowed(id), [db]);
    assert.deepEqual(await allowed(shareId), [db]);
    assert.equal((await volumes.getVolume(Number(id))).snapshotCapacityGb, '20');
    assert.deepEqual(await schedules(id), ['SNAPSHOT_DAILY']);
    assert.deepEqual(await addresses(shareId), [dbAddress]);

    // A larger size and more snapshot space: orders on the same volume, priced in the preview.
    const grown = {
      ...data,
      capacityGb: 40,
      snapshotCapacityGb: 40,
      snapshotSchedules: [DAILY, WEEKLY],
    };
    const grownShare = { ...share, capacityGb: 200 };
    await program.write(f, { data: grown, share: grownShare });
    const preview = await previewBilling(f);
    assert.match(
      preview.messages,
      /BILLING upgrade BlockVolume "data" in place \(20 GB, 2 IOPS per GB, 20 GB of snapshot space -> 40 GB, 2 IOPS per GB, 40 GB of snapshot space\): \$[\d.]+\/hour \(\$([\d.]+)\/month\) -> \$[\d.]+\/hour \(\$([\d.]+)\/month\)/,
    );
    assert.equal(
      (await volumes.getVolume(Number(id))).snapshotCapacityGb,
      '20',
      'a preview orders nothing',
    );
    await f.stack.up();
    assert.deepEqual(await f.stateIds('BlockVolume'), [id]);
    assert.deepEqual(await f.stateIds('FileVolume'), [shareId]);
    assert.equal((await volumes.getVolume(Number(id))).capacityGb, 40);
    assert.equal((await volumes.getVolume(Number(shareId))).capacityGb, 200);
    assert.equal((await newVolumes()).length, 2, 'no other volume');
    assert.equal((await volumes.getVolume(Number(id))).snapshotCapacityGb, '40');
    assert.deepEqual(await schedules(id), ['SNAPSHOT_DAILY', 'SNAPSHOT_WEEKLY']);

    // Out of band over XML-RPC: a second guest allowed on each, the daily schedule disabled, an
    // hourly one added, the address removed. Refresh sees it; up puts it back as declared.
    for (const volumeId of [id, shareId])
      await f.client.call('Network_Storage', 'allowAccessFromVirtualGuest', {
        id: Number(volumeId),
        args: [{ id: other }],
      });
    await volumes.disableSnapshots(Number(id), 'DAILY');
    await volumes.enableSnapshots(Number(id), {
      type: 'HOURLY',
      retentionCount: 2,
      minute: 0,
      hour: 0,
      dayOfWeek: 'SUNDAY',
    });
    const [shareIp] = (await volumes.getVolume(Number(shareId))).allowedIpAddresses ?? [];
    await volumes.setIpAccess(Number(shareId), [shareIp.id], false);
    await f.stack.refresh();
    const refreshed = await f.stack.resources();
    assert.deepEqual(
      refreshed.find((r) => r.id === id)?.outputs?.snapshotSchedules,
      [{ type: 'HOURLY', retentionCount: 2, minute: 0 }, WEEKLY],
      'refresh saw the schedules as they are',
    );
    assert.deepEqual(refreshed.find((r) => r.id === shareId)?.outputs?.authorizedIpAddresses, []);
    for (const volumeId of [id, shareId])
      assert.deepEqual(
        refreshed.find((r) => r.id === volumeId)?.outputs?.authorizedGuestIds,
        [db, other].sort((a, b) => a - b),
        `refresh saw the second guest on ${volumeId}`,
      );
    await f.stack.up();
    assert.deepEqual(await allowed(id), [db]);
    assert.deepEqual(await allowed(shareId), [db]);
    assert.deepEqual(await schedules(id), ['SNAPSHOT_DAILY', 'SNAPSHOT_WEEKLY']);
    assert.deepEqual(await addresses(shareId), [dbAddress]);
    await f.stack.preview(['--expect-no-changes']);

    // Import (the plugin: Pulumi imports no dynamic resource, README's Limitations): a volume
    // ordered over XML-RPC, then declared as it is: no change.
    let byHand: Volume | undefined;
    if (door.name === 'plugin') {
      // With snapshot space and a schedule, set by hand too.
      const order = {
        type: 'block',
        ...VOLUME,
        hourly: false,
        capacityGb: 20,
        snapshotGb: 10,
      } as const;
      byHand = await orderByHand(volumes, order, `by-hand-${door.name}`);
      await volumes.enableSnapshots(byHand.id, { ...WEEKLY, type: 'WEEKLY' });
      await f.stack.run([
        'import',
        'svc:index:BlockVolume',
        'imported',
        String(byHand.id),
        '--yes',
        '--protect=false',
      ]);
      await program.write(f, {
        data: grown,
        share: grownShare,
        imported: {
          ...VOLUME,
          capacityGb: 20,
          snapshotCapacityGb: 10,
          snapshotSchedules: [WEEKLY],
        },
      });
      assert.deepEqual((await f.stateIds('BlockVolume')).sort(), [id, String(byHand.id)].sort());
      await f.stack.preview(['--expect-no-changes']);
    }

    // Destroy: a monthly volume's billing item is cancelled (at its anniversary), an hourly one at
    // once.
    await f.stack.destroy();
    const cancelled = async (volumeId: number) =>
      (await volumes.listVolumes()).find((v) => v.id === volumeId)?.billingItem?.cancellationDate;
    assert.ok(await cancelled(Number(id)), 'the volume is cancelled');
    if (byHand) assert.ok(await cancelled(byHand.id), 'the imported volume is cancelled');
    assert.equal(await volumes.findVolume(Number(shareId)), undefined, 'the hourly share is gone');
    assert.deepEqual(await f.stateIds('BlockVolume'), []);
    assert.deepEqual(await f.stateIds('FileVolume'), []);
  } finally {
    await f.close();
  }
}

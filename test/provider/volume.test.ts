import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { PROVIDERS } from '../../provider/kinds';
import type { Volume } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { guestTemplate } from '../support/emulator-harness';
import { printed } from '../support/printed';

type Bag = Record<string, unknown>;
const block = PROVIDERS.BlockVolume;
const file = PROVIDERS.FileVolume;

const declared = (name: string, extra: Bag = {}): Bag => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  provenance: `test/${name}-${Math.random()}`,
  datacenter: 'dal10',
  capacityGb: 20,
  tierIopsPerGb: 2,
  ...extra,
});

describe('BlockVolume and FileVolume providers against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(300)));
  after(() => emulator?.close());

  const volumes = async () =>
    (await client.call('Account', 'getNetworkStorage', {
      mask: 'id,capacityGb,allowedVirtualGuests.id,billingItem.cancellationDate',
    })) as Volume[];
  const guest = async (hostname: string, datacenter = 'dal10') =>
    (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname, datacenter: { name: datacenter } })],
    })) as { id: number };

  it('check names the field and the rule: tier or IOPS, IOPS per GB, never a smaller size', async () => {
    const both = await block.check({}, declared('x', { iops: 1000 }));
    assert.match(String(both.failures?.[0]?.reason), /exactly one of tierIopsPerGb .* and iops/);
    const steep = await block.check({}, declared('x', { tierIopsPerGb: undefined, iops: 2000 }));
    assert.deepEqual(
      steep.failures?.map((f) => f.property),
      ['iops'],
    );
    const badTier = await block.check({}, declared('x', { tierIopsPerGb: 3 }));
    assert.deepEqual(
      badTier.failures?.map((f) => f.property),
      ['tierIopsPerGb'],
    );
    const before = (await volumes()).length;
    const smaller = await block.check({ capacityGb: 40 }, declared('x', { capacityGb: 30 }));
    const failure = smaller.failures?.find((f) => f.property === 'capacityGb');
    assert.match(
      String(failure?.reason),
      /smaller than the volume's 40 GB: a volume can only grow/,
    );
    assert.equal((await volumes()).length, before, 'nothing ordered');
  });

  it('orders once, waits, allows guests, resizes in place, sees and repairs drift, imports, cancels', async () => {
    const db = await guest('db');
    const other = await guest('other');
    const checked = await block.check({}, declared('data', { authorizedGuestIds: [db.id] }));
    assert.deepEqual(checked.failures, []);
    const inputs = checked.inputs!;
    assert.equal(inputs.estimatedMonthlyCost, 2.77, 'priced by verifyOrder: 20 GB at 2 IOPS/GB');
    // The order's answer is lost: the volume it made is found by its token, not ordered twice.
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    const { id, outs } = await block.create(inputs);
    assert.equal((await volumes()).length, 1, 'one volume');
    assert.deepEqual(outs!.authorizedGuestIds, [db.id]);
    assert.equal(outs!.capacityGb, 20);
    assert.equal(outs!.provisionedIops, 40);
    assert.deepEqual(outputProblems('BlockVolume', outs!), []);

    const grown = (
      await block.check(outs!, { ...declared('data'), capacityGb: 40, authorizedGuestIds: [db.id] })
    ).inputs!;
    const diff = await block.diff(id, outs!, grown);
    assert.deepEqual(diff.replaces, [], 'a larger size changes in place');
    const updated = await block.update(id, outs!, grown);
    assert.equal(updated.outs!.capacityGb, 40);
    assert.equal(updated.outs!.volumeId, Number(id), 'the same volume');
    assert.equal((await volumes()).length, 1);

    // A guest allowed outside Pulumi: drift that refresh shows and the next update removes.
    await client.call('Network_Storage', 'allowAccessFromVirtualGuest', {
      id: Number(id),
      args: [{ id: other.id }],
    });
    const refreshed = await block.read(id, updated.outs!);
    assert.deepEqual(
      (refreshed.props as Bag).authorizedGuestIds,
      [db.id, other.id].sort((a, b) => a - b),
    );
    const repaired = await block.update(id, refreshed.props as Bag, grown);
    assert.deepEqual(repaired.outs!.authorizedGuestIds, [db.id]);
    const [afterRepair] = await volumes();
    assert.deepEqual(
      afterRepair.allowedVirtualGuests?.map((g) => g.id),
      [db.id],
    );

    const imported = await block.read(id, {});
    assert.deepEqual(
      [imported.inputs?.capacityGb, imported.inputs?.tierIopsPerGb, imported.inputs?.datacenter],
      [40, 2, 'dal10'],
    );

    await block.delete(id, repaired.outs!);
    const [cancelled] = await volumes();
    assert.ok(cancelled.billingItem?.cancellationDate, 'monthly: cancelled at its anniversary');
    assert.deepEqual(await block.read(id, repaired.outs!), {}, 'cancelled: it leaves the stack');
  });

  it('a create never takes over the provisioned volume its resource holds; once that is cancelled it orders anew', async () => {
    const spec = declared('same');
    const created = await printed(async () => block.check({}, spec));
    assert.match(created.lines, /BILLING create BlockVolume "same"/);
    const inputs = created.result.inputs!;
    const first = await block.create(inputs);
    // The same resource's inputs checked again (its old inputs given): no new order is announced.
    const again = await printed(async () => block.check(inputs, spec));
    assert.doesNotMatch(again.lines, /BILLING create/);
    // A replace that orders before it deletes: the old volume carries the same token.
    const count = (await volumes()).length;
    await assert.rejects(
      block.create(inputs),
      /volume \d+ carries this resource's creation token and was handed to a state.*deleteBeforeReplace: true/,
    );
    assert.equal((await volumes()).length, count, 'nothing ordered');
    assert.ok(
      !(await volumes()).find((v) => String(v.id) === first.id)?.billingItem?.cancellationDate,
    );
    // Deleted first (monthly: cancelled at its anniversary, still listed): a new volume is ordered.
    await block.delete(first.id, first.outs!);
    const second = await block.create(inputs);
    assert.notEqual(second.id, first.id, 'a new volume, not the cancelled one');
    assert.equal((await volumes()).length, count + 1);
    await block.delete(second.id, second.outs!);
  });

  it('a replacement orders a new volume, not the one it replaces (the token is the same)', async () => {
    const first = await block.create((await block.check({}, declared('swap'))).inputs!);
    const news = (await block.check(first.outs!, { ...declared('swap'), osFormat: 'WINDOWS' }))
      .inputs!;
    news.provenance = first.outs!.provenance; // the same URN
    news.creationToken = first.outs!.creationToken;
    const planned = await printed(async () => block.diff(first.id, first.outs!, news));
    assert.deepEqual(planned.result.replaces, ['osFormat']);
    assert.match(
      planned.lines,
      /BILLING replace BlockVolume "swap" \(changed: osFormat\): orders a new block volume .* cancels the old one at \$/,
    );
    const second = await block.create(news);
    assert.notEqual(second.id, first.id, 'a new volume');
    assert.equal(second.outs!.osFormat, 'WINDOWS');
    await block.delete(first.id, first.outs!);
    await block.delete(second.id, second.outs!);
  });

  it('check refuses schedules without snapshot space, a smaller space, a malformed schedule, an address not the account’s; nothing ordered', async () => {
    const before = (await volumes()).length;
    const daily = { type: 'DAILY', retentionCount: 7, hour: 2 };
    const noSpace = await block.check({}, declared('s', { snapshotSchedules: [daily] }));
    assert.match(
      String(noSpace.failures?.find((f) => f.property === 'snapshotSchedules')?.reason),
      /need snapshot space.*set snapshotCapacityGb/,
    );
    const smaller = await block.check(
      { snapshotCapacityGb: 40 },
      declared('s', { snapshotCapacityGb: 20 }),
    );
    assert.match(
      String(smaller.failures?.find((f) => f.property === 'snapshotCapacityGb')?.reason),
      /20 is less than the volume's 40 GB of snapshot space: snapshot space only grows/,
    );
    const dropped = await block.check({ snapshotCapacityGb: 40 }, declared('s'));
    assert.ok(
      dropped.failures?.some((f) => f.property === 'snapshotCapacityGb'),
      'left out',
    );
    const malformed = await block.check(
      {},
      declared('s', {
        snapshotCapacityGb: 20,
        snapshotSchedules: [
          { type: 'HOURLY', retentionCount: 5, hour: 3 },
          { type: 'WEEKLY', retentionCount: 60, dayOfWeek: 'FUNDAY' },
          { type: 'HOURLY', retentionCount: 1 },
        ],
      }),
    );
    assert.deepEqual(malformed.failures?.map((f) => f.property).sort(), [
      'snapshotSchedules',
      'snapshotSchedules[0]',
      'snapshotSchedules[1].dayOfWeek',
      'snapshotSchedules[1].retentionCount',
    ]);
    const unoffered = await block.check({}, declared('s', { snapshotCapacityGb: 7 }));
    assert.match(
      String(unoffered.failures?.find((f) => f.property === 'snapshotCapacityGb')?.reason),
      /no 7 GB of snapshot space .*offered: 5, 10, 20/,
    );
    const stranger = await block.check({}, declared('s', { authorizedIpAddresses: ['10.9.9.9'] }));
    assert.match(
      String(stranger.failures?.find((f) => f.property === 'authorizedIpAddresses[0]')?.reason),
      /10\.9\.9\.9 is not an IP address of this account/,
    );
    assert.equal((await volumes()).length, before, 'nothing ordered');
  });

  it('snapshot space and schedules, and hosts by address: ordered with the volume, grown and kept as declared, drift repaired, adopted with no change', async () => {
    const host = await guest('backup');
    const ips = (await client.call('Account', 'getIpAddresses', {
      mask: 'id,ipAddress,virtualGuest.id,subnet.addressSpace',
    })) as {
      id: number;
      ipAddress: string;
      virtualGuest?: { id: number };
      subnet?: { addressSpace: string };
    }[];
    const mine = ips.filter((i) => i.virtualGuest?.id === host.id);
    const privateIp = mine.find((i) => i.subnet?.addressSpace === 'PRIVATE')!;
    const publicIp = mine.find((i) => i.subnet?.addressSpace === 'PUBLIC')!;
    const daily = { type: 'DAILY', retentionCount: 7, minute: 30, hour: 2 };
    const spec = declared('snap', {
      snapshotCapacityGb: 20,
      snapshotSchedules: [daily],
      authorizedIpAddresses: [privateIp.ipAddress],
    });
    const publicRefused = await block.check(
      {},
      { ...spec, resourceName: 'snap-public', authorizedIpAddresses: [publicIp.ipAddress] },
    );
    assert.match(String(publicRefused.failures?.[0]?.reason), /public address/);
    const checked = await printed(async () => block.check({}, spec));
    assert.deepEqual(checked.result.failures, []);
    assert.match(checked.lines, /BILLING create BlockVolume "snap" .*20 GB of snapshot space/);
    const inputs = checked.result.inputs!;
    const plain = (await block.check({}, declared('plain'))).inputs!;
    assert.ok(
      Number(inputs.estimatedMonthlyCost) > Number(plain.estimatedMonthlyCost),
      'the snapshot space is priced with the volume',
    );
    const { id, outs } = await block.create(inputs);
    const read = async () =>
      (await client.call('Network_Storage', 'getObject', {
        id: Number(id),
        mask: 'snapshotCapacityGb,schedules[type.keyname,properties[value,type.keyname]],allowedIpAddresses.ipAddress,billingItem[recurringFee,activeChildren[categoryCode,recurringFee]]',
      })) as Bag & { billingItem: { recurringFee: string; activeChildren: Bag[] } };
    let v = await read();
    assert.equal(v.snapshotCapacityGb, '20');
    assert.deepEqual(
      v.billingItem.activeChildren.map((c) => c.categoryCode),
      ['storage_snapshot_space'],
      'billed as a child of the volume',
    );
    assert.deepEqual(
      (v.allowedIpAddresses as Bag[]).map((a) => a.ipAddress),
      [privateIp.ipAddress],
    );
    assert.deepEqual(outs!.snapshotSchedules, [daily]);
    assert.equal(outs!.snapshotCapacityGb, 20);
    assert.deepEqual(outputProblems('BlockVolume', outs!), []);

    // More space (an order on the same volume, priced old and new) and another schedule.
    const weekly = { type: 'WEEKLY', retentionCount: 4, minute: 0, hour: 3, dayOfWeek: 'SATURDAY' };
    const grown = (
      await block.check(outs!, {
        ...spec,
        snapshotCapacityGb: 40,
        snapshotSchedules: [weekly, daily],
      })
    ).inputs!;
    assert.ok(Number(grown.estimatedMonthlyCost) > Number(outs!.estimatedMonthlyCost));
    const planned = await printed(async () => block.diff(id, outs!, grown));
    assert.deepEqual(planned.result.replaces, []);
    assert.match(
      planned.lines,
      /BILLING upgrade BlockVolume "snap" in place \(.*20 GB of snapshot space -> .*40 GB of snapshot space\): \$[\d.]+\/hour .* -> \$/,
    );
    const updated = await block.update(id, outs!, grown);
    v = await read();
    assert.equal(v.snapshotCapacityGb, '40');
    assert.equal(
      Number(v.billingItem.recurringFee),
      grown.estimatedMonthlyCost,
      'billed as priced',
    );
    assert.deepEqual(updated.outs!.snapshotSchedules, [daily, weekly]);
    assert.equal((await volumes()).length > 0, true);

    // Outside Pulumi: the daily schedule removed, an hourly one added, the address removed.
    await client.call('Network_Storage', 'disableSnapshots', { id: Number(id), args: ['DAILY'] });
    await client.call('Network_Storage', 'enableSnapshots', {
      id: Number(id),
      args: ['HOURLY', 3, 15, 0, 'SUNDAY'],
    });
    await client.call('Network_Storage', 'removeAccessFromIpAddress', {
      id: Number(id),
      args: [{ id: privateIp.id }],
    });
    const refreshed = (await block.read(id, updated.outs!)).props as Bag;
    assert.deepEqual(refreshed.snapshotSchedules, [
      { type: 'HOURLY', retentionCount: 3, minute: 15 },
      weekly,
    ]);
    assert.deepEqual(refreshed.authorizedIpAddresses, []);
    const repairDiff = await block.diff(id, refreshed, grown);
    assert.notEqual(repairDiff.changes, false, 'drift shows as a change');
    assert.deepEqual(repairDiff.fields?.map((f) => f.name).sort(), [
      'authorizedIpAddresses',
      'snapshotSchedules',
    ]);
    const repaired = await block.update(id, refreshed, grown);
    assert.deepEqual(repaired.outs!.snapshotSchedules, [daily, weekly]);
    v = await read();
    assert.deepEqual(
      (v.schedules as { type: { keyname: string } }[]).map((s) => s.type.keyname).sort(),
      ['SNAPSHOT_DAILY', 'SNAPSHOT_WEEKLY'],
    );
    assert.deepEqual(
      (v.allowedIpAddresses as Bag[]).map((a) => a.ipAddress),
      [privateIp.ipAddress],
    );

    // Adopted: the import's inputs check and diff with no change.
    const imported = await block.read(id, {});
    const adopted = await block.check({}, { ...(imported.inputs as Bag), resourceName: 'snap' });
    assert.deepEqual(adopted.failures, []);
    const noChange = await block.diff(id, imported.props as Bag, adopted.inputs!);
    assert.deepEqual(
      [noChange.changes, noChange.replaces ?? [], noChange.fields ?? []],
      [false, [], []],
      `no change: ${JSON.stringify(noChange)}`,
    );
    await block.delete(id, repaired.outs!);
  });

  it('a file volume with performance IOPS, hourly: cancelled at once', async () => {
    const checked = await file.check(
      {},
      declared('share', {
        tierIopsPerGb: undefined,
        capacityGb: 100,
        iops: 1000,
        hourlyBilling: true,
      }),
    );
    assert.deepEqual(checked.failures, []);
    const { id, outs } = await file.create(checked.inputs!);
    assert.match(String(outs!.mountAddress), /:\/SVC02SV\d+_1\/data01$/);
    assert.equal(outs!.iops, 1000);
    assert.deepEqual(outputProblems('FileVolume', outs!), []);
    await file.delete(id, outs!);
    assert.ok(!(await volumes()).some((v) => String(v.id) === id), 'gone at once');
  });
});

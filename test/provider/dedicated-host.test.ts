import { markedNote } from '../../provider/framework/creation-token';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { PROVIDERS } from '../../provider/kinds';
import type { DedicatedHost } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { guestTemplate } from '../support/emulator-harness';
import { printed } from '../support/printed';

type Bag = Record<string, unknown>;
const hosts = PROVIDERS.DedicatedHost;

const declared = (name: string, extra: Bag = {}): Bag => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  provenance: `test/${name}-${Math.random()}`,
  name,
  domain: 'example.com',
  datacenter: 'dal10',
  size: '48_CORES_X_192_RAM_X_1_TB',
  ...extra,
});

describe('DedicatedHost provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(0)));
  after(() => emulator?.close());

  const listed = async () =>
    (await client.call('Account', 'getDedicatedHosts', {
      mask: 'id,name,notes,billingItem[id,cancellationDate,hourlyFlag]',
    })) as DedicatedHost[];
  const writes = () => emulator.stats().writes;

  it('check names the field and the rule before any call; an unsold size is refused naming size', async () => {
    const before = (await listed()).length;
    const bad = await hosts.check({}, declared('x', { name: 'not a label', datacenter: 'dallas' }));
    assert.deepEqual(bad.failures?.map((f) => f.property).sort(), ['datacenter', 'name']);
    const size = await hosts.check({}, declared('x', { size: 'HUGE_HOST' }));
    assert.deepEqual(
      size.failures?.map((f) => f.property),
      ['size'],
    );
    assert.match(
      String(size.failures?.[0].reason),
      /not a host size the API sells; one of .*56_CORES_X_242_RAM_X_1_4_TB/,
    );
    assert.equal((await listed()).length, before, 'nothing ordered');
  });

  it('orders once through a lost answer, renames in place, imports, refuses a delete while guests are on it, cancels', async () => {
    const checked = await printed(async () => hosts.check({}, declared('dh1')));
    assert.deepEqual(checked.result.failures, []);
    assert.match(
      checked.lines,
      /BILLING create DedicatedHost "dh1" orders a new dedicated host: 48_CORES_X_192_RAM_X_1_TB .* hourly, \$1\.6993\/hour/,
    );
    const inputs = checked.result.inputs!;
    assert.equal(inputs.estimatedHourlyCost, 1.6993);
    emulator.setFaults({
      once: { service: 'Product_Order', method: 'placeOrder', fault: 'lose-response' },
    });
    const { id, outs } = await hosts.create(inputs);
    assert.equal((await listed()).length, 1, 'one host');
    assert.equal(outs!.hostId, Number(id));
    assert.deepEqual([outs!.cpuCount, outs!.memoryGb, outs!.diskGb], [48, 192, 1000]);
    assert.deepEqual(outputProblems('DedicatedHost', outs!), []);

    const renamed = (await hosts.check(outs!, declared('dh1', { name: 'dh1b', notes: 'db hosts' })))
      .inputs!;
    const diff = await hosts.diff(id, outs!, renamed);
    assert.deepEqual(diff.replaces, [], 'a rename changes in place');
    const updated = await hosts.update(id, outs!, renamed);
    assert.equal(updated.outs!.name, 'dh1b');
    const [host] = await listed();
    assert.deepEqual(
      [host.id, host.name, host.notes],
      [Number(id), 'dh1b', markedNote('db hosts')],
    );

    const imported = await hosts.read(id, {});
    assert.deepEqual(
      [
        imported.inputs?.name,
        imported.inputs?.domain,
        imported.inputs?.datacenter,
        imported.inputs?.size,
      ],
      ['dh1b', 'example.com', 'dal10', '48_CORES_X_192_RAM_X_1_TB'],
    );

    const moved = (await hosts.check(updated.outs!, declared('dh1', { datacenter: 'dal13' })))
      .inputs!;
    assert.deepEqual((await hosts.diff(id, updated.outs!, moved)).replaces, ['datacenter']);

    const guest = (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname: 'onhost', dedicatedHost: { id: Number(id) } })],
    })) as { id: number };
    const before = writes();
    await assert.rejects(
      hosts.delete(id, updated.outs!),
      new RegExp(
        `still has 1 guest\\(s\\) on it: onhost \\(id ${guest.id}\\).*nothing was cancelled: delete those guests first`,
      ),
    );
    assert.equal(writes(), before, 'no write');
    await client.call('Virtual_Guest', 'deleteObject', { id: guest.id });
    await hosts.delete(id, updated.outs!);
    assert.deepEqual(await listed(), [], 'hourly: cancelled at once');
    assert.deepEqual(await hosts.read(id, updated.outs!), {}, 'it leaves the stack');
  });

  it('a monthly host is cancelled at its anniversary; a create never takes over the host its resource holds', async () => {
    const inputs = (await hosts.check({}, declared('dh2', { hourlyBilling: false }))).inputs!;
    const first = await hosts.create(inputs);
    const count = (await listed()).length;
    await assert.rejects(
      hosts.create(inputs),
      new RegExp(
        `dedicated host ${first.id} carries this resource's creation token and was handed to a state.*Nothing was ordered.*deleteBeforeReplace: true`,
      ),
    );
    assert.equal((await listed()).length, count, 'nothing ordered');
    await hosts.delete(first.id, first.outs!);
    const [cancelled] = (await listed()).filter((h) => String(h.id) === first.id);
    assert.ok(cancelled.billingItem?.cancellationDate, 'billed to its anniversary, then gone');
    assert.deepEqual(await hosts.read(first.id, first.outs!), {}, 'it leaves the stack');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { placementGroupProvider as provider } from '../../provider/kinds/placement-group/provider';
import { providerEnv, type Emulator } from '../support/provider-env';
import { guestTemplate } from '../support/emulator-harness';
import { outputProblems } from '../support/schema-types';

type Bag = Record<string, unknown>;

describe('PlacementGroup provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  const groups = async (name: string) =>
    (
      (await client.call('Account', 'getPlacementGroups', {
        mask: 'id,name,backendRouterId',
      })) as { id: number; name: string }[]
    ).filter((g) => g.name === name);
  const checked = async (inputs: Bag, olds: Bag = {}) => {
    const result = await provider.check(olds, inputs);
    assert.deepEqual(result.failures, []);
    return result.inputs!;
  };
  const failuresOf = async (inputs: Bag) =>
    Object.fromEntries(
      ((await provider.check({}, inputs)).failures ?? []).map((f) => [f.property, f.reason]),
    );

  it('check names the field and the rule of each mistake, before any call', async () => {
    const shape = await failuresOf({ name: '-bad-', datacenter: 'Dallas', rule: 'PACK' });
    assert.match(shape.name, /name/);
    assert.match(shape.datacenter, /a datacenter short name such as dal10/);
    assert.match(shape.rule, /rule "PACK" is not a placement rule; allowed: SPREAD/);
    const api = await failuresOf({ name: 'web', datacenter: 'dal10', backendRouterId: 1 });
    assert.match(
      api.backendRouterId,
      /1 is not a backend router of dal10 .* it offers \d+ \(bcr01a\.dal10\)/,
    );
    const nowhere = await failuresOf({ name: 'web', datacenter: 'xyz99' });
    assert.match(nowhere.datacenter, /xyz99 has no backend router that takes placement groups/);
  });

  it('creates once when the answer is lost, imports, renames in place, replaces on datacenter', async () => {
    const inputs = await checked({ name: 'spread-a', datacenter: 'dal10' });
    emulator.setFaults({
      once: { service: 'Virtual_PlacementGroup', method: 'createObject', fault: 'lose-response' },
    });
    const { id, outs } = await provider.create(inputs);
    assert.deepEqual(
      (await groups('spread-a')).map((g) => String(g.id)),
      [id],
      'one group, not two',
    );
    assert.equal(outs!.placementGroupId, Number(id));
    assert.equal(outs!.rule, 'SPREAD');
    assert.equal(outs!.backendRouterHostname, 'bcr01a.dal10');
    assert.deepEqual(outputProblems('PlacementGroup', outs as Bag), []);

    const read = await provider.read(id, {});
    const imported = read.inputs as Bag;
    assert.deepEqual(
      { name: imported.name, datacenter: imported.datacenter },
      { name: 'spread-a', datacenter: 'dal10' },
    );
    const declared = await checked(imported);
    assert.equal((await provider.diff(id, read.props as Bag, declared)).changes, false);

    const renamed = await checked({ ...inputs, name: 'spread-b' }, outs!);
    assert.deepEqual((await provider.diff(id, outs!, renamed)).replaces, []);
    const updated = await provider.update(id, outs!, renamed);
    assert.equal((await groups('spread-b')).length, 1);
    assert.equal(updated.outs!.name, 'spread-b');

    const moved = await checked({ ...renamed, datacenter: 'wdc07' }, updated.outs!);
    assert.deepEqual((await provider.diff(id, updated.outs!, moved)).replaces, ['datacenter']);

    await provider.delete(id, updated.outs!);
    assert.deepEqual(
      await provider.read(id, updated.outs!),
      {},
      'a deleted group leaves the stack',
    );
  });

  it('a group holding guests is not deleted: the error names them and what to do', async () => {
    const { id, outs } = await provider.create(
      await checked({ name: 'held', datacenter: 'dal10' }),
    );
    const guest = (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname: 'pg-guest', placementGroupId: Number(id) })],
    })) as { id: number };
    const refreshed = await provider.read(id, outs!);
    assert.deepEqual((refreshed.props as Bag).guestIds, [guest.id]);
    await assert.rejects(provider.delete(id, outs!), (err: Error) => {
      assert.match(
        err.message,
        /PlacementGroup "held" \(id \d+\) still holds guests pg-guest \(id \d+\)/,
      );
      assert.match(err.message, /delete those guests .* first, then delete the group/);
      return true;
    });
    assert.equal((await groups('held')).length, 1, 'the group is still there');
  });
});

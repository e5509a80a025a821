import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { claimScope, inScope, release, releaseUnanswered } from '../../provider/framework/claims';
import { Operation } from '../../provider/framework/operation';
import { PROVIDERS } from '../../provider/kinds';
import { routersIn, ruleId as spreadRule } from '../../provider/kinds/placement-group/api';
import { providerEnv, type Emulator } from '../support/provider-env';

/**
 * The free kinds with no place for a token (SecurityGroup, PlacementGroup) against the world: the
 * create carries the resource's creation token in a text field until its handover, so a create
 * whose run died before the engine recorded the group (a killed CLI) leaves a group the next
 * create takes over instead of making a second one.
 */

type Bag = Record<string, unknown>;
type Provider = (typeof PROVIDERS)['SecurityGroup'];

interface Group {
  id: number;
  name?: string;
  description?: string;
  rules?: { portRangeMin?: number }[];
}

interface Kind {
  kind: 'SecurityGroup' | 'PlacementGroup';
  service: string;
  inputs: Bag;
  /** The account's groups of the kind. */
  list(client: Client): Promise<Group[]>;
  /** The field the token stands in, and its declared value. */
  field: 'description' | 'name';
  /** Makes a group as a create killed right after its write leaves it: the token in `field`. */
  leftBy(client: Client, token: string): Promise<number>;
  /** What else the create must have set on a group it took over. */
  finished(group: Group): void;
}

const SSH = { direction: 'ingress', protocol: 'tcp', portRangeMin: 22, portRangeMax: 22 };

const KINDS: Kind[] = [
  {
    kind: 'SecurityGroup',
    service: 'Network_SecurityGroup',
    inputs: { name: 'web', description: 'web tier', rules: [SSH] },
    list: async (client) =>
      (await client.call('Account', 'getSecurityGroups', {
        mask: 'id,name,description,rules[portRangeMin]',
      })) as Group[],
    field: 'description',
    leftBy: async (client, token) =>
      (
        (await client.call('Network_SecurityGroup', 'createObject', {
          args: [{ name: 'web', description: token }],
        })) as Group
      ).id,
    finished: (group) =>
      assert.deepEqual(
        (group.rules ?? []).map((r) => r.portRangeMin),
        [22],
        'its rules set',
      ),
  },
  {
    kind: 'PlacementGroup',
    service: 'Virtual_PlacementGroup',
    inputs: { name: 'spread-web', datacenter: 'dal10' },
    list: async (client) =>
      (await client.call('Account', 'getPlacementGroups', { mask: 'id,name' })) as Group[],
    field: 'name',
    leftBy: async (client, token) => {
      const [router] = await routersIn(client, 'dal10');
      const ruleId = await spreadRule(client, 'SPREAD');
      return (
        (await client.call('Virtual_PlacementGroup', 'createObject', {
          args: [{ name: token, backendRouterId: router.id, ruleId }],
        })) as Group
      ).id;
    },
    finished: () => undefined,
  },
];

describe('a free group a killed create left is taken over, never made twice', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  for (const k of KINDS) {
    const provider = PROVIDERS[k.kind] as Provider;
    const creates = () => emulator.stats().calls[`${k.service}.createObject`] ?? 0;
    const declared = String(k.inputs[k.field]);
    const checked = async (name: string) => {
      const result = await provider.check(
        {},
        { resourceName: name, identity: `proj/dev/${name}`, provenance: `t/${name}`, ...k.inputs },
      );
      assert.deepEqual(result.failures, []);
      return result.inputs!;
    };
    const carrying = async (token: string) =>
      (await k.list(client)).filter((g) => g[k.field] === token).map((g) => g.id);

    it(`${k.kind}: a run killed after the handover was sent puts the token back; the next create takes the group over`, async () => {
      const inputs = await checked(`${k.kind}-handover`);
      const token = String(inputs.creationToken);
      const made = creates();
      // The create completes, but its engine never sees the answer (a killed CLI).
      const scope = claimScope();
      const first = await inScope(scope, () => provider.create(inputs));
      assert.deepEqual(
        await carrying(token),
        [],
        'handed over: the declared value replaced the token',
      );
      release(scope);
      await releaseUnanswered();
      assert.deepEqual(await carrying(token), [Number(first.id)], 'the token is back: unfinished');

      const again = await provider.create(inputs);
      assert.equal(again.id, first.id, 'taken over');
      assert.equal(creates() - made, 1, 'one group made in all');
      const group = (await k.list(client)).find((g) => g.id === Number(first.id))!;
      assert.equal(group[k.field], declared, `its ${k.field} as declared`);
      assert.equal(again.outs![k.field], declared);
      await provider.delete(again.id, again.outs!);
    });

    it(`${k.kind}: a run killed right after the group was made: the next create finishes it`, async () => {
      const inputs = await checked(`${k.kind}-killed`);
      const token = String(inputs.creationToken);
      const left = await k.leftBy(client, token);
      const made = creates();
      const { id, outs } = await provider.create(inputs);
      assert.equal(id, String(left), 'the group the killed run made');
      assert.equal(creates(), made, 'nothing made');
      const group = (await k.list(client)).find((g) => g.id === left)!;
      assert.equal(group[k.field], declared);
      k.finished(group);
      assert.equal((await provider.diff(id, outs!, inputs)).changes, false, 'no diff after');
      await provider.delete(id, outs!);
    });

    it(`${k.kind}: a 502 after the create's commit makes one group`, async () => {
      const inputs = await checked(`${k.kind}-502`);
      const made = creates();
      emulator.setFaults({
        once: { service: k.service, method: 'createObject', fault: 'error-after-commit' },
      });
      const { id, outs } = await provider.create(inputs);
      assert.equal(creates() - made, 1, 'one createObject');
      assert.deepEqual(await carrying(String(inputs.creationToken)), [], 'handed over');
      assert.ok((await k.list(client)).some((g) => g.id === Number(id)));
      await provider.delete(id, outs!);
    });

    it(`${k.kind}: two groups carrying the token are refused, nothing made`, async () => {
      const inputs = await checked(`${k.kind}-two`);
      const token = String(inputs.creationToken);
      const both = [await k.leftBy(client, token), await k.leftBy(client, token)];
      const made = creates();
      await assert.rejects(
        provider.create(inputs),
        new RegExp(
          `groups ${both.join(', ')} all carry this resource's creation token .*nothing was made.*delete the others`,
        ),
      );
      assert.equal(creates(), made);
      assert.deepEqual((await carrying(token)).sort(), both.sort(), 'both untouched');
    });

    it(`${k.kind}: a ${k.field} that looks like a creation token is refused in check`, async () => {
      const result = await provider.check({}, { ...k.inputs, [k.field]: 'pulumi-svc-abc' });
      const failure = (result.failures ?? []).find((f) => f.property === k.field);
      assert.match(
        failure?.reason ?? '',
        new RegExp(`^${k.field} .*must be .*not starting with pulumi-svc-`),
      );
    });
  }
});

describe('the engine gone while a handover is on its way: the release waits for it', () => {
  let emulator: Emulator;
  let client: Client;
  // A take-back looks for the mark for at most the outcome window (here 1 s); the handover's
  // write below lands 3 s after it was sent, the CLI having been killed meanwhile.
  before(async () => ({ emulator, client } = await providerEnv(200, { 'svc:outcomeWindow': '1' })));
  after(() => emulator?.close());

  for (const k of KINDS) {
    const provider = PROVIDERS[k.kind] as Provider;
    const creates = () => emulator.stats().calls[`${k.service}.createObject`] ?? 0;

    it(`${k.kind}: the token is put back once the late handover lands; the next create takes the group over`, async () => {
      const name = `${k.kind}-late`;
      const checked = await provider.check(
        {},
        { resourceName: name, identity: `proj/dev/${name}`, provenance: `t/${name}`, ...k.inputs },
      );
      const inputs = checked.inputs!;
      const token = String(inputs.creationToken);
      emulator.setFaults({
        once: { service: k.service, method: 'editObject', fault: 'latency', delayMs: 3000 },
      });
      const made = creates();
      const delayed = () => emulator.stats().faultsInjected.latency ?? 0;
      const delayedBefore = delayed();
      // The door's call, which never answers its engine (a killed CLI).
      const call = new Operation('create', { claims: true });
      const creating = call.run(() => provider.create(inputs));
      while (delayed() === delayedBefore) await new Promise((r) => setTimeout(r, 20));
      await releaseUnanswered(); // what the provider does once it finds its engine gone
      const first = await creating;
      const group = (await k.list(client)).find((g) => g.id === Number(first.id))!;
      assert.equal(group[k.field], token, 'the late handover was taken back');

      const again = await provider.create(inputs);
      assert.equal(again.id, first.id, 'taken over');
      assert.equal(creates() - made, 1, 'one group made in all');
      await provider.delete(again.id, again.outs!);
    });
  }
});

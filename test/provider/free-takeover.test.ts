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
  /** How the tests name it (the kind, and what sets this case apart). */
  label: string;
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
    label: 'SecurityGroup',
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
    label: 'PlacementGroup',
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
// The API leaves an empty description out of its answers: the handover writes one.
KINDS.push({
  ...KINDS[0],
  label: 'SecurityGroup without a description',
  inputs: { name: 'bare', rules: [SSH] },
});

/** The field's value as a program declares it (the API omits an empty one). */
const valueOf = (group: Group, k: Kind) => group[k.field] ?? '';

/** The checked inputs of resource `name` of the kind, with the names a door derives from its URN. */
async function checkedAs(kind: Kind['kind'], name: string, inputs: Bag) {
  const result = await (PROVIDERS[kind] as Provider).check(
    {},
    { resourceName: name, identity: `proj/dev/${name}`, provenance: `t/${name}`, ...inputs },
  );
  assert.deepEqual(result.failures, []);
  return result.inputs!;
}

describe('a free group a killed create left is taken over, never made twice', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  for (const k of KINDS) {
    const provider = PROVIDERS[k.kind] as Provider;
    const creates = () => emulator.stats().calls[`${k.service}.createObject`] ?? 0;
    const declared = String(k.inputs[k.field] ?? '');
    const checked = (name: string) => checkedAs(k.kind, name, k.inputs);
    const carrying = async (token: string) =>
      (await k.list(client)).filter((g) => valueOf(g, k) === token).map((g) => g.id);

    it(`${k.label}: a run killed after the handover was sent puts the token back; the next create takes the group over`, async () => {
      const inputs = await checked(`${k.label}-handover`);
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
      assert.equal(valueOf(group, k), declared, `its ${k.field} as declared`);
      assert.equal(again.outs![k.field] ?? '', declared);
      await provider.delete(again.id, again.outs!);
    });

    it(`${k.label}: a run killed right after the group was made: the next create finishes it`, async () => {
      const inputs = await checked(`${k.label}-killed`);
      const token = String(inputs.creationToken);
      const left = await k.leftBy(client, token);
      const made = creates();
      const { id, outs } = await provider.create(inputs);
      assert.equal(id, String(left), 'the group the killed run made');
      assert.equal(creates(), made, 'nothing made');
      const group = (await k.list(client)).find((g) => g.id === left)!;
      assert.equal(valueOf(group, k), declared);
      k.finished(group);
      assert.equal((await provider.diff(id, outs!, inputs)).changes, false, 'no diff after');
      await provider.delete(id, outs!);
    });

    it(`${k.label}: a 502 after the create's commit makes one group`, async () => {
      const inputs = await checked(`${k.label}-502`);
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

    it(`${k.label}: two groups carrying the token are refused, nothing made`, async () => {
      const inputs = await checked(`${k.label}-two`);
      const token = String(inputs.creationToken);
      const both = [await k.leftBy(client, token), await k.leftBy(client, token)];
      const made = creates();
      await assert.rejects(
        provider.create(inputs),
        new RegExp(
          `groups ${both.join(', ')} all carry this resource's creation token .*nothing was made\\. Delete all but one`,
        ),
      );
      assert.equal(creates(), made);
      assert.deepEqual((await carrying(token)).sort(), both.sort(), 'both untouched');
    });

    it(`${k.label}: a handover the API refuses keeps the id; the next update hands the group over`, async () => {
      const inputs = await checked(`${k.label}-refused`);
      emulator.setFaults({
        once: {
          service: k.service,
          method: 'editObject',
          fault: 'api-fault',
          faultCode: 'Svc_Exception_Public',
          faultString: 'Try again later.',
        },
      });
      const failure = (await provider.create(inputs).then(
        () => assert.fail('created'),
        (err: unknown) => err,
      )) as Error & { id?: string; properties?: Bag };
      assert.match(failure.message, /was made, then handing it to the state failed: .*Try again/);
      const id = failure.id!;
      assert.deepEqual(await carrying(String(inputs.creationToken)), [Number(id)], 'unfinished');
      const updated = await provider.update(id, failure.properties!, inputs);
      const group = (await k.list(client)).find((g) => g.id === Number(id))!;
      assert.equal(valueOf(group, k), declared, 'handed over by the update');
      assert.equal(updated.outs![k.field] ?? '', declared);
      await provider.delete(id, updated.outs!);
    });

    it(`${k.label}: a ${k.field} that looks like a creation token is refused in check`, async () => {
      const result = await provider.check({}, { ...k.inputs, [k.field]: 'pulumi-svc-abc' });
      const failure = (result.failures ?? []).find((f) => f.property === k.field);
      assert.match(
        failure?.reason ?? '',
        new RegExp(`^${k.field} .*must be .*not starting with pulumi-svc-`),
      );
    });
  }
});

describe('a placement group a killed create left elsewhere', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(200)));
  after(() => emulator?.close());

  it('is not taken over by a create behind another router: a new group is made, the other kept', async () => {
    const provider = PROVIDERS.PlacementGroup as Provider;
    const kind = KINDS.find((k) => k.kind === 'PlacementGroup')!;
    const inputs = await checkedAs(kind.kind, 'moved', { ...kind.inputs, datacenter: 'dal12' });
    const left = await kind.leftBy(client, String(inputs.creationToken)); // behind dal10's router
    const { id, outs } = await provider.create(inputs);
    assert.notEqual(id, String(left), 'a new group');
    assert.equal(outs!.datacenter, 'dal12');
    const groups = await kind.list(client);
    assert.equal(groups.find((g) => g.id === left)?.name, inputs.creationToken, 'left as it was');
    await provider.delete(id, outs!);
  });
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

    it(`${k.label}: the token is put back once the late handover lands; the next create takes the group over`, async () => {
      const inputs = await checkedAs(k.kind, `${k.label}-late`, k.inputs);
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
      assert.equal(valueOf(group, k), token, 'the late handover was taken back');

      const again = await provider.create(inputs);
      assert.equal(again.id, first.id, 'taken over');
      assert.equal(creates() - made, 1, 'one group made in all');
      await provider.delete(again.id, again.outs!);
    });
  }
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { claimScope, inScope, release, releaseUnanswered } from '../../provider/framework/claims';
import { OWNED_TAG, isNoteMarked } from '../../provider/framework/creation-token';
import { KINDS as REGISTRY, PROVIDERS } from '../../provider/kinds';
import { printed } from '../support/printed';
import { providerEnv, type Emulator } from '../support/provider-env';

/**
 * Every kind ordered once through `Product_Order.placeOrder` (order-once.ts) against the world:
 * an object its create ordered and never handed to a state (the engine never saw the answer, as
 * when the CLI is killed) is taken over by the next create, provisioned or not, with no second
 * order; one handed to a state (the resource's current object when a replace orders first) is
 * refused; one whose ordered fields the resource no longer declares is refused, not ordered again;
 * a 502 after the order's commit orders once.
 */

type Bag = Record<string, unknown>;
type Provider = (typeof PROVIDERS)['Vlan'];
interface Carrier {
  id: number;
  handed: boolean;
}
interface Kind {
  kind: 'Vlan' | 'BlockVolume' | 'FileVolume' | 'DedicatedHost' | 'BareMetalServer';
  inputs: Bag;
  /** The live objects carrying `token`, as the emulator holds them. */
  carrying(client: Client, token: string): Promise<Carrier[]>;
}

interface Listed {
  id: number;
  note?: string;
  notes?: string;
  properties?: { value: string }[];
  tagReferences?: { tag?: { name: string } }[];
  billingItem?: { notes?: string; cancellationDate?: string };
}
const live = (o: Listed) => o.billingItem !== undefined && !o.billingItem.cancellationDate;
const tags = (o: Listed) => (o.tagReferences ?? []).map((r) => r.tag?.name ?? '');
const list = async (client: Client, method: string, mask: string) =>
  ((await client.call('Account', method, { mask })) as Listed[]).filter(live);

/** A kind whose token is a tag: its objects listed by `method`, `also` read for its mark. */
const tagged =
  (method: string, also: string, handed: (o: Listed) => boolean): Kind['carrying'] =>
  async (client, token) =>
    (
      await list(
        client,
        method,
        `id,${also},tagReferences.tag.name,billingItem[id,cancellationDate]`,
      )
    )
      .filter((o) => tags(o).includes(token))
      .map((o) => ({ id: o.id, handed: handed(o) }));

const volume = (kind: 'BlockVolume' | 'FileVolume'): Kind => ({
  kind,
  inputs: { datacenter: 'dal10', capacityGb: 20, tierIopsPerGb: 2, notes: 'data' },
  carrying: async (client, token) =>
    (
      await list(
        client,
        'getNetworkStorage',
        'id,notes,properties.value,billingItem[id,cancellationDate]',
      )
    )
      .filter((v) => (v.properties ?? []).some((p) => p.value === token))
      .map((v) => ({ id: v.id, handed: isNoteMarked(v.notes) })),
});

const KINDS: Kind[] = [
  {
    kind: 'Vlan',
    inputs: { datacenter: 'dal10', networkSpace: 'PRIVATE', notes: 'db tier' },
    carrying: async (client, token) =>
      (await list(client, 'getNetworkVlans', 'id,note,billingItem[id,notes,cancellationDate]'))
        .filter((v) => v.billingItem?.notes === token)
        .map((v) => ({ id: v.id, handed: isNoteMarked(v.note) })),
  },
  volume('BlockVolume'),
  volume('FileVolume'),
  {
    kind: 'DedicatedHost',
    inputs: {
      name: 'dh',
      domain: 'example.com',
      datacenter: 'dal10',
      size: '48_CORES_X_192_RAM_X_1_TB',
    },
    carrying: tagged('getDedicatedHosts', 'notes', (h) => isNoteMarked(h.notes)),
  },
  {
    kind: 'BareMetalServer',
    inputs: {
      hostname: 'bm',
      domain: 'example.com',
      preset: 'S1270_32GB_1X1TBSATA_NORAID',
      operatingSystemReferenceCode: 'UBUNTU_22_64',
      datacenter: 'dal10',
    },
    carrying: tagged('getHardware', 'id', (s) => tags(s).includes(OWNED_TAG)),
  },
];

describe('a create killed after its order is taken over, for every kind ordered once', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => {
    ({ emulator, client } = await providerEnv(300));
    emulator.settings.hardwareStageMs = 200;
  });
  after(() => emulator?.close());

  const orders = () => emulator.stats().calls['Product_Order.placeOrder'] ?? 0;

  for (const k of KINDS) {
    const provider = PROVIDERS[k.kind] as Provider;
    const declared = (name: string, extra: Bag = {}) => ({
      resourceName: name,
      identity: `proj/dev/${name}`,
      provenance: `t/${name}`,
      ...k.inputs,
      ...extra,
    });
    const checked = async (name: string, extra: Bag = {}) => {
      const result = await provider.check({}, declared(name, extra));
      assert.deepEqual(result.failures, []);
      return result.inputs!;
    };
    /** Ordered by a create whose engine never saw the answer: not handed to any state. */
    const orderedByKilledRun = async (name: string) => {
      const inputs = await checked(name);
      const scope = claimScope();
      const made = await inScope(scope, () => provider.create(inputs));
      release(scope);
      await releaseUnanswered();
      return { inputs, token: String(inputs.creationToken), made };
    };

    it(`${k.kind}: the next create takes over what a killed run ordered (provisioned), then a replace that orders first is refused`, async () => {
      const inputs = await checked(`${k.kind}-killed`);
      const token = String(inputs.creationToken);
      const placed = orders();
      // The create completes, but its engine never sees the answer (a killed CLI): the provider
      // takes back what it sent as the handover.
      const scope = claimScope();
      const first = await inScope(scope, () => provider.create(inputs));
      assert.deepEqual(await k.carrying(client, token), [{ id: Number(first.id), handed: true }]);
      release(scope);
      await releaseUnanswered();
      assert.deepEqual(
        await k.carrying(client, token),
        [{ id: Number(first.id), handed: false }],
        'ready, carrying the token, not handed to any state',
      );

      // The preview says so: no new order, and the billing report shows a takeover.
      const news = { ...inputs, creationToken: undefined, adopts: undefined };
      const previewed = await printed(() => provider.check({}, news));
      assert.match(
        previewed.lines,
        new RegExp(
          `BILLING create .* takes over \\S+( host)? ${first.id}, which an earlier unfinished create of it ordered \\(no new order`,
        ),
      );
      assert.equal(previewed.result.inputs?.adopts, Number(first.id));
      assert.ok(REGISTRY[k.kind].billing!.adopts(previewed.result.inputs));

      const again = await provider.create(inputs);
      assert.equal(again.id, first.id, 'taken over');
      assert.equal(orders() - placed, 1, 'one order in all');
      assert.deepEqual(await k.carrying(client, token), [{ id: Number(first.id), handed: true }]);
      const read = await provider.read(again.id, again.outs!);
      assert.equal(read.inputs?.notes, inputs.notes, 'the mark is never read back as notes');

      // `--replace` without deleteBeforeReplace: the new create sees the current object.
      await assert.rejects(
        provider.create(inputs),
        new RegExp(`${first.id} carries this resource's creation token and was handed to a state`),
      );
      assert.equal(orders() - placed, 1, 'nothing more ordered');
      await provider.delete(again.id, again.outs!);
    });

    it(`${k.kind}: a replace of an object its state holds without the mark (made before the mark) refuses it, never takes it over`, async () => {
      const { inputs, token, made: current } = await orderedByKilledRun(`${k.kind}-unmarked`);
      assert.deepEqual(await k.carrying(client, token), [
        { id: Number(current.id), handed: false },
      ]);
      const placed = orders();
      // The engine diffs the resource it holds before it replaces it (`--replace`), then creates
      // the new half with the same token: the current object must not be taken for a killed run's.
      await provider.diff(current.id, current.outs!, inputs);
      await assert.rejects(
        provider.create(inputs),
        new RegExp(
          `${current.id} carries this resource's creation token and was handed to a state`,
        ),
      );
      assert.equal(orders(), placed, 'nothing ordered');
      assert.deepEqual(
        await k.carrying(client, token),
        [{ id: Number(current.id), handed: false }],
        'the current object is untouched',
      );
      await provider.delete(current.id, current.outs!);
    });

    it(`${k.kind}: what a killed run ordered is refused once the resource declares another datacenter, and nothing else is ordered`, async () => {
      const { inputs, token, made: first } = await orderedByKilledRun(`${k.kind}-moved`);
      const placed = orders();
      // Its datacenter comes from a guest that has moved since (a fallback, a destroy and an up).
      const previewed = await printed(() =>
        provider.check({}, declared(`${k.kind}-moved`, { datacenter: 'dal12' })),
      );
      const moved = previewed.result.inputs!;
      assert.equal(moved.creationToken, token, 'the same resource, one token');
      const refusal = new RegExp(
        `${first.id} was ordered by an earlier unfinished create of this resource .* but not as the resource declares now: datacenter "dal10" \\(declared "dal12"\\)\\. It is not taken over and nothing is ordered`,
      );
      await assert.rejects(provider.create(moved), refusal);
      assert.equal(orders(), placed, 'nothing ordered: no second object beside the first');
      assert.deepEqual(await k.carrying(client, token), [{ id: Number(first.id), handed: false }]);
      // The preview said so.
      assert.match(previewed.lines, /BILLING create .* orders nothing \(/);
      assert.match(previewed.lines, refusal);
      assert.equal(moved.adopts, undefined);

      // Declared as it was ordered again, it is taken over.
      const again = await provider.create(inputs);
      assert.equal(again.id, first.id);
      assert.equal(orders(), placed);
      await provider.delete(again.id, again.outs!);
    });

    it(`${k.kind}: a 502 after the order's commit orders once and hands the object over`, async () => {
      const inputs = await checked(`${k.kind}-502`);
      const placed = orders();
      emulator.setFaults({
        once: { service: 'Product_Order', method: 'placeOrder', fault: 'error-after-commit' },
      });
      const made = await provider.create(inputs);
      assert.equal(orders() - placed, 1, 'one order');
      assert.deepEqual(await k.carrying(client, String(inputs.creationToken)), [
        { id: Number(made.id), handed: true },
      ]);
      await provider.delete(made.id, made.outs!);
    });
  }
});

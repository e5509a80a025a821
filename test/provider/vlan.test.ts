import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { markedNote } from '../../provider/framework/creation-token';
import { vlanProvider as provider } from '../../provider/kinds/vlan/provider';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { writeCalls } from '../stack/cli';

type Bag = Record<string, unknown>;
interface Row {
  id: number;
  name?: string;
  note?: string;
  billingItem?: { id: number; cancellationDate?: string };
}

const base = (name: string): Bag => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  datacenter: 'dal10',
  networkSpace: 'PRIVATE',
});

describe('Vlan provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(0, { 'svc:outcomeWindow': '5' })));
  after(() => emulator?.close());

  const ordered = async () =>
    (
      (await client.call('Account', 'getNetworkVlans', {
        mask: 'id,name,note,billingItem[id,cancellationDate]',
      })) as Row[]
    ).filter((v) => v.billingItem);
  const checked = async (inputs: Bag, olds: Bag = {}) => {
    const result = await provider.check(olds, inputs);
    assert.deepEqual(result.failures, []);
    return result.inputs!;
  };
  const failuresOf = async (inputs: Bag) =>
    Object.fromEntries(
      ((await provider.check({}, inputs)).failures ?? []).map((f) => [f.property, f.reason]),
    );

  it('check names the field and the rule before any billed call, and prices the order', async () => {
    const writes = writeCalls(emulator);
    const shape = await failuresOf({
      ...base('bad'),
      datacenter: 'Dallas',
      networkSpace: 'DMZ',
      name: 'x'.repeat(21),
    });
    assert.match(shape.datacenter, /a datacenter short name such as dal10/);
    assert.match(shape.networkSpace, /"DMZ" is not a network space; allowed: PUBLIC, PRIVATE/);
    assert.match(shape.name, /at most 20/);
    const router = await failuresOf({ ...base('bad'), routerHostname: 'fcr01a.dal10' });
    assert.match(
      router.routerHostname,
      /fcr01a\.dal10 is not a backend router of dal10, so it cannot take a private VLAN; dal10 has bcr01a\.dal10/,
    );
    assert.equal(writeCalls(emulator), writes, 'nothing was written');
    const priced = await checked(base('priced'));
    assert.equal(priced.estimatedMonthlyCost, 20);
    assert.match(String(priced.creationToken), /^pulumi-svc-/);
  });

  it('a lost placeOrder answer, then a 502 after the commit: one VLAN each, ordered once', async () => {
    for (const fault of ['lose-response', 'error-after-commit'] as const) {
      const before = (await ordered()).length;
      const inputs = await checked({ ...base(`once-${fault}`), name: 'once', notes: 'db tier' });
      emulator.setFaults({ once: { service: 'Product_Order', method: 'placeOrder', fault } });
      const { id, outs } = await provider.create(inputs);
      const now = await ordered();
      assert.equal(now.length, before + 1, `${fault}: one VLAN, not two`);
      const made = now.find((v) => String(v.id) === id)!;
      // Its notes as declared, the handed mark as their last line (the create's last write).
      assert.deepEqual([made.name, made.note], ['once', markedNote('db tier')]);
      assert.deepEqual(outputProblems('Vlan', outs as Bag), []);
      // The next create of the same resource (a replace that orders first) finds it handed to a
      // state and orders nothing.
      await assert.rejects(
        provider.create(inputs),
        /VLAN \d+ carries this resource's creation token and was handed to a state.*deleteBeforeReplace: true/,
      );
      assert.equal((await ordered()).length, before + 1);
    }
  });

  it('an update of a VLAN whose create failed before its name, note and mark were written finishes them', async () => {
    const inputs = await checked({ ...base('unfinished'), name: 'db', notes: 'kept' });
    const { id, outs } = await provider.create(inputs);
    // As a create that failed right after the order leaves it: no name, no note, no mark.
    await client.call('Network_Vlan', 'editObject', {
      id: Number(id),
      args: [{ name: '', note: '' }],
    });
    await provider.update(id, outs!, inputs);
    const made = (await ordered()).find((v) => String(v.id) === id)!;
    assert.deepEqual([made.name, made.note], ['db', markedNote('kept')]);
    await provider.delete(id, { ...outs!, cancelImmediately: true });
  });

  it('imports, edits name and notes in place, replaces on the network space, cancels at the anniversary or at once', async () => {
    const inputs = await checked({ ...base('life'), name: 'web' });
    const { id, outs } = await provider.create(inputs);
    const read = await provider.read(id, {});
    assert.deepEqual(
      [read.inputs!.datacenter, read.inputs!.networkSpace, read.inputs!.name],
      ['dal10', 'PRIVATE', 'web'],
    );
    const renamed = await checked({ ...inputs, name: 'web-2', notes: 'kept' }, outs!);
    assert.deepEqual((await provider.diff(id, outs!, renamed)).replaces, []);
    const updated = await provider.update(id, outs!, renamed);
    const row = (await ordered()).find((v) => String(v.id) === id)!;
    assert.deepEqual([row.name, row.note], ['web-2', markedNote('kept')]);
    const moved = await checked({ ...renamed, networkSpace: 'PUBLIC' }, updated.outs!);
    assert.deepEqual((await provider.diff(id, updated.outs!, moved)).replaces, ['networkSpace']);

    await provider.delete(id, updated.outs!);
    const cancelled = (await ordered()).find((v) => String(v.id) === id);
    assert.ok(cancelled?.billingItem?.cancellationDate, 'billed to its anniversary, then gone');
    assert.deepEqual(
      await provider.read(id, updated.outs!),
      {},
      'a cancelled VLAN leaves the stack',
    );

    const now = await provider.create(await checked({ ...base('now'), cancelImmediately: true }));
    await provider.delete(now.id, now.outs!);
    assert.equal(
      (await ordered()).find((v) => String(v.id) === now.id),
      undefined,
      'gone at once',
    );
  });

  it('a VLAN the API refuses to cancel (guests on it): the delete says what to do', async () => {
    const { id, outs } = await provider.create(await checked(base('busy')));
    emulator.setFaults({
      once: {
        service: 'Billing_Item',
        method: 'cancelItem',
        fault: 'api-fault',
        faultString: `VLAN ${id} cannot be cancelled: 1 virtual guest(s) still on the VLAN.`,
      },
    });
    await assert.rejects(provider.delete(id, outs!), (err: Error) => {
      assert.match(err.message, /Vlan "busy" \(id \d+\) cannot be cancelled: .*still on the VLAN/);
      assert.match(err.message, /move those guests to another VLAN or cancel them/);
      return true;
    });
    assert.ok(
      (await ordered()).some((v) => String(v.id) === id && !v.billingItem?.cancellationDate),
    );
  });
});

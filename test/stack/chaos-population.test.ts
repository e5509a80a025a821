import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { listVlans, orderContainer, placeOrder } from '../../provider/kinds/vlan/api';
import { SecurityGroupManager } from '../../provider/managers';
import {
  POPULATION,
  baseline,
  checkAfterDestroy,
  checkMembers,
  handMade,
  noProblems,
  type Baseline,
} from './chaos-population';
import type { Emulator } from './cli';

/**
 * The chaos harness's world checks for the billed kinds (chaos-population.ts) against the
 * emulator, without the CLI: each kind's look-alike is made by hand and seen, and the checks
 * count what a broken provider would leave (an extra VLAN, a hand-made group changed, a hand-made
 * VLAN cancelled) rather than pass on a world they cannot see.
 */
describe('chaos population: the world checks see every kind', () => {
  let emulator: Emulator;
  let client: Client;
  let before_: Baseline;
  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 200 });
    emulator.settings.hardwareStageMs = 50;
    const { username, apiKey } = emulator.credentials;
    client = new Client({ endpointUrl: emulator.url, username, apiKey });
    await handMade(client);
    before_ = await baseline(client);
  });
  after(() => emulator?.close());

  it('a look-alike of each kind is made and held', () => {
    for (const member of POPULATION)
      assert.ok(before_.get(member.name)!.length > 0, `${member.kind}: the look-alike is seen`);
  });

  it('an untouched world passes; an extra order, a change and a cancel by the stack do not', async () => {
    const clean = noProblems();
    await checkAfterDestroy(client, before_, clean);
    assert.deepEqual(clean.problems, []);

    // The stack's VLAN, ordered twice (one in the state): a duplicate and an orphan.
    const order = {
      datacenter: 'dal10',
      networkSpace: 'PRIVATE',
      containerIdentifier: 't',
    } as const;
    await placeOrder(client, await orderContainer(client, order));
    await placeOrder(client, await orderContainer(client, order));
    const stacks = (await listVlans(client)).filter(
      (v) => v.billingItem && !before_.get('net')!.some((h) => h.id === v.id),
    );
    assert.equal(stacks.length, 2);
    const settled = noProblems();
    const declared = new Map([['net', { changes: 0, flipped: false }]]);
    const state = (kind: string) => (kind === 'Vlan' ? [String(stacks[0].id)] : []);
    await checkMembers(client, before_, state, declared, new Map(), settled);
    assert.deepEqual([settled.duplicates, settled.orphans], [1, 1], settled.problems.join('\n'));

    // The hand-made group changed, the hand-made VLAN cancelled: two wrong deletes.
    const groups = new SecurityGroupManager(client);
    const [web] = before_.get('web')!;
    await groups.editGroup(web.id, { description: 'changed' });
    const [net] = before_.get('net')!;
    const vlan = (await listVlans(client)).find((v) => v.id === net.id)!;
    await client.call('Billing_Item', 'cancelItem', {
      id: vlan.billingItem!.id,
      args: [true, false, 'test', 'test'],
    });
    const broken = noProblems();
    await checkAfterDestroy(client, before_, broken);
    assert.equal(broken.wrongDeletes, 2, broken.problems.join('\n'));
    assert.equal(broken.orphans, 2, 'the two VLANs left live');
  });
});

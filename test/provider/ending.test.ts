import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import {
  CYCLE_MASK,
  owedUntilAnniversary,
  type BillingCycle,
} from '../../provider/framework/billing-cycle';
import type { Client } from '../../provider/client';
import { providerEnv, type Emulator } from '../support/provider-env';
import { printed } from '../support/printed';

type Bag = Record<string, unknown>;

const guest = (name: string, hourly: boolean) => ({
  resourceName: name,
  identity: `proj/dev/${name}`,
  domain: 'ending.example.com',
  startCpus: 2,
  maxMemory: 4096,
  datacenter: 'dal10',
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  hourlyBillingFlag: hourly,
});

/** What ending a guest costs, in the BILLING line of a replace and the line of a delete. */
describe('ending a guest: what it still owes and what a replace costs while both run', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(100)));
  after(() => emulator?.close());

  async function created(name: string, hourly: boolean) {
    const { inputs } = await provider.check({}, guest(name, hourly));
    const { id, outs } = await provider.create(inputs as Bag);
    return { id, outs: outs as Bag };
  }

  const cycleOf = async (id: string) =>
    (
      (await client.call('Virtual_Guest', 'getObject', { id: Number(id), mask: CYCLE_MASK })) as {
        billingItem: BillingCycle;
      }
    ).billingItem;

  it('a replace says what the old guest still owes (monthly: to its anniversary; hourly: nothing after the cancel) and what both cost an hour meanwhile', async () => {
    for (const hourly of [false, true]) {
      const name = hourly ? 'hourly-web' : 'monthly-db';
      const { id, outs } = await created(name, hourly);
      const moved = { ...guest(name, hourly), datacenter: 'lon02' };
      const { inputs } = await provider.check(outs, moved);
      const news = inputs as Bag;
      const { result, lines } = await printed(() => provider.diff(id, outs, news));
      assert.deepEqual(result.replaces, ['datacenter']);
      const line = lines
        .split('\n')
        .find((l) => l.includes(`BILLING replace VirtualGuest "${name}"`));
      assert.ok(line, lines);
      const both = (outs.estimatedHourlyCost as number) + (news.estimatedHourlyCost as number);
      assert.ok(
        line.includes(
          `both run together until the old one is cancelled, $${both.toFixed(4)}/hour meanwhile (with deleteBeforeReplace the service is down in between instead)`,
        ),
        line,
      );
      if (hourly) {
        assert.ok(line.includes('(its hourly billing stops at the cancel)'), line);
        continue;
      }
      const cycle = await cycleOf(id);
      const owed = owedUntilAnniversary(cycle, Date.now())!;
      assert.ok(owed > 0, `${owed} of ${cycle.recurringFee}`);
      const expected = new RegExp(
        `\\(monthly, billed to its anniversary ${cycle.nextBillDate!.slice(0, 10)}: \\$(\\d+\\.\\d\\d) still owed after the cancel\\)`,
      );
      const shown = Number(expected.exec(line)?.[1]);
      // Read a moment apart: the amount owed shrinks by the second.
      assert.ok(Math.abs(shown - owed) <= 0.01, `${line}\nowed now: ${owed}`);
    }
  });

  it('a deleted monthly guest is billed to its anniversary, and the line says what is still owed', async () => {
    const { id, outs } = await created('monthly-gone', false);
    const cycle = await cycleOf(id);
    const { billingItem } = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'billingItem.id',
    })) as { billingItem: { id: number } };
    const { lines } = await printed(() => provider.delete(id, outs));
    const billed = (await client.call('Billing_Item', 'getObject', {
      id: billingItem.id,
      mask: 'cancellationDate',
    })) as { cancellationDate: string };
    assert.equal(billed.cancellationDate, cycle.nextBillDate);
    const match = /billed to its anniversary (\S+): \$(\d+\.\d\d) still owed after the cancel/.exec(
      lines,
    );
    assert.ok(match, lines);
    assert.equal(match[1], cycle.nextBillDate);
    assert.ok(Math.abs(Number(match[2]) - owedUntilAnniversary(cycle, Date.now())!) <= 0.01);
  });
});

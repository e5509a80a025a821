import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { billingChange, type PreviewStep } from '../../commands/billing-report';
import { BudgetLedger } from '../../policy/budget';
import { checkedGuest, flavoredGuest, providerEnv, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;
const TYPE = 'svc:index:VirtualGuest';
const urn = (name: string) => `urn:pulumi:dev::proj::${TYPE}::${name}`;
const step = (op: string, name: string, olds: Bag, news: Bag, reasons?: string[]): PreviewStep => ({
  op,
  urn: urn(name),
  replaceReasons: reasons,
  oldState: { type: TYPE, id: '1', outputs: olds },
  newState: { type: TYPE, inputs: news },
});

/**
 * `pulumi-svc billing` and the budget pack price a guest's machine type from the API's quote
 * (check's estimated costs, against the emulator): another flavor is an upgrade of the flavor
 * alone, a tag change of a flavor guest bills nothing, a transient guest is cheaper.
 */
describe('billing report and budget of flavors and transient guests', () => {
  let emulator: Emulator;
  before(async () => ({ emulator } = await providerEnv(100)));
  after(() => emulator?.close());

  const flavored = (flavorKeyName: string, extra: Bag = {}) =>
    checkedGuest(flavoredGuest('web', 'bill.example.com', flavorKeyName, extra));

  it('an upgrade between flavors is priced old and new; a tag change bills nothing; transient is cheaper', async () => {
    const small = await flavored('B1_2X8X25');
    const big = await flavored('B1_4X16X25');
    // The state's outputs of a flavor guest carry the flavor's cores and memory.
    const stored = { ...small, startCpus: 2, maxMemory: 8192 };
    const upgrade = billingChange(step('update', 'web', stored, big));
    assert.equal(upgrade?.op, 'upgrade');
    assert.deepEqual(upgrade?.reasons, ['flavorKeyName']);
    assert.equal(upgrade?.oldHourly, small.estimatedHourlyCost);
    assert.equal(upgrade?.newHourly, big.estimatedHourlyCost);
    assert.ok((big.estimatedHourlyCost as number) > (small.estimatedHourlyCost as number));
    const tagged = await flavored('B1_2X8X25', { tags: ['web'] });
    assert.equal(billingChange(step('update', 'web', stored, tagged)), undefined);

    const transient = await flavored('B1_2X8X25', { transientGuestFlag: true });
    const replace = billingChange(
      step('replace', 'web', stored, transient, ['transientGuestFlag']),
    );
    assert.equal(replace?.op, 'replace');
    assert.equal(replace?.newHourly, transient.estimatedHourlyCost);
    assert.ok(
      (replace?.newHourly as number) < (replace?.oldHourly as number),
      'transient is cheaper',
    );

    // The budget pack: the flavor upgrade crosses a monthly increase the transient guest stays under.
    const limit =
      ((big.estimatedMonthlyCost as number) - (small.estimatedMonthlyCost as number)) / 2;
    const ledger = () =>
      new BudgetLedger({ level: 'mandatory', maxMonthlyIncrease: limit }, [
        { urn: urn('web'), type: TYPE, outputs: stored },
      ]);
    const [over] = ledger().analyze(TYPE, urn('web'), big);
    assert.equal(over?.blocking, true);
    assert.match(
      over.message,
      /VirtualGuest "web" \(upgrade, \+\$\d+\.\d{2}\/month.*over maxMonthlyIncrease/,
    );
    assert.deepEqual(ledger().analyze(TYPE, urn('web'), tagged), []);
    assert.deepEqual(
      ledger()
        .analyze(TYPE, urn('fresh'), transient)
        .filter((f) => f.blocking),
      [],
    );
  });
});

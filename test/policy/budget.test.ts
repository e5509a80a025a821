import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { StateResource } from '../../commands/pulumi';
import { UNKNOWN } from '../../provider/framework/unknown';
import { BudgetLedger, parseBudget, type Budget } from '../../policy/budget';

const TYPE = 'svc:index:VirtualGuest';
const urn = (name: string) => `urn:pulumi:dev::proj::${TYPE}::${name}`;
const guest = (hourly: number, extra: object = {}) => ({
  domain: 'example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  hourlyBillingFlag: true,
  estimatedHourlyCost: hourly,
  estimatedMonthlyCost: Math.round(hourly * 730 * 100) / 100,
  ...extra,
});
const state = (guests: Record<string, object>): StateResource[] =>
  Object.entries(guests).map(([name, outputs]) => ({
    urn: urn(name),
    type: TYPE,
    outputs: outputs as Record<string, unknown>,
  }));

const ledger = (budget: Partial<Budget>, guests: Record<string, object> = {}) =>
  new BudgetLedger({ level: 'mandatory', ...budget }, state(guests));

it('config: every limit optional; an unknown key, a negative or non-number limit is refused naming it and the rule', () => {
  assert.deepEqual(parseBudget('advisory', {}), { level: 'advisory' });
  assert.deepEqual(parseBudget('mandatory', { maxMonthlyTotal: 500, maxIncreasePercent: 25 }), {
    level: 'mandatory',
    maxMonthlyTotal: 500,
    maxIncreasePercent: 25,
  });
  assert.throws(
    () => parseBudget('mandatory', { maxMonthlyTotals: 500 }),
    /svc-budget: unknown setting maxMonthlyTotals; the settings are enforcementLevel, maxMonthlyTotal, maxMonthlyIncrease, maxHourlyIncrease, maxIncreasePercent/,
  );
  assert.throws(
    () => parseBudget('mandatory', { maxHourlyIncrease: -1 }),
    /svc-budget: maxHourlyIncrease must be a number, 0 or more/,
  );
  assert.throws(
    () => parseBudget('mandatory', { maxMonthlyIncrease: '100' }),
    /maxMonthlyIncrease must be a number/,
  );
});

it('each guest that takes the plan over a limit is named with the figures; a blocked guest does not count toward the next', () => {
  const l = ledger({ maxMonthlyIncrease: 50 }, { a: guest(0.1) });
  assert.equal(l.monthlyBefore, 73);
  assert.deepEqual(l.analyze(TYPE, urn('b'), guest(0.04)), [], '+$29.20: under');
  const [over] = l.analyze(TYPE, urn('c'), guest(0.04));
  assert.equal(over.urn, urn('c'));
  assert.equal(over.blocking, true);
  assert.equal(
    over.message,
    'VirtualGuest "c" (create, +$29.20/month, +$0.0400/hour): the plan raises the monthly total by $58.40, over maxMonthlyIncrease $50.00',
  );
  // c is not made, so d (+$14.60) fits beside b.
  assert.deepEqual(l.analyze(TYPE, urn('d'), guest(0.02)), []);
});

it('an upgrade counts its difference, a replace the new guest less the old; percent is of the total before', () => {
  const l = ledger(
    { maxIncreasePercent: 5, maxHourlyIncrease: 0.01 },
    { a: guest(0.1), b: guest(0.1, { datacenter: 'dal10' }) },
  );
  const [upgrade] = l.analyze(TYPE, urn('a'), guest(0.12, { startCpus: 2 }));
  assert.match(
    upgrade.message,
    /^VirtualGuest "a" \(upgrade, \+\$14\.60\/month, \+\$0\.0200\/hour\)/,
  );
  assert.match(upgrade.message, /by 10\.0% \(from \$146\.00\), over maxIncreasePercent 5%/);
  assert.match(upgrade.message, /hourly total by \$0\.0200, over maxHourlyIncrease \$0\.0100/);
  const [replace] = l.analyze(TYPE, urn('b'), guest(0.15, { datacenter: 'fra02' }));
  assert.match(
    replace.message,
    /^VirtualGuest "b" \(replace, \+\$36\.50\/month, \+\$0\.0500\/hour; old and new together \$0\.2500\/hour until the old one is cancelled\)/,
  );
});

it('a cheaper guest makes room for the guests after it', () => {
  const l = ledger({ maxMonthlyIncrease: 10 }, { a: guest(0.1) });
  assert.deepEqual(l.analyze(TYPE, urn('a'), guest(0.05, { maxMemory: 512 })), [], '-$36.50');
  assert.deepEqual(l.analyze(TYPE, urn('b'), guest(0.06)), [], '+$43.80: +$7.30 in all');
  assert.equal(l.analyze(TYPE, urn('c'), guest(0.01)).length, 1, '+$14.60 in all');
});

it('a plan that changes no cost passes even over the total; a cheaper guest and other kinds are not findings', () => {
  const l = ledger({ maxMonthlyTotal: 10, maxIncreasePercent: 0 }, { a: guest(0.1) });
  assert.deepEqual(l.analyze(TYPE, urn('a'), guest(0.1, { notes: 'edited' })), []);
  assert.deepEqual(l.analyze(TYPE, urn('a'), guest(0.05, { startCpus: 1, maxMemory: 512 })), []);
  assert.deepEqual(l.analyze('svc:index:DnsRecord', urn('r'), { ttl: 1 }), []);
});

it('advisory findings never block; a guest that cannot be priced is an advisory note saying why', () => {
  const l = new BudgetLedger({ level: 'advisory', maxMonthlyTotal: 1 }, []);
  const [over] = l.analyze(TYPE, urn('a'), guest(0.1));
  assert.equal(over.blocking, false);
  const unpriced = { ...guest(0.1), startCpus: UNKNOWN } as Record<string, unknown>;
  delete unpriced.estimatedHourlyCost;
  delete unpriced.estimatedMonthlyCost;
  const [note] = l.analyze(TYPE, urn('b'), unpriced);
  assert.equal(note.blocking, false);
  assert.match(note.message, /"b" \(create\) is not counted in the budget: .*depends on startCpus/);
  assert.deepEqual(
    new BudgetLedger({ level: 'disabled', maxMonthlyTotal: 1 }, []).analyze(
      TYPE,
      urn('a'),
      guest(1),
    ),
    [],
  );
});

it("a guest priced at list price (the API did not quote the account's) is a note saying so; a replace over a limit says what old and new cost together", () => {
  const listed = ledger({}).analyze(
    TYPE,
    urn('web'),
    guest(0.05, { estimatedCostSource: 'list: the API did not quote the order: HTTP 500' }),
  );
  assert.deepEqual(
    listed.map((f) => [f.blocking, f.message]),
    [
      [
        false,
        `VirtualGuest "web" (create) is counted at list price, not the account's: the API did not quote the order: HTTP 500`,
      ],
    ],
  );
  const replaced = ledger({ maxMonthlyIncrease: 10 }, { db: guest(0.05) }).analyze(
    TYPE,
    urn('db'),
    guest(0.1, { datacenter: 'lon02', estimatedCostSource: 'account' }),
  );
  assert.equal(replaced.length, 1);
  assert.match(
    replaced[0].message,
    /^VirtualGuest "db" \(replace, \+\$36\.50\/month, \+\$0\.0500\/hour; old and new together \$0\.1500\/hour until the old one is cancelled\): /,
  );
});

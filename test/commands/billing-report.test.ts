import assert from 'node:assert/strict';
import { it } from 'node:test';
import { options } from '../../commands/args';
import { parseBillingArgs, formatReport } from '../../commands/billing-command';
import { withCancellations } from '../../commands/billing-cancel';
import { owedUntilAnniversary } from '../../provider/framework/billing-cycle';
import type { Client } from '../../provider/client';
import { OBJECT_NOT_FOUND_FAULT, SvcAPIError } from '../../provider/client/errors';
import { billingChange, type PreviewStep } from '../../commands/billing-report';
import { formatBillingTable } from '../../commands/billing-format';
import { billingReport, mayRaiseCost } from '../../commands/billing-summary';
import { UNKNOWN } from '../../provider/framework/unknown';

const GUEST = 'pulumi-nodejs:dynamic/svc:VirtualGuest';
const step = (
  op: string,
  name: string,
  olds?: object,
  news?: object,
  replaceReasons?: string[],
  type = GUEST,
): PreviewStep => ({
  op,
  urn: `urn:pulumi:dev::proj::${type}::${name}`,
  replaceReasons,
  oldState: olds && { type, outputs: olds as Record<string, unknown> },
  newState: news && { type, inputs: news as Record<string, unknown> },
});

const cost = (hourly: number, extra: object = {}) => ({
  hourlyBillingFlag: true,
  estimatedHourlyCost: hourly,
  estimatedMonthlyCost: Math.round(hourly * 730 * 100) / 100,
  ...extra,
});

const PLAN = [
  step('create', 'web', undefined, cost(0.049)),
  step(
    'replace',
    'db',
    cost(0.098),
    cost(0.12, { hourlyBillingFlag: false, estimatedMonthlyCost: 87.6 }),
    ['hourlyBillingFlag'],
  ),
  step('delete', 'old', cost(0.03)),
  step('update', 'web2', cost(1, { hostname: 'a' }), cost(1, { hostname: 'b' })),
  step(
    'update',
    'app',
    cost(0.0515, { startCpus: 1, maxMemory: 2048, disks: [25] }),
    cost(0.1, { startCpus: 2, maxMemory: 2048, disks: [100] }),
  ),
  step('create', 'rec', undefined, {}, undefined, 'pulumi-nodejs:dynamic/svc:DnsRecord'),
  step('same', 'kept', cost(0.2), cost(0.2)),
];

it('billing changes of a preview: creates, replaces, upgrades and deletes of guests, with the hourly and monthly delta', () => {
  const changes = PLAN.flatMap((s) => billingChange(s) ?? []);
  assert.deepEqual(
    changes.map((c) => [c.op, c.name, c.mode, c.oldHourly, c.newHourly, c.reasons]),
    [
      ['create', 'web', 'hourly', undefined, 0.049, []],
      ['replace', 'db', 'monthly', 0.098, 0.12, ['hourlyBillingFlag']],
      ['delete', 'old', 'hourly', 0.03, undefined, []],
      ['upgrade', 'app', 'hourly', 0.0515, 0.1, ['startCpus', 'disks']],
    ],
  );
  assert.deepEqual(
    changes.map((c) => [c.oldMonthly, c.newMonthly]),
    [
      [undefined, 35.77],
      [71.54, 87.6],
      [21.9, undefined],
      [37.6, 73],
    ],
  );
  const report = billingReport({ steps: PLAN });
  assert.equal(report.version, 1);
  assert.equal(report.hoursPerMonth, 730);
  assert.deepEqual(report.totals, {
    hourlyBefore: 1.3795, // db, old, web2, app, kept: the guests in the state
    hourlyAfter: 1.469,
    hourlyDelta: 0.0895,
    monthlyBefore: 1007.04,
    monthlyAfter: 1072.37,
    monthlyDelta: 65.33,
  });
  assert.deepEqual(report.unpriced, []);
  const table = formatBillingTable(report);
  assert.match(
    table,
    /^change\s+resource\s+billing\s+old \$\/hour\s+new \$\/hour\s+old \$\/month\s+new \$\/month\s+fields$/m,
  );
  assert.match(
    table,
    /^replace\s+db\s+monthly\s+\$0\.0980\s+\$0\.1200\s+\$71\.54\s+\$87\.60\s+hourlyBillingFlag$/m,
  );
  assert.match(
    table,
    /^upgrade\s+app\s+hourly\s+\$0\.0515\s+\$0\.1000\s+\$37\.60\s+\$73\.00\s+startCpus, disks$/m,
  );
  assert.match(table, /^Total hourly delta: \+\$0\.0895\/hour$/m);
  assert.match(table, /^Total monthly delta: \+\$65\.33\/month$/m);
  assert.match(table, /^Stack monthly total: \$1007\.04 -> \$1072\.37$/m);
  assert.match(table, /^A month is counted as 730 hours/m);
  assert.match(formatBillingTable(billingReport({})), /^No billing-affecting changes\.$/m);
});

it('the report counts a month as --hours-per-month hours: an hourly guest’s month and a monthly guest’s hour', () => {
  const report = billingReport({ steps: PLAN }, 720);
  const byName = Object.fromEntries(report.changes.map((c) => [c.name, c]));
  assert.equal(byName.web.newMonthly, 35.28, 'hourly: 0.049 x 720');
  assert.equal(byName.db.newMonthly, 87.6, 'a monthly fee is what it is');
  assert.equal(byName.db.newHourly, 0.1217, 'monthly: 87.60 / 720');
  assert.equal(byName.db.oldMonthly, 70.56, 'the old hourly guest: 0.098 x 720');
  assert.equal(report.hoursPerMonth, 720);
  assert.match(formatReport([report], 'table'), /^A month is counted as 720 hours/m);
});

it('what could not be priced is listed with its reason, counted as $0, and makes the plan one that may raise the bill', () => {
  const unknownSize = { ...cost(0.05), startCpus: UNKNOWN };
  delete (unknownSize as Record<string, unknown>).estimatedHourlyCost;
  delete (unknownSize as Record<string, unknown>).estimatedMonthlyCost;
  const report = billingReport({
    steps: [
      step('create', 'later', undefined, unknownSize),
      step('same', 'imported', { hourlyBillingFlag: true }, { hourlyBillingFlag: true }),
      step('delete', 'gone', cost(0.03)),
    ],
  });
  assert.deepEqual(
    report.unpriced.map((u) => [u.op, u.name, u.side]),
    [
      ['create', 'later', 'new'],
      ['same', 'imported', 'old'],
    ],
  );
  assert.match(report.unpriced[0].reason, /depends on startCpus, known only after apply/);
  assert.match(report.unpriced[1].reason, /state records no cost/);
  assert.equal(report.totals.monthlyDelta, -21.9, 'only the delete is priced');
  assert.equal(mayRaiseCost(report), true, 'an unpriced create may raise it');
  assert.equal(
    mayRaiseCost(billingReport({ steps: [step('delete', 'gone', cost(0.03))] })),
    false,
    'a plan that only deletes does not',
  );
  assert.match(formatReport([report], 'table'), /^Not priced \(counted as \$0 above\):$/m);
  assert.match(
    formatReport([report], 'markdown'),
    /^- create later \(new cost\): its price depends on startCpus/m,
  );
});

it('Markdown: a pull request comment with the totals and the change in percent, the changes in a collapsible table, the month assumed', () => {
  const markdown = formatReport([billingReport({ steps: PLAN })], 'markdown');
  assert.equal(markdown.split('\n')[0], '<!-- pulumi-svc-cost -->', 'the marker a CI step finds');
  assert.match(markdown, /^### Svc cost: \+\$65\.33\/month \(\+6\.5%\)$/m);
  assert.match(
    markdown,
    /^\| current stack \| \$1007\.04 \| \$1072\.37 \| \+\$65\.33 \| \+6\.5% \|$/m,
  );
  assert.match(
    markdown,
    /^<details>\n<summary>current stack: \+\$65\.33\/month \(\$1007\.04 → \$1072\.37\)<\/summary>$/m,
  );
  assert.match(markdown, /^\| change \| resource \| billing \| old \$\/hour \|/m);
  assert.match(markdown, /^\| --- \| --- \| --- \| ---: \| ---: \| ---: \| ---: \| --- \|$/m);
  assert.match(
    markdown,
    /^\| upgrade \| app \| hourly \| \$0\.0515 \| \$0\.1000 \| \$37\.60 \| \$73\.00 \| startCpus, disks \|$/m,
  );
  assert.match(markdown, /^- Stack monthly total: \$1007\.04 -> \$1072\.37$/m);
  const json = JSON.parse(formatReport([billingReport({ steps: PLAN })], 'json')) as {
    version: number;
    totals: { monthlyDelta: number };
  };
  assert.deepEqual([json.version, json.totals.monthlyDelta], [1, 65.33]);
});

it('billing arguments: its own options taken out, pulumi preview options passed on, anything else refused by name', () => {
  assert.deepEqual(
    parseBillingArgs([
      '--format',
      'markdown',
      '--stack',
      'dev',
      '--strict',
      '--hours-per-month=720',
    ]),
    {
      format: 'markdown',
      hoursPerMonth: 720,
      strict: true,
      onlyIncrease: false,
      reconcile: false,
      previewArgs: ['--stack', 'dev'],
      reports: [],
    },
  );
  assert.equal(parseBillingArgs(['--json']).format, 'json');
  assert.deepEqual(
    options(['--stack', 'a', '-s', 'b', '--stack=c', '--refresh'], ['--stack', '-s']),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(parseBillingArgs(['--only-increase', '--', '--diff']).previewArgs, ['--diff']);
  assert.throws(() => parseBillingArgs(['--formt', 'json']), /billing: unknown argument --formt/);
  assert.throws(
    () => parseBillingArgs(['--format', 'html']),
    /--format must be one of table, markdown, json, not html/,
  );
  assert.throws(
    () => parseBillingArgs(['--hours-per-month', 'lots']),
    /--hours-per-month must be a number of hours above 0 and at most 744/,
  );
  assert.throws(() => parseBillingArgs(['--hours-per-month', '0']), /--hours-per-month must be/);
  assert.throws(() => parseBillingArgs(['--format']), /--format needs a value/);
});

it('a create that takes over an existing guest is an adopt row at that guest’s bill, with no delta', () => {
  const changes = [
    step('create', 'kept', undefined, cost(0.0395, { adopts: 41, adoptId: '41' })),
    step('create', 'recovered', undefined, cost(0.0515, { adopts: 42 })),
    step('create', 'new', undefined, cost(0.049)),
  ].flatMap((s) => billingChange(s) ?? []);
  assert.deepEqual(
    changes.map((c) => [c.op, c.name, c.oldHourly, c.newHourly]),
    [
      ['adopt', 'kept', 0.0395, 0.0395],
      ['adopt', 'recovered', 0.0515, 0.0515],
      ['create', 'new', undefined, 0.049],
    ],
  );
  const report = billingReport({
    steps: [
      step('create', 'kept', undefined, cost(0.0395, { adopts: 41, adoptId: '41' })),
      step('create', 'new', undefined, cost(0.049)),
    ],
  });
  assert.equal(report.totals.hourlyDelta, 0.049, 'only the new order changes the bill');
  assert.equal(report.totals.monthlyDelta, 35.77);
  assert.equal(
    report.totals.monthlyBefore,
    28.84,
    'the adopted guest is billed before the plan too',
  );
});

it('guests of the provider plugin (svc:index:VirtualGuest) are billed like the dynamic ones', () => {
  const changes = [
    step('create', 'yaml-web', undefined, cost(0.049), undefined, 'svc:index:VirtualGuest'),
    step('create', 'rec', undefined, {}, undefined, 'svc:index:DnsRecord'),
  ].flatMap((s) => billingChange(s) ?? []);
  assert.deepEqual(
    changes.map((c) => [c.op, c.name, c.newHourly]),
    [['create', 'yaml-web', 0.049]],
  );
});

it('ending a guest: an hourly one stops billing at the cancel, a monthly one owes its cycle to the anniversary, a replace runs both meanwhile', async () => {
  const cycles: Record<string, object> = {
    '7': {
      recurringFee: '60',
      cycleStartDate: '2026-11-01T00:00:00-06:00',
      nextBillDate: '2026-12-01T00:00:00-06:00',
    },
  };
  const client = {
    call: (_service: string, _method: string, { id }: { id: number }) =>
      cycles[String(id)]
        ? Promise.resolve({ billingItem: cycles[String(id)] })
        : Promise.reject(new SvcAPIError(OBJECT_NOT_FOUND_FAULT, 'Unable to find object')),
  } as unknown as Client;
  const monthly = (hourly: number) => cost(hourly, { hourlyBillingFlag: false });
  const withId = (s: PreviewStep, id: string) => ({ ...s, oldState: { ...s.oldState, id } });
  const report = await withCancellations(
    billingReport({
      steps: [
        withId(step('delete', 'hourly', cost(0.03)), '5'),
        withId(step('delete', 'monthly', monthly(0.0822)), '7'),
        withId(
          step('replace', 'swap', cost(0.05), cost(0.1, { datacenter: 'fra02' }), ['datacenter']),
          '5',
        ),
        withId(step('delete', 'vanished', monthly(0.05)), '9'),
      ],
    }),
    () => Promise.resolve(client),
    Date.parse('2026-11-16T00:00:00-06:00'), // half of November left
  );
  const [hourly, month, swap, vanished] = report.changes;
  assert.deepEqual(hourly.cancel, { billedUntil: null, owedAfterCancel: 0 });
  assert.deepEqual(month.cancel, { billedUntil: '2026-12-01T00:00:00-06:00', owedAfterCancel: 30 });
  assert.equal(swap.runTogetherHourly, 0.15);
  assert.equal(vanished.cancel, undefined);
  assert.deepEqual(
    report.unpriced.map((u) => [u.name, u.side]),
    [['vanished', 'old']],
  );
  const table = formatReport([report], 'table');
  assert.match(table, /^ {2}delete hourly: hourly, its billing stops at the cancel$/m);
  assert.match(
    table,
    /^ {2}delete monthly: monthly, billed to its anniversary 2026-12-01: \$30\.00 of this cycle's fee is owed after the cancel$/m,
  );
  assert.match(
    table,
    /^ {2}replace swap: old and new run together until the old one is cancelled, \$0\.1500\/hour meanwhile/m,
  );
  assert.equal(
    owedUntilAnniversary(cycles['7'], Date.parse('2026-12-02T00:00:00Z')),
    0,
    'past the anniversary',
  );
});

it("says which prices are list prices, not the account's, and why; the JSON carries each change's source", () => {
  const report = billingReport({
    steps: [
      step('create', 'quoted', undefined, cost(0.05, { estimatedCostSource: 'account' })),
      step(
        'create',
        'unquoted',
        undefined,
        cost(0.06, { estimatedCostSource: 'list: the API did not quote the order: HTTP 500' }),
      ),
    ],
  });
  assert.deepEqual(
    report.changes.map((c) => [c.name, c.newSource]),
    [
      ['quoted', 'account'],
      ['unquoted', 'list: the API did not quote the order: HTTP 500'],
    ],
  );
  const table = formatReport([report], 'table');
  assert.match(table, /^At list prices, not the account's/m);
  assert.match(table, /^ {2}create unquoted: the API did not quote the order: HTTP 500$/m);
  assert.doesNotMatch(table, /create quoted/);
});

it('the resources after the plan are counted: priced, not priced, free (this package, no bill) and other providers', () => {
  const other = (op: string, name: string, type: string): PreviewStep => ({
    op,
    urn: `urn:pulumi:dev::app::${type}::${name}`,
    newState: { type, inputs: {} },
  });
  const report = billingReport({
    steps: [
      ...PLAN,
      other('same', 'app-dev', 'pulumi:pulumi:Stack'),
      other('same', 'default', 'pulumi:providers:svc'),
      other('create', 'key', 'svc:index:SshKey'),
      other('same', 'zone', 'pulumi-nodejs:dynamic/svc:DnsZone'),
      other('create', 'suffix', 'random:index:RandomString'),
    ],
  });
  // web, db, web2, app and kept; the DnsRecord of the plan, the key and the zone.
  assert.deepEqual(report.resources, { priced: 5, unpriced: 0, free: 3, unsupported: 1 });
});

it('one comment for several stacks: a row each and one for all, a collapsible block each', () => {
  const dev = { ...billingReport({ steps: PLAN }), stack: 'dev' };
  const prod = { ...billingReport({ steps: [step('delete', 'gone', cost(0.03))] }), stack: 'prod' };
  const markdown = formatReport([dev, prod], 'markdown');
  assert.match(markdown, /^\| dev \| \$1007\.04 \| \$1072\.37 \| \+\$65\.33 \| \+6\.5% \|$/m);
  assert.match(markdown, /^\| prod \| \$21\.90 \| \$0\.00 \| -\$21\.90 \| -100\.0% \|$/m);
  assert.match(
    markdown,
    /^\| \*\*all stacks\*\* \| \$1028\.94 \| \$1072\.37 \| \+\$43\.43 \| \+4\.2% \|$/m,
  );
  assert.match(markdown, /^### Svc cost: \+\$43\.43\/month \(\+4\.2%\)$/m);
  assert.equal(markdown.match(/^<details>$/gm)?.length, 2);
  assert.match(markdown, /^<summary>prod: -\$21\.90\/month \(\$21\.90 → \$0\.00\)<\/summary>$/m);
  assert.match(markdown, /^Resources: 5 priced, 1 free, 0 unsupported \(other providers'\)\.$/m);
  const json = JSON.parse(formatReport([dev, prod], 'json')) as { stack: string }[];
  assert.deepEqual(
    json.map((r) => r.stack),
    ['dev', 'prod'],
    'several stacks: an array of reports',
  );
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  billingChange,
  formatBillingTable,
  totalDelta,
  totalMonthlyDelta,
  type PreviewStep,
} from '../../commands/billing-report';

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

it('billing changes of a preview: creates, replaces, upgrades and deletes of guests, with the hourly and monthly delta', () => {
  const changes = [
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
  ].flatMap((s) => billingChange(s) ?? []);
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
  assert.equal(totalDelta(changes), 0.0895);
  assert.equal(totalMonthlyDelta(changes), 65.33);
  const table = formatBillingTable(changes);
  assert.match(
    table,
    /^change\s+guest\s+billing\s+old \$\/hour\s+new \$\/hour\s+old \$\/month\s+new \$\/month\s+fields$/m,
  );
  assert.match(
    table,
    /^replace\s+db\s+monthly\s+\$0\.0980\s+\$0\.1200\s+\$71\.54\s+\$87\.60\s+hourlyBillingFlag$/m,
  );
  assert.match(
    table,
    /^upgrade\s+app\s+hourly\s+\$0\.0515\s+\$0\.1000\s+\$37\.60\s+\$73\.00\s+startCpus, disks$/m,
  );
  assert.match(table, /Total hourly delta: \+\$0\.0895\/hour$/m);
  assert.match(table, /Total monthly delta: \+\$65\.33\/month$/);
  assert.equal(formatBillingTable([]), 'No billing-affecting changes.');
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
  assert.equal(totalDelta(changes), 0.049, 'only the new order changes the bill');
  assert.equal(totalMonthlyDelta(changes), 35.77);
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

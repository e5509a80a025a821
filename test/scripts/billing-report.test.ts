import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  billingChange,
  formatBillingTable,
  totalDelta,
  type PreviewStep,
} from '../../scripts/billing-report';

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

it('billing changes of a preview: creates, replaces and deletes of guests, with the hourly delta', () => {
  const changes = [
    step('create', 'web', undefined, { hourlyBillingFlag: true, estimatedHourlyCost: 0.049 }),
    step(
      'replace',
      'db',
      { hourlyBillingFlag: true, estimatedHourlyCost: 0.098 },
      { hourlyBillingFlag: false, estimatedHourlyCost: 0.12 },
      ['hourlyBillingFlag'],
    ),
    step('delete', 'old', { hourlyBillingFlag: true, estimatedHourlyCost: 0.03 }),
    step('update', 'web2', { estimatedHourlyCost: 1 }, { estimatedHourlyCost: 1 }),
    step('create', 'rec', undefined, {}, undefined, 'pulumi-nodejs:dynamic/svc:DnsRecord'),
  ].flatMap((s) => billingChange(s) ?? []);
  assert.deepEqual(
    changes.map((c) => [c.op, c.name, c.mode, c.oldHourly, c.newHourly, c.reasons]),
    [
      ['create', 'web', 'hourly', undefined, 0.049, []],
      ['replace', 'db', 'monthly', 0.098, 0.12, ['hourlyBillingFlag']],
      ['delete', 'old', 'hourly', 0.03, undefined, []],
    ],
  );
  assert.equal(totalDelta(changes), 0.041);
  const table = formatBillingTable(changes);
  assert.match(table, /^change\s+guest\s+billing\s+old \$\/hour\s+new \$\/hour\s+forced by$/m);
  assert.match(table, /^replace\s+db\s+monthly\s+\$0\.0980\s+\$0\.1200\s+hourlyBillingFlag$/m);
  assert.match(table, /Total hourly delta: \+\$0\.0410\/hour$/);
  assert.equal(formatBillingTable([]), 'No billing-affecting changes.');
});

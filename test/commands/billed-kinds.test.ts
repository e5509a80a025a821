import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { audit } from '../../commands/audit';
import { BILLING_FACES } from '../../commands/billed-kinds';
import { withCancellations } from '../../commands/billing-cancel';
import type { PreviewStep } from '../../commands/billing-report';
import { billingReport } from '../../commands/billing-summary';
import { BudgetLedger } from '../../policy/budget';
import type { Client } from '../../provider/client';
import type { ApiObject, BillingFace } from '../../provider/kinds/faces';
import { UNKNOWN } from '../../provider/framework/unknown';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

// A billed kind the tools have never heard of, registered only in a test registry: the billing
// report, its cancellations, the budget pack and the audit price and hold it from its face
// alone, with no edit to any of them.

interface Volume extends ApiObject {
  label: string;
  capacityGb: number;
  monthlyFee?: number;
  tags: string[];
  cancelled?: boolean;
}

const owedCalls: number[] = [];
const VOLUME: BillingFace<Volume> = {
  pricedBy: ['capacityGb', 'datacenter'],
  resizedBy: ['capacityGb'],
  replacedBy: (olds, news) => (olds.datacenter !== news.datacenter ? ['datacenter'] : []),
  // Its own property names: a monthly fee only.
  cost: (props) => {
    const fee = typeof props?.fee === 'number' ? props.fee : undefined;
    return { mode: 'monthly', monthly: fee, hourly: fee === undefined ? undefined : fee / 1000 };
  },
  adopts: () => false,
  owedOnCancel: (_client, id) => {
    owedCalls.push(id);
    return Promise.resolve({ billedUntil: '2026-12-01T00:00:00Z', owed: 7.5 });
  },
  audit: {
    list: { service: 'Account', method: 'getVolumes', mask: 'id,label,capacityGb,monthlyFee,tags' },
    ended: (v) => v.cancelled === true,
    name: (v) => v.label,
    billed: (v) => (v.monthlyFee === undefined ? undefined : { monthly: v.monthlyFee, hourly: 0 }),
    drift: (recorded, v): Record<string, [unknown, unknown]> =>
      recorded.capacityGb === v.capacityGb
        ? {}
        : { capacityGb: [recorded.capacityGb, v.capacityGb] },
    provenance: (v) =>
      v.tags.includes('mine-owned') ? 'handed' : v.tags.includes('mine') ? 'unfinished' : 'none',
  },
};
const FACES = { ...BILLING_FACES, BlockVolume: VOLUME };
const TYPE = 'svc:index:BlockVolume';

const step = (
  op: string,
  name: string,
  olds?: Record<string, unknown>,
  news?: Record<string, unknown>,
  id?: string,
): PreviewStep => ({
  op,
  urn: `urn:pulumi:dev::app::${TYPE}::${name}`,
  ...(olds ? { oldState: { type: TYPE, id, outputs: olds } } : {}),
  ...(news ? { newState: { type: TYPE, inputs: news } } : {}),
});

const PLAN = {
  steps: [
    step('create', 'logs', undefined, { capacityGb: 100, datacenter: 'dal10', fee: 20 }),
    step(
      'update',
      'data',
      { capacityGb: 100, datacenter: 'dal10', fee: 20 },
      { capacityGb: 500, datacenter: 'dal10', fee: 90 },
      '7',
    ),
    step('delete', 'old', { capacityGb: 50, datacenter: 'dal10', fee: 10 }, undefined, '8'),
  ],
};

describe('a new billed kind, declared only by its billing face in a registry', () => {
  it('the billing report prices its creates, upgrades and deletes; without the face it is not billed', () => {
    const report = billingReport(PLAN, 730, FACES);
    assert.deepEqual(
      report.changes.map((c) => [
        c.kind,
        c.op,
        c.name,
        c.mode,
        c.oldMonthly,
        c.newMonthly,
        c.reasons,
      ]),
      [
        ['BlockVolume', 'create', 'logs', 'monthly', undefined, 20, []],
        ['BlockVolume', 'upgrade', 'data', 'monthly', 20, 90, ['capacityGb']],
        ['BlockVolume', 'delete', 'old', 'monthly', 10, undefined, []],
      ],
    );
    assert.deepEqual(
      [report.totals.monthlyBefore, report.totals.monthlyAfter, report.totals.monthlyDelta],
      [30, 110, 80],
    );
    const unknown = billingReport(
      { steps: [step('create', 'x', undefined, { capacityGb: UNKNOWN })] },
      730,
      FACES,
    );
    assert.match(unknown.unpriced[0].reason, /depends on capacityGb, known only after apply/);
    assert.deepEqual(billingReport(PLAN).changes, [], 'the shipped registry has no BlockVolume');
  });

  it('its cancel asks its own face what the rest of the cycle owes', async () => {
    const client = () => Promise.resolve({} as Client);
    const report = await withCancellations(billingReport(PLAN, 730, FACES), client, 0, FACES);
    const deleted = report.changes.find((c) => c.op === 'delete');
    assert.deepEqual(deleted?.cancel, {
      billedUntil: '2026-12-01T00:00:00Z',
      owedAfterCancel: 7.5,
    });
    assert.deepEqual(owedCalls, [8]);
  });

  it('the budget pack counts it and names it in a finding', () => {
    const state = [
      { urn: PLAN.steps[1].urn, type: TYPE, outputs: PLAN.steps[1].oldState?.outputs },
    ];
    const ledger = new BudgetLedger({ level: 'mandatory', maxMonthlyIncrease: 50 }, state, FACES);
    assert.equal(ledger.monthlyBefore, 20);
    const [finding] = ledger.analyze(TYPE, PLAN.steps[1].urn, {
      capacityGb: 500,
      datacenter: 'dal10',
      fee: 90,
    });
    assert.equal(finding.blocking, true);
    assert.match(finding.message, /^BlockVolume "data" \(upgrade, \+\$70\.00\/month/);
    const moved = ledger.analyze(TYPE, PLAN.steps[1].urn, {
      capacityGb: 100,
      datacenter: 'ams01',
      fee: 20,
    });
    assert.deepEqual(moved, [], 'a replace at the same fee crosses nothing');
  });

  it('the audit holds its objects against the states: orphans, gone, drift and bill drift', () => {
    const volume = (id: number, capacityGb: number, tags: string[], monthlyFee = 20): Volume => ({
      id,
      label: `vol${id}`,
      capacityGb,
      monthlyFee,
      tags,
    });
    const states = [
      {
        stack: 'dev',
        resources: [
          {
            urn: 'urn:a',
            type: TYPE,
            id: '1',
            outputs: { capacityGb: 100, estimatedMonthlyCost: 20 },
          },
          {
            urn: 'urn:b',
            type: TYPE,
            id: '2',
            outputs: { capacityGb: 100, estimatedMonthlyCost: 20 },
          },
          { urn: 'urn:gone', type: TYPE, id: '9', outputs: {} },
        ],
      },
    ];
    const report = audit(
      states,
      {
        BlockVolume: [
          volume(1, 100, ['mine-owned']),
          volume(2, 200, [], 35),
          volume(3, 10, ['mine']),
          volume(4, 10, []),
        ],
      },
      [],
      FACES,
    );
    assert.deepEqual(report.gone, [
      { kind: 'BlockVolume', stack: 'dev', urn: 'urn:gone', id: '9' },
    ]);
    assert.deepEqual(report.drift, [
      {
        kind: 'BlockVolume',
        stack: 'dev',
        urn: 'urn:b',
        id: 2,
        changes: { capacityGb: [100, 200] },
        cost: { recordedMonthly: 20, billedMonthly: 35, monthlyDelta: 15 },
      },
    ]);
    assert.deepEqual(
      report.orphans.map((o) => [o.kind, o.id, o.fqdn, o.unfinished]),
      [['BlockVolume', 3, 'vol3', true]],
    );
  });
});

it('commands/ and policy/ reach a kind only through its entry file (provider/kinds/<kind>/index.ts)', () => {
  const reached: string[] = [];
  for (const folder of ['commands', 'policy']) {
    for (const file of fs
      .readdirSync(path.join(PACKAGE_ROOT, folder))
      .filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(PACKAGE_ROOT, folder, file), 'utf8');
      for (const [, target] of text.matchAll(/from '\.\.\/provider\/kinds\/([^']+)'/g))
        if (target.includes('/') && !target.endsWith('/index'))
          reached.push(`${folder}/${file} -> ${target}`);
    }
  }
  assert.deepEqual(reached, []);
});

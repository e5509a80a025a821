import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ADOPTION_FACES, describedKinds, inFileOrder } from '../../commands/adopt';
import { audit } from '../../commands/audit';
import { auditAccount } from '../../commands/audit-command';
import { BILLING_FACES } from '../../commands/billed-kinds';
import { withCancellations } from '../../commands/billing-cancel';
import type { PreviewStep } from '../../commands/billing-report';
import { billingReport } from '../../commands/billing-summary';
import { BudgetLedger } from '../../policy/budget';
import type { Client } from '../../provider/client';
import { KINDS } from '../../provider/kinds';
import type { AdoptionFace, ApiObject, BillingFace } from '../../provider/kinds/faces';
import { UNKNOWN } from '../../provider/framework/unknown';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

// A billed kind the tools have never heard of, registered only in a test registry: the billing
// report, its cancellations, the budget pack and the audit price and hold it from its face
// alone, and the audit's import file adopts it from its adoption face, with no edit to any of
// them.

interface Volume extends ApiObject {
  label: string;
  capacityGb: number;
  monthlyFee?: number;
  tags: string[];
  cancelled?: boolean;
  datacenter?: string;
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
const FACES = { ...BILLING_FACES, ScratchVolume: VOLUME };
// Its adoption reads the audit's list; one with its creation tags is an orphan, never adopted.
const VOLUME_ADOPTION: AdoptionFace<Volume> = {
  list: VOLUME.audit.list,
  adoptable: (v) => !VOLUME.audit.ended(v) && VOLUME.audit.provenance(v) === 'none',
  name: (v) => `vol-${v.label}`,
  nameWord: 'vol',
  describedBy: { datacenter: (v) => v.datacenter ?? '' },
};
const ADOPTION = inFileOrder({ ...ADOPTION_FACES, ScratchVolume: VOLUME_ADOPTION }, FACES);
const TYPE = 'svc:index:ScratchVolume';

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
        ['ScratchVolume', 'create', 'logs', 'monthly', undefined, 20, []],
        ['ScratchVolume', 'upgrade', 'data', 'monthly', 20, 90, ['capacityGb']],
        ['ScratchVolume', 'delete', 'old', 'monthly', 10, undefined, []],
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
    assert.deepEqual(billingReport(PLAN).changes, [], 'the shipped registry has no ScratchVolume');
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
    assert.match(finding.message, /^ScratchVolume "data" \(upgrade, \+\$70\.00\/month/);
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
        ScratchVolume: [
          volume(1, 100, ['mine-owned']),
          volume(2, 200, [], 35),
          volume(3, 10, ['mine']),
          volume(4, 10, []),
        ],
      },
      {},
      FACES,
    );
    assert.deepEqual(report.gone, [
      { kind: 'ScratchVolume', stack: 'dev', urn: 'urn:gone', id: '9' },
    ]);
    assert.deepEqual(report.drift, [
      {
        kind: 'ScratchVolume',
        stack: 'dev',
        urn: 'urn:b',
        id: 2,
        changes: { capacityGb: [100, 200] },
        cost: { recordedMonthly: 20, billedMonthly: 35, monthlyDelta: 15 },
      },
    ]);
    assert.deepEqual(
      report.orphans.map((o) => [o.kind, o.id, o.fqdn, o.unfinished]),
      [['ScratchVolume', 3, 'vol3', true]],
    );
  });
});

describe('a new adoptable kind, declared only by its adoption face in a registry', () => {
  const volumes: Volume[] = [
    { id: 1, label: 'data', capacityGb: 100, tags: [], datacenter: 'dal10' }, // in a state
    { id: 3, label: 'killed', capacityGb: 10, tags: ['mine'], datacenter: 'dal10' }, // an orphan
    { id: 4, label: 'Logs', capacityGb: 10, tags: [], datacenter: 'dal10' },
    { id: 5, label: 'logs', capacityGb: 10, tags: [], datacenter: 'ams01' },
    { id: 6, label: 'old', capacityGb: 10, tags: [], cancelled: true, datacenter: 'dal10' },
  ];
  const calls: string[] = [];
  /** An account with only these volumes, answering each list method page by page. */
  const client = {
    call: (service: string, method: string, options: { offset?: number }) => {
      calls.push(`${service}.${method}`);
      const items = `${service}.${method}` === 'Account.getVolumes' ? volumes : [];
      return Promise.resolve(options.offset ? [] : items);
    },
  } as unknown as Client;
  const states = [
    { stack: 'dev', resources: [{ urn: 'urn:a', type: TYPE, id: '1', outputs: {} }] },
  ];
  const faces = { billing: FACES, adoption: ADOPTION };

  it('audit --import-file lists the unowned ones it may adopt, its list read once for both faces', async () => {
    calls.length = 0;
    const { importable, orphans } = await auditAccount(client, states, {}, faces);
    assert.deepEqual(
      importable.filter((e) => e.type === TYPE),
      [
        { type: TYPE, name: 'vol_logs_4', id: '4' },
        { type: TYPE, name: 'vol_logs_5', id: '5' },
      ],
    );
    assert.deepEqual(
      orphans.map((o) => o.id),
      [3],
    );
    assert.equal(calls.filter((c) => c === 'Account.getVolumes').length, 1);
    const shipped = await auditAccount(client, states);
    assert.deepEqual(shipped.importable, [], 'the shipped registry has no ScratchVolume');
  });

  it('the filters its face describes narrow it, the others leave it out, and the help names it', async () => {
    const ids = async (filters: Record<string, string>) =>
      (await auditAccount(client, states, filters, faces)).importable.map((e) => e.id);
    assert.deepEqual(await ids({ datacenter: 'DAL*' }), ['4']);
    assert.deepEqual(await ids({ domain: '*' }), []);
    assert.match(describedKinds('datacenter', ADOPTION), /, ScratchVolume$/);
    assert.doesNotMatch(describedKinds('domain', ADOPTION), /ScratchVolume/);
  });
});

/** Each source file of commands/ and policy/ with its text. */
const toolFiles = () =>
  ['commands', 'policy'].flatMap((folder) =>
    fs
      .readdirSync(path.join(PACKAGE_ROOT, folder))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({
        file: `${folder}/${f}`,
        text: fs.readFileSync(path.join(PACKAGE_ROOT, folder, f), 'utf8'),
      })),
  );

it('commands/ and policy/ reach a kind only through its entry file (provider/kinds/<kind>/index.ts)', () => {
  const reached: string[] = [];
  for (const { file, text } of toolFiles()) {
    for (const [, target] of text.matchAll(/from '\.\.\/provider\/kinds\/([^']+)'/g))
      if (target.includes('/') && !target.endsWith('/index')) reached.push(`${file} -> ${target}`);
  }
  assert.deepEqual(reached, []);
});

it('commands/ and policy/ name no kind of the registry in their code (comments aside)', () => {
  const kind = new RegExp(`\\b(${Object.keys(KINDS).join('|')})\\b`, 'g');
  const named = toolFiles().flatMap(({ file, text }) =>
    text
      .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      .split('\n')
      .flatMap((line) => [...line.matchAll(kind)].map((m) => `${file}: ${m[1]}`)),
  );
  assert.deepEqual(named, []);
});

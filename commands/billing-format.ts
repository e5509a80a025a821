import type { BillingReport } from './billing-summary';

/** How a billing report reads: the plain table of a terminal, or Markdown for a pull request. */

/** `$0.0395` (4 digits: an hourly figure), `$28.84` with 2; `-` when not known. */
export const dollars = (value: number | undefined, digits = 4) =>
  value === undefined ? '-' : `$${value.toFixed(digits)}`;
/** `+$32.48`, `-$0.0100`: a change. */
export const signed = (value: number, digits: number) =>
  `${value >= 0 ? '+' : '-'}$${Math.abs(value).toFixed(digits)}`;

const HEADER = [
  'change',
  'resource',
  'billing',
  'old $/hour',
  'new $/hour',
  'old $/month',
  'new $/month',
  'fields',
];

/** One row a change: the header's columns. */
const rows = (report: BillingReport) =>
  report.changes.map((c) => [
    c.op,
    c.name,
    c.mode,
    dollars(c.oldHourly),
    dollars(c.newHourly),
    dollars(c.oldMonthly, 2),
    dollars(c.newMonthly, 2),
    c.reasons.join(', ') || '-',
  ]);

/** The lines after the changes: totals, the month assumed, what is not priced. */
function summary(report: BillingReport, bullet: string): string[] {
  const t = report.totals;
  return [
    `${bullet}Total hourly delta: ${signed(t.hourlyDelta, 4)}/hour`,
    `${bullet}Total monthly delta: ${signed(t.monthlyDelta, 2)}/month`,
    `${bullet}Stack monthly total: ${dollars(t.monthlyBefore, 2)} -> ${dollars(t.monthlyAfter, 2)}`,
    `${bullet}A month is counted as ${report.hoursPerMonth} hours (an hourly guest's monthly cost is its hourly fee times that).`,
  ];
}

/** What ending each old guest costs: when its billing stops, and the overlap of a replace. */
function endingLines(report: BillingReport, bullet: string): string[] {
  const lines = report.changes.flatMap((c) => {
    const ends = c.cancel
      ? c.cancel.billedUntil === null
        ? [`${c.op} ${c.name}: hourly, its billing stops at the cancel`]
        : [
            `${c.op} ${c.name}: monthly, billed to its anniversary ${c.cancel.billedUntil.slice(0, 10)}: ${dollars(c.cancel.owedAfterCancel, 2)} of this cycle's fee is owed after the cancel`,
          ]
      : [];
    const overlap =
      c.runTogetherHourly === undefined
        ? []
        : [
            `replace ${c.name}: old and new run together until the old one is cancelled, ${dollars(c.runTogetherHourly)}/hour meanwhile (with deleteBeforeReplace the service is down in between instead)`,
          ];
    return [...ends, ...overlap].map((line) => `${bullet}${line}`);
  });
  return lines.length === 0 ? [] : ['', 'Ending guests:', ...lines];
}

/** The changes priced at list prices, not the account's own, and why (estimatedCostSource). */
function listPriceLines(report: BillingReport, bullet: string): string[] {
  const listed = report.changes.filter((c) => c.newSource?.startsWith('list: '));
  if (listed.length === 0) return [];
  return [
    '',
    "At list prices, not the account's (the rest are the account's own prices):",
    ...listed.map((c) => `${bullet}${c.op} ${c.name}: ${c.newSource!.slice('list: '.length)}`),
  ];
}

function unpricedLines(report: BillingReport, bullet: string): string[] {
  if (report.unpriced.length === 0) return [];
  return [
    '',
    'Not priced (counted as $0 above):',
    ...report.unpriced.map((u) => `${bullet}${u.op} ${u.name} (${u.side} cost): ${u.reason}`),
  ];
}

/** A plain-text table of the changes, then the totals and what could not be priced. */
export function formatBillingTable(report: BillingReport): string {
  const lines =
    report.changes.length === 0 ? ['No billing-affecting changes.'] : alignedTable(report);
  return [...lines, '', ...footer(report, '', '  ')].join('\n');
}

/** Below the changes: the totals and the month assumed, then what ends and what is unpriced. */
const footer = (report: BillingReport, bullet: string, item: string) => [
  ...summary(report, bullet),
  ...endingLines(report, item),
  ...listPriceLines(report, item),
  ...unpricedLines(report, item),
];

function alignedTable(report: BillingReport): string[] {
  const table = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, col) => Math.max(...table.map((row) => row[col].length)));
  const lines = table.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  return lines;
}

/** Markdown cells: a `|` in a resource name must not split the row. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The hidden line a CI step finds its earlier comment by, to update it in place. */
export const COST_MARKER = '<!-- pulumi-svc-cost -->';

/** One stack's report in Markdown: the changes' table, then the footer. */
function markdownBody(report: BillingReport): string[] {
  const table =
    report.changes.length === 0
      ? ['No billing-affecting changes.']
      : [
          `| ${HEADER.join(' | ')} |`,
          `| ${HEADER.map((_, i) => (i >= 3 && i <= 6 ? '---:' : '---')).join(' | ')} |`,
          ...rows(report).map((row) => `| ${row.map(cell).join(' | ')} |`),
        ];
  return [...table, '', ...footer(report, '- ', '- ')];
}

/** `+12.5%` of the monthly total before; `new` when there was none. */
const percent = (delta: number, before: number) =>
  before > 0 ? `${delta >= 0 ? '+' : '-'}${Math.abs((delta / before) * 100).toFixed(1)}%` : 'new';

const stackName = (report: BillingReport) => report.stack ?? 'current stack';

/**
 * A pull request comment of one or several stacks' reports: the monthly totals before and after
 * with the change and its percent (per stack, and in all), how many resources are priced, free
 * or not this package's, then each stack's changes in a collapsible block; the marker lets a CI
 * step find and update the comment instead of adding one per push.
 */
export function formatBillingMarkdown(reports: BillingReport[]): string {
  const total = (pick: (r: BillingReport) => number) =>
    Math.round(reports.reduce((sum, r) => sum + pick(r), 0) * 100) / 100;
  const before = total((r) => r.totals.monthlyBefore);
  const delta = total((r) => r.totals.monthlyDelta);
  const after = total((r) => r.totals.monthlyAfter);
  const row = (name: string, b: number, a: number, d: number) =>
    `| ${cell(name)} | ${dollars(b, 2)} | ${dollars(a, 2)} | ${signed(d, 2)} | ${percent(d, b)} |`;
  const count = (pick: (r: BillingReport) => number | undefined) =>
    reports.reduce((sum, r) => sum + (pick(r) ?? 0), 0);
  const unpriced = count((r) => r.resources?.unpriced);
  return [
    COST_MARKER,
    `### Svc cost: ${signed(delta, 2)}/month (${percent(delta, before)})`,
    '',
    '| stack | monthly before | monthly after | change | change % |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...reports.map((r) =>
      row(stackName(r), r.totals.monthlyBefore, r.totals.monthlyAfter, r.totals.monthlyDelta),
    ),
    ...(reports.length > 1 ? [row('**all stacks**', before, after, delta)] : []),
    '',
    `Resources: ${count((r) => r.resources?.priced)} priced, ${count((r) => r.resources?.free)} free, ${count((r) => r.resources?.unsupported)} unsupported (other providers')${unpriced ? `, ${unpriced} not priced (below)` : ''}.`,
    '',
    ...reports.flatMap((r) => [
      '<details>',
      `<summary>${stackName(r)}: ${signed(r.totals.monthlyDelta, 2)}/month (${dollars(r.totals.monthlyBefore, 2)} → ${dollars(r.totals.monthlyAfter, 2)})</summary>`,
      '',
      ...markdownBody(r),
      '',
      '</details>',
      '',
    ]),
  ]
    .join('\n')
    .trimEnd();
}

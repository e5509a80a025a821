import { HOURS_PER_MONTH } from '../provider/kinds/faces';
import * as fs from 'node:fs';
import { options, withoutOptions } from './args';
import type { PreviewJson } from './billing-report';
import { formatBillingMarkdown, formatBillingTable } from './billing-format';
import {
  BILLING_REPORT_VERSION,
  billingReport,
  mayRaiseCost,
  type BillingReport,
} from './billing-summary';
import { withCancellations } from './billing-cancel';
import { formatReconciliation, gatherReconciliation } from './billing-reconcile';
import {
  EXIT,
  UsageError,
  parseCommandArgs,
  type Command,
  type OptionSpecs,
  type ParsedArgs,
} from './command';
import { pulumiJson } from './pulumi';
import { stackClient } from './stack-client';
import type { Client } from '../provider/client';

/** `pulumi-svc billing`'s own options, the rest being `pulumi preview`'s. */
export interface BillingArgs {
  format: 'table' | 'markdown' | 'json';
  hoursPerMonth: number;
  /** Exit with EXIT.findings when something could not be priced. */
  strict: boolean;
  /** Print nothing when the plan cannot raise the bill. */
  onlyIncrease: boolean;
  /** Compare what the stacks' objects are billed now with their states instead of a plan. */
  reconcile: boolean;
  /** Passed to `pulumi preview` as they are (each stack's in turn, when there are several). */
  previewArgs: string[];
  /** JSON reports an earlier `--format json` wrote, read instead of previewing. */
  reports: string[];
}

const FORMATS = ['table', 'markdown', 'json'] as const;

const OWN_OPTIONS = {
  format: {
    type: 'string',
    value: FORMATS.join('|'),
    help: 'how the report reads: a table for a terminal (the default), Markdown for a pull request comment, or the JSON report',
  },
  json: { type: 'boolean', help: 'the same as --format json' },
  'hours-per-month': {
    type: 'string',
    value: 'N',
    help: `the hours a month is counted as (default ${HOURS_PER_MONTH}, the API's own): an hourly object's monthly cost is its hourly fee times N`,
  },
  strict: {
    type: 'boolean',
    help: `exit with status ${EXIT.findings} when something could not be priced (after printing the report)`,
  },
  'only-increase': {
    type: 'boolean',
    help: 'print nothing when the plan does not raise the cost',
  },
  report: {
    type: 'string',
    multiple: true,
    value: 'FILE',
    help: 'no plan: the report that `--format json` wrote to FILE (repeatable: one per stack), printed in the format asked, e.g. one pull request comment of several stacks',
  },
  reconcile: {
    type: 'boolean',
    help: 'no plan: what each billed object of the stacks (--stack, repeatable; default every stack of the backend) is billed now against what its state recorded',
  },
} as const satisfies OptionSpecs;

/** The `pulumi preview` options a billing report may be asked for with, passed on as written. */
const PREVIEW_OPTIONS = {
  stack: {
    type: 'string',
    short: 's',
    multiple: true,
    value: 'NAME',
    help: 'the stack (repeatable with --reconcile)',
  },
  target: {
    type: 'string',
    short: 't',
    multiple: true,
    value: 'URN',
    help: 'pulumi preview --target',
  },
  'target-dependents': { type: 'boolean', help: 'pulumi preview --target-dependents' },
  exclude: { type: 'string', multiple: true, value: 'URN', help: 'pulumi preview --exclude' },
  'exclude-dependents': { type: 'boolean', help: 'pulumi preview --exclude-dependents' },
  refresh: { type: 'boolean', short: 'r', help: 'pulumi preview --refresh' },
  'config-file': { type: 'string', value: 'FILE', help: 'pulumi preview --config-file' },
  parallel: { type: 'string', short: 'p', value: 'N', help: 'pulumi preview --parallel' },
  'policy-pack': {
    type: 'string',
    multiple: true,
    value: 'DIR',
    help: 'pulumi preview --policy-pack',
  },
  'policy-pack-config': {
    type: 'string',
    multiple: true,
    value: 'FILE',
    help: 'pulumi preview --policy-pack-config',
  },
} as const satisfies OptionSpecs;

/** Reads `pulumi-svc billing`'s arguments; a bad one is a UsageError naming it and its rule. */
function billingArgs(args: ParsedArgs): BillingArgs {
  const format = args.string('format') ?? (args.flag('json') ? 'json' : 'table');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`billing: --format must be one of ${FORMATS.join(', ')}, not ${format}`);
  const hoursText = args.string('hours-per-month');
  const hoursPerMonth = hoursText === undefined ? HOURS_PER_MONTH : Number(hoursText);
  if (!(hoursPerMonth > 0 && hoursPerMonth <= 744))
    throw new UsageError(
      `billing: --hours-per-month must be a number of hours above 0 and at most 744 (31 days), not ${hoursText}`,
    );
  const previewArgs = args.written.flatMap((o) =>
    Object.hasOwn(PREVIEW_OPTIONS, o.name) ? o.words : [],
  );
  return {
    format: format as BillingArgs['format'],
    hoursPerMonth,
    strict: args.flag('strict'),
    onlyIncrease: args.flag('only-increase'),
    reconcile: args.flag('reconcile'),
    previewArgs: [...previewArgs, ...args.passed],
    reports: args.strings('report'),
  };
}

/** Reads the arguments of `pulumi-svc billing`; a bad one throws naming it and its rule. */
export const parseBillingArgs = (argv: string[]): BillingArgs =>
  billingArgs(parseCommandArgs('billing', BILLING_COMMAND, argv));

/**
 * The reports (one per stack) as the format asks: the JSON of one report, or an array of
 * several; one Markdown comment for them all; a table per stack.
 */
export function formatReport(reports: BillingReport[], format: BillingArgs['format']): string {
  if (format === 'json')
    return JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2);
  if (format === 'markdown') return formatBillingMarkdown(reports);
  if (reports.length === 1) return formatBillingTable(reports[0]);
  return reports.map((r) => `== ${r.stack}\n\n${formatBillingTable(r)}`).join('\n\n');
}

const STACK_OPTIONS = ['--stack', '-s'];

/** The reports of a `--report` file: one report, or the array a run over several stacks wrote. */
function readReports(file: string): BillingReport[] {
  const read = JSON.parse(fs.readFileSync(file, 'utf8')) as BillingReport | BillingReport[];
  const reports = Array.isArray(read) ? read : [read];
  for (const r of reports)
    if (r?.version !== BILLING_REPORT_VERSION || !r.totals)
      throw new Error(
        `${file} is not a billing report of version ${BILLING_REPORT_VERSION} (pulumi-svc billing --format json writes one)`,
      );
  return reports;
}

/**
 * The reports asked for: read from `--report` files, or one plan per stack named with
 * `--stack` (the current stack when none is), each report carrying its stack's name.
 */
export async function gatherReports(
  cwd: string,
  args: BillingArgs,
  env: Record<string, string> = {},
): Promise<BillingReport[]> {
  if (args.reports.length > 0) return args.reports.flatMap(readReports);
  const stacks = options(args.previewArgs, STACK_OPTIONS);
  if (stacks.length <= 1) {
    const report = await gatherBilling(cwd, args, env);
    return [stacks.length ? { ...report, stack: stacks[0] } : report];
  }
  const others = withoutOptions(args.previewArgs, STACK_OPTIONS);
  const reports = [];
  for (const stack of stacks) {
    const previewArgs = [...others, '--stack', stack];
    reports.push({ ...(await gatherBilling(cwd, { ...args, previewArgs }, env)), stack });
  }
  return reports;
}

/** Runs `pulumi preview --json` in a project and makes the plan's billing report. */
export async function gatherBilling(
  cwd: string,
  args: BillingArgs,
  env: Record<string, string> = {},
): Promise<BillingReport> {
  // --show-sames: the guests the plan leaves alone count in the stack's totals.
  const preview = await pulumiJson<PreviewJson>(
    ['preview', '--json', '--show-sames', '--non-interactive', ...args.previewArgs],
    { cwd, env },
  );
  const report = billingReport(preview, args.hoursPerMonth);
  // The account is asked only when a monthly guest's cancel needs its billing cycle.
  let client: Promise<Client> | undefined;
  const [stack] = options(args.previewArgs, STACK_OPTIONS);
  return withCancellations(report, () => (client ??= stackClient(cwd, stack, env)));
}

/**
 * `pulumi-svc billing [options]`: prints the report (nothing with --only-increase when the plan
 * cannot raise the bill) and answers the exit status: EXIT.findings with --strict when something
 * is unpriced.
 */
export async function printBilling(
  cwd: string,
  args: BillingArgs,
  env: Record<string, string> = {},
): Promise<number> {
  if (args.reconcile) {
    const r = await gatherReconciliation(cwd, options(args.previewArgs, STACK_OPTIONS), env);
    console.log(
      args.format === 'json'
        ? JSON.stringify(r, null, 2)
        : formatReconciliation(r, args.format === 'markdown' ? '- ' : '  '),
    );
    return EXIT.ok;
  }
  const reports = await gatherReports(cwd, args, env);
  if (!args.onlyIncrease || reports.some(mayRaiseCost))
    console.log(formatReport(reports, args.format));
  return args.strict && reports.some((r) => r.unpriced.length > 0) ? EXIT.findings : EXIT.ok;
}

export const BILLING_COMMAND: Command = {
  summary:
    "the plan's billing report: what each billed object the plan orders, resizes or cancels costs",
  usage: '[options] [-- pulumi preview arguments]',
  description: `Runs \`pulumi preview --json\` in your project and prints the plan's billing report: each billed object ordered, taken over, replaced, upgraded in place or cancelled, with old and new hourly and monthly cost and the fields that cause it; the total change, the stack's monthly total before and after, what ending each old object still costs, and what could not be priced and why.

With --reconcile it makes no plan: what each billed object of the stacks is billed now against what its state recorded, the ones that differ with both monthly amounts.`,
  options: { ...OWN_OPTIONS, ...PREVIEW_OPTIONS },
  afterDashes: 'anything, passed to pulumi preview as it is',
  run: (cwd, args, env) => printBilling(cwd, billingArgs(args), env),
};

import { HOURS_PER_MONTH } from '../provider/kinds/faces';
import { option, options, refuseUnknown } from './args';
import type { PreviewJson } from './billing-report';
import { formatBillingMarkdown, formatBillingTable } from './billing-format';
import { billingReport, mayRaiseCost, type BillingReport } from './billing-summary';
import { withCancellations } from './billing-cancel';
import { formatReconciliation, gatherReconciliation } from './billing-reconcile';
import { pulumiJson } from './pulumi';
import { stackClient } from './stack-client';
import type { Client } from '../provider/client';

/** `pulumi-svc billing`'s own options, the rest being `pulumi preview`'s. */
export interface BillingArgs {
  format: 'table' | 'markdown' | 'json';
  hoursPerMonth: number;
  /** Exit 2 when something could not be priced. */
  strict: boolean;
  /** Print nothing when the plan cannot raise the bill. */
  onlyIncrease: boolean;
  /** Compare what the stacks' guests are billed now with their states instead of a plan. */
  reconcile: boolean;
  /** Passed to `pulumi preview` as they are. */
  previewArgs: string[];
}

const FORMATS = ['table', 'markdown', 'json'] as const;

/** The `pulumi preview` options a billing report may be asked for with (and `--` then anything). */
const PREVIEW_OPTIONS = [
  ...['--stack', '-s', '--target', '-t', '--exclude', '--config-file', '--parallel', '-p'],
  ...['--policy-pack', '--policy-pack-config'],
];
const PREVIEW_FLAGS = ['--refresh', '-r', '--target-dependents', '--exclude-dependents'];
const OWN_OPTIONS = ['--format', '--hours-per-month'];
const OWN_FLAGS = ['--json', '--strict', '--only-increase', '--reconcile'];

/** Reads the arguments of `pulumi-svc billing`; a bad one throws naming it and its rule. */
export function parseBillingArgs(argv: string[]): BillingArgs {
  const dashes = argv.indexOf('--');
  const args = dashes < 0 ? argv : argv.slice(0, dashes);
  const passed = dashes < 0 ? [] : argv.slice(dashes + 1);
  refuseUnknown('billing', args, {
    flags: [...OWN_FLAGS, ...PREVIEW_FLAGS],
    options: [...OWN_OPTIONS, ...PREVIEW_OPTIONS],
  });
  const format = option(args, '--format') ?? (args.includes('--json') ? 'json' : 'table');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new Error(`billing: --format must be one of ${FORMATS.join(', ')}, not ${format}`);
  const hoursText = option(args, '--hours-per-month');
  const hoursPerMonth = hoursText === undefined ? HOURS_PER_MONTH : Number(hoursText);
  if (!(hoursPerMonth > 0 && hoursPerMonth <= 744))
    throw new Error(
      `billing: --hours-per-month must be a number of hours above 0 and at most 744 (31 days), not ${hoursText}`,
    );
  const own = new Set([...OWN_OPTIONS, ...OWN_FLAGS]);
  const previewArgs = args.filter(
    (arg, i) => !own.has(arg.split('=')[0]) && !OWN_OPTIONS.includes(args[i - 1]),
  );
  return {
    format: format as BillingArgs['format'],
    hoursPerMonth,
    strict: args.includes('--strict'),
    onlyIncrease: args.includes('--only-increase'),
    reconcile: args.includes('--reconcile'),
    previewArgs: [...previewArgs, ...passed],
  };
}

/** The report as the format asks. */
export function formatReport(report: BillingReport, format: BillingArgs['format']): string {
  if (format === 'json') return JSON.stringify(report, null, 2);
  return format === 'markdown' ? formatBillingMarkdown(report) : formatBillingTable(report);
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
  const [stack] = options(args.previewArgs, ['--stack', '-s']);
  return withCancellations(report, () => (client ??= stackClient(cwd, stack, env)));
}

/**
 * `pulumi-svc billing [options]`: prints the report (nothing with --only-increase when the plan
 * cannot raise the bill) and answers the exit status: 2 with --strict when something is unpriced.
 */
export async function printBilling(
  cwd: string,
  argv: string[],
  env: Record<string, string> = {},
): Promise<number> {
  const args = parseBillingArgs(argv);
  if (args.reconcile) {
    const r = await gatherReconciliation(cwd, options(args.previewArgs, ['--stack', '-s']), env);
    console.log(
      args.format === 'json'
        ? JSON.stringify(r, null, 2)
        : formatReconciliation(r, args.format === 'markdown' ? '- ' : '  '),
    );
    return 0;
  }
  const report = await gatherBilling(cwd, args, env);
  if (!args.onlyIncrease || mayRaiseCost(report)) console.log(formatReport(report, args.format));
  return args.strict && report.unpriced.length > 0 ? 2 : 0;
}

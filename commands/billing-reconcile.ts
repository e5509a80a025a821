import { gatherAudit } from './audit-command';
import { dollars, signed } from './billing-format';

/**
 * `pulumi-svc billing --reconcile`: what each guest of the stacks is billed now (its billing
 * item) against what its state recorded, the guests that differ with their monthly amounts (the
 * audit's cost drift, without the rest of the audit).
 */
export interface Reconciliation {
  version: 1;
  currency: 'USD';
  stacks: string[];
  differences: Difference[];
  /** What the differences add up to a month. */
  monthlyDelta: number;
}

export interface Difference {
  stack: string;
  name: string;
  id: number;
  recordedMonthly: number;
  billedMonthly: number;
  monthlyDelta: number;
}

export async function gatherReconciliation(
  cwd: string,
  stacks: string[],
  env: Record<string, string> = {},
): Promise<Reconciliation> {
  const audit = await gatherAudit(cwd, stacks, env);
  const differences = audit.drift.flatMap((d) =>
    d.cost ? [{ stack: d.stack, name: d.urn.split('::').pop() ?? d.urn, id: d.id, ...d.cost }] : [],
  );
  const sum = differences.reduce((total, d) => total + d.monthlyDelta, 0);
  return {
    version: 1,
    currency: 'USD',
    stacks: audit.stacks,
    differences,
    monthlyDelta: Math.round(sum * 100) / 100,
  };
}

/** The reconciliation as lines (`bullet` '- ' for Markdown). */
export function formatReconciliation(r: Reconciliation, bullet = '  '): string {
  const head = `Billed now against the states of ${r.stacks.join(', ') || '-'}:`;
  if (r.differences.length === 0)
    return `${head}\n${bullet}every guest is billed what its state recorded.`;
  return [
    head,
    ...r.differences.map(
      (d) =>
        `${bullet}${d.stack}  ${d.name}  id ${d.id}: recorded ${dollars(d.recordedMonthly, 2)}/month, billed ${dollars(d.billedMonthly, 2)}/month (${signed(d.monthlyDelta, 2)})`,
    ),
    `Total: ${signed(r.monthlyDelta, 2)}/month. \`pulumi refresh\` records what is billed now.`,
  ].join('\n');
}

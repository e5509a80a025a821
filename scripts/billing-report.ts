import type { EngineEvent, PreviewOptions, Stack } from '@pulumi/pulumi/automation';

/** One billing-affecting change in a preview: a guest bought, replaced or cancelled. */
export interface BillingChange {
  op: 'create' | 'replace' | 'delete';
  name: string;
  mode: 'hourly' | 'monthly' | 'unknown';
  oldHourly?: number;
  newHourly?: number;
  /** The fields whose change forces a new guest (replace only). */
  reasons: string[];
}

const GUEST_TYPE = 'pulumi-nodejs:dynamic/svc:VirtualGuest';
type Props = Record<string, unknown> | undefined;

const cost = (props: Props) =>
  typeof props?.estimatedHourlyCost === 'number' ? props.estimatedHourlyCost : undefined;
const mode = (props: Props) =>
  props?.hourlyBillingFlag === true
    ? 'hourly'
    : props?.hourlyBillingFlag === false
      ? 'monthly'
      : 'unknown';

/** The billing change an engine event announces, if it is one. */
export function billingChange(event: EngineEvent): BillingChange | undefined {
  const step = event.resourcePreEvent?.metadata;
  if (!step || step.type !== GUEST_TYPE) return undefined;
  const name = step.urn.split('::').pop() ?? step.urn;
  const olds = step.old?.outputs as Props;
  const news = step.new?.inputs as Props;
  switch (step.op) {
    case 'create':
      return { op: 'create', name, mode: mode(news), newHourly: cost(news), reasons: [] };
    case 'replace':
      return {
        op: 'replace',
        name,
        mode: mode(news),
        oldHourly: cost(olds),
        newHourly: cost(news),
        reasons: step.keys ?? [],
      };
    case 'delete':
      return { op: 'delete', name, mode: mode(olds), oldHourly: cost(olds), reasons: [] };
    default:
      return undefined;
  }
}

/** Runs `pulumi preview` and collects its billing-affecting changes. */
export async function previewBilling(
  stack: Stack,
  options: PreviewOptions = {},
): Promise<BillingChange[]> {
  const changes: BillingChange[] = [];
  await stack.preview({
    ...options,
    onEvent: (event) => {
      options.onEvent?.(event);
      const change = billingChange(event);
      if (change) changes.push(change);
    },
  });
  return changes;
}

const dollars = (value: number | undefined) => (value === undefined ? '-' : `$${value.toFixed(4)}`);

export function totalDelta(changes: BillingChange[]): number {
  const delta = changes.reduce((sum, c) => sum + (c.newHourly ?? 0) - (c.oldHourly ?? 0), 0);
  return Math.round(delta * 10_000) / 10_000;
}

/** A plain-text table of the changes with the total hourly delta. */
export function formatBillingTable(changes: BillingChange[]): string {
  if (changes.length === 0) return 'No billing-affecting changes.';
  const rows = [
    ['change', 'guest', 'billing', 'old $/hour', 'new $/hour', 'forced by'],
    ...changes.map((c) => [
      c.op,
      c.name,
      c.mode,
      dollars(c.oldHourly),
      dollars(c.newHourly),
      c.reasons.join(', ') || '-',
    ]),
  ];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  const lines = rows.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const delta = totalDelta(changes);
  lines.push(
    '',
    `Total hourly delta: ${delta >= 0 ? '+' : '-'}$${Math.abs(delta).toFixed(4)}/hour`,
  );
  return lines.join('\n');
}

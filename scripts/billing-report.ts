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

type Props = Record<string, unknown> | undefined;

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: { type?: string; outputs?: Props };
  newState?: { type?: string; inputs?: Props };
  replaceReasons?: string[];
  diffReasons?: string[];
}

/** What `pulumi preview --json` prints. */
export interface PreviewJson {
  steps?: PreviewStep[];
}

const GUEST_TYPE = 'pulumi-nodejs:dynamic/svc:VirtualGuest';

const cost = (props: Props) =>
  typeof props?.estimatedHourlyCost === 'number' ? props.estimatedHourlyCost : undefined;
const mode = (props: Props) =>
  props?.hourlyBillingFlag === true
    ? 'hourly'
    : props?.hourlyBillingFlag === false
      ? 'monthly'
      : 'unknown';

/** The billing change a preview step announces, if it is one. */
export function billingChange(step: PreviewStep): BillingChange | undefined {
  if ((step.newState ?? step.oldState)?.type !== GUEST_TYPE) return undefined;
  const name = step.urn.split('::').pop() ?? step.urn;
  const olds = step.oldState?.outputs;
  const news = step.newState?.inputs;
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
        reasons: step.replaceReasons ?? step.diffReasons ?? [],
      };
    case 'delete':
      return { op: 'delete', name, mode: mode(olds), oldHourly: cost(olds), reasons: [] };
    default:
      // create-replacement and delete-replaced are the two halves of a replace, counted once above.
      return undefined;
  }
}

/** The billing-affecting changes of a plan. */
export function billingChanges(preview: PreviewJson): BillingChange[] {
  return (preview.steps ?? []).flatMap((step) => billingChange(step) ?? []);
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

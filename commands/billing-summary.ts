import { containsUnknown } from '../provider/framework/unknown';
import { HOURS_PER_MONTH, type Props } from '../provider/kinds/faces';
import { kindOf } from '../provider/kinds/tokens';
import { BILLING_FACES, billedKind, type BillingFaces } from './billed-kinds';
import {
  billingChange,
  urnName,
  type BillingChange,
  type PreviewJson,
  type PreviewStep,
} from './billing-report';

/**
 * The billing report of a plan (`pulumi-svc billing --format json` prints it as is): every object
 * of a billed kind whose billing changes, the stack's totals before and after, the hours a month is counted as,
 * and what could not be priced. `version` changes whenever a field changes meaning or goes away.
 */
export interface BillingReport {
  version: typeof BILLING_REPORT_VERSION;
  currency: 'USD';
  /** The hours of a month: an hourly object's monthly cost is its hourly fee times this many. */
  hoursPerMonth: number;
  changes: ReportedChange[];
  totals: BillingTotals;
  unpriced: Unpriced[];
  /** The stack's resources after the plan, counted by what the report can say of their cost. */
  resources: ResourceCounts;
  /** The stack previewed, when the command line named it. */
  stack?: string;
}

/** How many resources after the plan are priced, unpriced, free or not this package's. */
export interface ResourceCounts {
  /** Of a billed kind, with their cost known. */
  priced: number;
  /** Of a billed kind, their cost not known (listed in `unpriced`). */
  unpriced: number;
  /** Of this package's kinds that bill nothing (keys, zones, records, tickets). */
  free: number;
  /** Of other packages: this report does not price them. */
  unsupported: number;
}

export const BILLING_REPORT_VERSION = 1;

/**
 * What ending an object really costs: an hourly one's billing stops at the cancel; a monthly
 * one's month is invoiced in advance, so what the rest of its cycle costs up to its billing
 * anniversary (the billing item's next bill date) is owed whatever the plan does.
 */
export interface Cancellation {
  /** The billing anniversary a monthly object is billed to; null: billing stops at the cancel. */
  billedUntil: string | null;
  /** Dollars of the current cycle that fall after the cancel (0 for an hourly object). */
  owedAfterCancel: number;
}

export interface ReportedChange extends BillingChange {
  /** New minus old (a side that is not priced counts as 0; it is listed in `unpriced`). */
  hourlyDelta: number;
  monthlyDelta: number;
  /** A delete or replace: when the old object's billing ends, and what is owed after the cancel. */
  cancel?: Cancellation;
  /** A replace: old and new per hour while both run (until the old one is cancelled). */
  runTogetherHourly?: number;
}

/** What the stack's billed objects (and those the plan takes over) are billed before and after the plan. */
export interface BillingTotals {
  hourlyBefore: number;
  hourlyAfter: number;
  hourlyDelta: number;
  monthlyBefore: number;
  monthlyAfter: number;
  monthlyDelta: number;
}

/** An object of the plan whose cost on one side is not known, and why. */
export interface Unpriced {
  name: string;
  op: string;
  side: 'old' | 'new';
  reason: string;
}

interface Cost {
  hourly?: number;
  monthly?: number;
}

const roundMonthly = (value: number) => Math.round(value * 100) / 100;
const roundHourly = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * A cost counted with `hours` a month. The API's figures are for 730 hours and are kept as they
 * are then (so the report equals the BILLING lines to the cent); otherwise the side that is an
 * assumption is recomputed: an hourly object's monthly cost, a monthly one's hourly one.
 */
export function costAt(cost: Cost, mode: string, hours: number): Cost {
  if (hours === HOURS_PER_MONTH) return cost;
  return mode === 'monthly'
    ? {
        ...cost,
        hourly: cost.monthly === undefined ? undefined : roundHourly(cost.monthly / hours),
      }
    : {
        ...cost,
        monthly: cost.hourly === undefined ? undefined : roundMonthly(cost.hourly * hours),
      };
}

const priced = (cost: Cost) => cost.hourly !== undefined && cost.monthly !== undefined;

/** Why a planned object has no price. */
function whyUnpriced(pricedBy: readonly string[], news: Props | undefined): string {
  const unknown = pricedBy.filter((field) => containsUnknown(news?.[field]));
  return unknown.length > 0
    ? `its price depends on ${unknown.join(', ')}, known only after apply`
    : 'the plan carries no price for it';
}

const NO_OLD_COST =
  'the state records no cost for it (a guest without a billing item, or a state written before costs were recorded; `pulumi refresh` records it)';

/** One billed step of the plan: what it is billed before, its billing change, what is unpriced. */
interface BilledStep {
  before?: { mode: string; cost: Cost };
  change?: BillingChange;
  unpriced: Unpriced[];
}

function billedStep(step: PreviewStep, faces: BillingFaces): BilledStep | undefined {
  const billed = billedKind((step.newState ?? step.oldState)?.type, faces);
  if (!billed) return undefined;
  const costOf = (props: Props | undefined) => billed.face.cost(props);
  const change = billingChange(step, faces);
  const name = urnName(step.urn);
  const olds = step.oldState?.outputs;
  const unpriced: Unpriced[] = [];
  const hasOld = ['same', 'update', 'replace', 'delete'].includes(step.op);
  if (hasOld && !priced(costOf(olds)))
    unpriced.push({ name, op: change?.op ?? step.op, side: 'old', reason: NO_OLD_COST });
  const news = step.newState?.inputs;
  const billsNew = change && change.op !== 'delete';
  if (billsNew && !priced(costOf(news)))
    unpriced.push({
      name,
      op: change.op,
      side: 'new',
      reason: whyUnpriced(billed.face.pricedBy, news),
    });
  // An object the plan takes over is billed already: it counts before the plan too.
  const before = hasOld
    ? { mode: costOf(olds).mode, cost: costOf(olds) }
    : change?.op === 'adopt'
      ? { mode: change.mode, cost: costOf(news) }
      : undefined;
  return { before, change, unpriced };
}

/** A billing change with its costs counted at `hours` a month and its deltas. */
function reported(change: BillingChange, hours: number): ReportedChange {
  const oldMode = change.oldMode ?? change.mode;
  const old = costAt({ hourly: change.oldHourly, monthly: change.oldMonthly }, oldMode, hours);
  const now = costAt({ hourly: change.newHourly, monthly: change.newMonthly }, change.mode, hours);
  return {
    ...change,
    oldHourly: old.hourly,
    newHourly: now.hourly,
    oldMonthly: old.monthly,
    newMonthly: now.monthly,
    hourlyDelta: roundHourly((now.hourly ?? 0) - (old.hourly ?? 0)),
    monthlyDelta: roundMonthly((now.monthly ?? 0) - (old.monthly ?? 0)),
  };
}

/** The report of a plan (`pulumi preview --json`), with a month of `hoursPerMonth` hours. */
export function billingReport(
  preview: PreviewJson,
  hoursPerMonth: number = HOURS_PER_MONTH,
  faces: BillingFaces = BILLING_FACES,
): BillingReport {
  const steps = (preview.steps ?? []).flatMap((step) => billedStep(step, faces) ?? []);
  const unpriced = steps.flatMap((g) => g.unpriced);
  const changes = steps.flatMap((g) => (g.change ? [reported(g.change, hoursPerMonth)] : []));
  const before = steps.flatMap((g) =>
    g.before ? [costAt(g.before.cost, g.before.mode, hoursPerMonth)] : [],
  );
  const sum = (values: (number | undefined)[]) => values.reduce<number>((s, v) => s + (v ?? 0), 0);
  const hourlyBefore = roundHourly(sum(before.map((c) => c.hourly)));
  const monthlyBefore = roundMonthly(sum(before.map((c) => c.monthly)));
  const hourlyDelta = roundHourly(sum(changes.map((c) => c.hourlyDelta)));
  const monthlyDelta = roundMonthly(sum(changes.map((c) => c.monthlyDelta)));
  return {
    version: BILLING_REPORT_VERSION,
    currency: 'USD',
    hoursPerMonth,
    changes,
    totals: {
      hourlyBefore,
      hourlyAfter: roundHourly(hourlyBefore + hourlyDelta),
      hourlyDelta,
      monthlyBefore,
      monthlyAfter: roundMonthly(monthlyBefore + monthlyDelta),
      monthlyDelta,
    },
    unpriced,
    resources: resourceCounts(preview.steps ?? [], unpriced, faces),
  };
}

/** Steps whose resource is gone after the plan. */
const ENDING = ['delete', 'delete-replaced', 'discard', 'remove-pending-replace'];

/** The resources after the plan, counted; the engine's own (the stack, providers) left out. */
function resourceCounts(steps: PreviewStep[], unpriced: Unpriced[], faces: BillingFaces) {
  const after = new Map<string, string>();
  for (const step of steps) {
    const type = step.newState?.type ?? step.oldState?.type ?? '';
    if (!ENDING.includes(step.op) && !type.startsWith('pulumi:')) after.set(step.urn, type);
  }
  const counts: ResourceCounts = { priced: 0, unpriced: 0, free: 0, unsupported: 0 };
  const unknown = new Set(unpriced.map((u) => u.name));
  for (const [urn, type] of after) {
    if (billedKind(type, faces)) counts[unknown.has(urnName(urn)) ? 'unpriced' : 'priced']++;
    else counts[kindOf(type) === undefined ? 'unsupported' : 'free']++;
  }
  return counts;
}

/** Whether the plan may raise the bill: it does, or something in it could not be priced. */
export const mayRaiseCost = (report: BillingReport): boolean =>
  report.totals.monthlyDelta > 0 || report.totals.hourlyDelta > 0 || report.unpriced.length > 0;

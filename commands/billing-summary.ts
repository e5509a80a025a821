import { containsUnknown } from '../provider/framework/unknown';
import { kindOf } from '../provider/kinds/tokens';
import { PRICED_FIELDS } from '../provider/kinds/virtual-guest/inputs';
import { HOURS_PER_MONTH } from '../provider/kinds/virtual-guest/pricing';
import { billingMode } from '../provider/managers';
import type { Cancellation } from './billing-cancel';
import {
  billingChange,
  type BillingChange,
  type PreviewJson,
  type PreviewStep,
} from './billing-report';

/**
 * The billing report of a plan (`pulumi-svc billing --format json` prints it as is): every guest
 * whose billing changes, the stack's totals before and after, the hours a month is counted as,
 * and what could not be priced. `version` changes whenever a field changes meaning or goes away.
 */
export interface BillingReport {
  version: typeof BILLING_REPORT_VERSION;
  currency: 'USD';
  /** The hours of a month: an hourly guest's monthly cost is its hourly fee times this many. */
  hoursPerMonth: number;
  changes: ReportedChange[];
  totals: BillingTotals;
  unpriced: Unpriced[];
}

export const BILLING_REPORT_VERSION = 1;

export interface ReportedChange extends BillingChange {
  /** New minus old (a side that is not priced counts as 0; it is listed in `unpriced`). */
  hourlyDelta: number;
  monthlyDelta: number;
  /** A delete or replace: when the old guest's billing ends, and what is owed after the cancel. */
  cancel?: Cancellation;
  /** A replace: old and new per hour while both run (until the old one is cancelled). */
  runTogetherHourly?: number;
}

/** What the stack's guests (and those the plan takes over) are billed before and after the plan. */
export interface BillingTotals {
  hourlyBefore: number;
  hourlyAfter: number;
  hourlyDelta: number;
  monthlyBefore: number;
  monthlyAfter: number;
  monthlyDelta: number;
}

/** A guest of the plan whose cost on one side is not known, and why. */
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
 * assumption is recomputed: an hourly guest's monthly cost, a monthly guest's hourly one.
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

type Props = Record<string, unknown> | undefined;
const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
const costOf = (props: Props): Cost => ({
  hourly: number(props?.estimatedHourlyCost),
  monthly: number(props?.estimatedMonthlyCost),
});
const priced = (cost: Cost) => cost.hourly !== undefined && cost.monthly !== undefined;

/** Why a planned guest has no price. */
function whyUnpriced(news: Props): string {
  const unknown = PRICED_FIELDS.filter((field) => containsUnknown(news?.[field]));
  return unknown.length > 0
    ? `its price depends on ${unknown.join(', ')}, known only after apply`
    : 'the plan carries no price for it';
}

const NO_OLD_COST =
  'the state records no cost for it (a guest without a billing item, or a state written before costs were recorded; `pulumi refresh` records it)';

/** One guest step of the plan: what it is billed before, its billing change, what is unpriced. */
interface GuestStep {
  before?: { mode: string; cost: Cost };
  change?: BillingChange;
  unpriced: Unpriced[];
}

function guestStep(step: PreviewStep): GuestStep | undefined {
  if (kindOf((step.newState ?? step.oldState)?.type ?? '') !== 'VirtualGuest') return undefined;
  const change = billingChange(step);
  const name = step.urn.split('::').pop() ?? step.urn;
  const olds = step.oldState?.outputs;
  const unpriced: Unpriced[] = [];
  const hasOld = ['same', 'update', 'replace', 'delete'].includes(step.op);
  if (hasOld && !priced(costOf(olds)))
    unpriced.push({ name, op: change?.op ?? step.op, side: 'old', reason: NO_OLD_COST });
  const news = step.newState?.inputs;
  const billsNew = change && change.op !== 'delete';
  if (billsNew && !priced(costOf(news)))
    unpriced.push({ name, op: change.op, side: 'new', reason: whyUnpriced(news) });
  // A guest the plan takes over is billed already: it counts before the plan too.
  const before = hasOld
    ? { mode: billingMode(olds?.hourlyBillingFlag), cost: costOf(olds) }
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
): BillingReport {
  const guests = (preview.steps ?? []).flatMap((step) => guestStep(step) ?? []);
  const changes = guests.flatMap((g) => (g.change ? [reported(g.change, hoursPerMonth)] : []));
  const before = guests.flatMap((g) =>
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
    unpriced: guests.flatMap((g) => g.unpriced),
  };
}

/** Whether the plan may raise the bill: it does, or something in it could not be priced. */
export const mayRaiseCost = (report: BillingReport): boolean =>
  report.totals.monthlyDelta > 0 || report.totals.hourlyDelta > 0 || report.unpriced.length > 0;

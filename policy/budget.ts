import { dollars, signed } from '../commands/billing-format';
import type { PreviewStep } from '../commands/billing-report';
import { billingReport, type ReportedChange, type Unpriced } from '../commands/billing-summary';
import type { StateResource } from '../commands/pulumi';
import { BILLING_FACES, billedKind, type BillingFaces } from '../commands/billed-kinds';

/**
 * The `svc-budget` policy: limits on what a plan makes the stack cost, checked resource by
 * resource as the engine analyzes each (before it creates or changes anything), for every billed
 * kind of the registry (its billing face), with the prices of the BILLING lines (the checked
 * inputs) against what the state records.
 */

export const POLICY_NAME = 'svc-budget';

/** The limits a budget may set (every one optional), with what each bounds. */
export const LIMITS = {
  maxMonthlyTotal: "the stack's monthly total after the change, in dollars",
  maxMonthlyIncrease: "the plan's increase of the monthly total, in dollars",
  maxHourlyIncrease: "the plan's increase of the hourly total, in dollars",
  maxIncreasePercent: "the plan's increase of the monthly total, in percent of the total before",
} as const;

export type Limit = keyof typeof LIMITS;
export type Level = 'advisory' | 'mandatory' | 'disabled';
export type Budget = { level: Level } & Partial<Record<Limit, number>>;

/** The budget from the policy's config; anything else in it is refused naming the key and rule. */
export function parseBudget(level: Level, properties: Record<string, unknown>): Budget {
  const budget: Budget = { level };
  for (const [key, value] of Object.entries(properties)) {
    if (!(key in LIMITS)) {
      throw new Error(
        `${POLICY_NAME}: unknown setting ${key}; the settings are enforcementLevel, ${Object.keys(LIMITS).join(', ')}`,
      );
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(
        `${POLICY_NAME}: ${key} must be a number, 0 or more (${LIMITS[key as Limit]})`,
      );
    }
    budget[key as Limit] = value;
  }
  return budget;
}

/** A billed resource's finding: limits it crosses, or that it could not be priced. */
export interface Finding {
  urn: string;
  /** `mandatory` findings stop the plan when the budget is mandatory; a note never does. */
  blocking: boolean;
  message: string;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * The running totals of one plan: what the stack's billed resources cost before it (its state),
 * and the changes of those analyzed so far. A plan's deletions run after its creates and
 * updates, so while one is being ordered the stack is billed for everything before it:
 * a deletion does not make room for a create in the same plan.
 */
export class BudgetLedger {
  private readonly olds = new Map<string, StateResource>();
  readonly monthlyBefore: number;
  private monthlyDelta = 0;
  private hourlyDelta = 0;

  constructor(
    private readonly budget: Budget,
    state: StateResource[],
    private readonly faces: BillingFaces = BILLING_FACES,
  ) {
    for (const r of state) if (billedKind(r.type, faces)) this.olds.set(r.urn, r);
    const before = billingReport(
      { steps: [...this.olds.values()].map((r) => step('same', r)) },
      undefined,
      faces,
    );
    this.monthlyBefore = before.totals.monthlyBefore;
  }

  /** Findings for one resource the engine analyzes, given its checked inputs. */
  analyze(type: string, urn: string, inputs: Record<string, unknown>): Finding[] {
    const billed = billedKind(type, this.faces);
    if (!billed || this.budget.level === 'disabled') return [];
    const old = this.olds.get(urn);
    const op = !old
      ? 'create'
      : billed.face.replacedBy(old.outputs ?? {}, inputs).length
        ? 'replace'
        : 'update';
    const planned = step(op, old ?? { urn, type }, inputs);
    const report = billingReport({ steps: [planned] }, undefined, this.faces);
    const change = report.changes[0];
    const notes = [
      ...report.unpriced.map((u) => unpricedNote(urn, billed.kind, u)),
      ...(change ? listPriceNote(urn, change) : []),
    ];
    if (!change) return notes;
    if (change.monthlyDelta <= 0) {
      // A cheaper guest makes room for those after it; only a rise can cross a limit.
      this.count(change);
      return notes;
    }
    const crossed = this.crossed(change);
    const blocking = this.budget.level === 'mandatory' && crossed.length > 0;
    // A change the engine will not make (blocked) does not count toward the next ones.
    if (!blocking) this.count(change);
    if (crossed.length === 0) return notes;
    const what = `${change.kind} "${change.name}" (${change.op}, ${signed(change.monthlyDelta, 2)}/month, ${signed(change.hourlyDelta, 4)}/hour${overlap(change)})`;
    return [...notes, { urn, blocking, message: `${what}: ${crossed.join('; ')}` }];
  }

  private count(change: ReportedChange): void {
    this.monthlyDelta = round(this.monthlyDelta + change.monthlyDelta, 2);
    this.hourlyDelta = round(this.hourlyDelta + change.hourlyDelta, 4);
  }

  /** What the limits say of the plan with this change added. */
  private crossed(change: ReportedChange): string[] {
    const b = this.budget;
    const monthly = round(this.monthlyDelta + change.monthlyDelta, 2);
    const hourly = round(this.hourlyDelta + change.hourlyDelta, 4);
    const total = round(this.monthlyBefore + monthly, 2);
    const percent = this.monthlyBefore > 0 ? (monthly / this.monthlyBefore) * 100 : undefined;
    const over: string[] = [];
    if (b.maxMonthlyTotal !== undefined && total > b.maxMonthlyTotal)
      over.push(
        `the stack's monthly total becomes ${dollars(total, 2)} (${dollars(this.monthlyBefore, 2)} before the plan), over maxMonthlyTotal ${dollars(b.maxMonthlyTotal, 2)}`,
      );
    if (b.maxMonthlyIncrease !== undefined && monthly > b.maxMonthlyIncrease)
      over.push(
        `the plan raises the monthly total by ${dollars(monthly, 2)}, over maxMonthlyIncrease ${dollars(b.maxMonthlyIncrease, 2)}`,
      );
    if (b.maxHourlyIncrease !== undefined && hourly > b.maxHourlyIncrease)
      over.push(
        `the plan raises the hourly total by ${dollars(hourly, 4)}, over maxHourlyIncrease ${dollars(b.maxHourlyIncrease, 4)}`,
      );
    if (
      b.maxIncreasePercent !== undefined &&
      percent !== undefined &&
      percent > b.maxIncreasePercent
    )
      over.push(
        `the plan raises the monthly total by ${percent.toFixed(1)}% (from ${dollars(this.monthlyBefore, 2)}), over maxIncreasePercent ${b.maxIncreasePercent}%`,
      );
    return over;
  }
}

/** A preview step of the billing report, from the state's resource and the checked inputs. */
function step(
  op: string,
  old: Pick<StateResource, 'urn' | 'type' | 'outputs'>,
  inputs?: Record<string, unknown>,
): PreviewStep {
  return {
    op,
    urn: old.urn,
    oldState: op === 'create' ? undefined : { type: old.type, outputs: old.outputs },
    newState: { type: old.type, inputs: inputs ?? old.outputs },
  };
}

/** A replace runs old and new together until the old one is cancelled: what that costs an hour. */
const overlap = (c: ReportedChange) =>
  c.op === 'replace' && c.oldHourly !== undefined && c.newHourly !== undefined
    ? `; old and new together ${dollars(round(c.oldHourly + c.newHourly, 4))}/hour until the old one is cancelled`
    : '';

/** The budget is checked at list prices for this resource: the API did not quote the account's. */
const listPriceNote = (urn: string, c: ReportedChange): Finding[] =>
  c.newSource?.startsWith('list: ')
    ? [
        {
          urn,
          blocking: false,
          message: `${c.kind} "${c.name}" (${c.op}) is counted at list price, not the account's: ${c.newSource.slice('list: '.length)}`,
        },
      ]
    : [];

const unpricedNote = (urn: string, kind: string, u: Unpriced): Finding => ({
  urn,
  blocking: false,
  message: `${kind} "${u.name}" (${u.op}) is not counted in the budget: its ${u.side} cost is not known (${u.reason})`,
});

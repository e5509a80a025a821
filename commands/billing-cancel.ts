import type { Client } from '../provider/client';
import { owedOnCancel } from '../provider/kinds/virtual-guest/anniversary';
import type { BillingReport, ReportedChange } from './billing-summary';

/**
 * What ending a guest really costs: an hourly guest's billing stops at the cancel; a monthly
 * guest's month is invoiced in advance, so what the rest of its cycle costs up to its billing
 * anniversary (the billing item's next bill date) is owed whatever the plan does. A replace also
 * runs old and new together until the old one is cancelled.
 */
export interface Cancellation {
  /** The billing anniversary a monthly guest is billed to; null: billing stops at the cancel. */
  billedUntil: string | null;
  /** Dollars of the current cycle that fall after the cancel (0 for an hourly guest). */
  owedAfterCancel: number;
}

/** The billing that the change ends: the old guest's (a delete, a replace). */
const endedMode = (c: ReportedChange) => c.oldMode ?? c.mode;
export const endsBilling = (c: ReportedChange) => c.op === 'delete' || c.op === 'replace';

/**
 * The report with each delete and replace saying when the old guest's billing ends and what is
 * owed after the cancel (monthly guests' cycles read from the API through `client`), and each
 * replace what old and new cost per hour while they run together. Without a cycle (a guest gone
 * already, an API without dates) the change says nothing of it and is listed as unpriced.
 */
export async function withCancellations(
  report: BillingReport,
  client: () => Promise<Client>,
  now = Date.now(),
): Promise<BillingReport> {
  const unpriced = [...report.unpriced];
  const changes = [];
  for (const c of report.changes) {
    if (!endsBilling(c)) {
      changes.push(c);
      continue;
    }
    const overlap =
      c.op === 'replace'
        ? { runTogetherHourly: round4((c.oldHourly ?? 0) + (c.newHourly ?? 0)) }
        : {};
    if (endedMode(c) === 'hourly') {
      changes.push({ ...c, ...overlap, cancel: { billedUntil: null, owedAfterCancel: 0 } });
      continue;
    }
    const ending = c.id ? await owedOnCancel(await client(), Number(c.id), now) : undefined;
    if (!ending) {
      unpriced.push({ name: c.name, op: c.op, side: 'old', reason: NO_CYCLE });
      changes.push({ ...c, ...overlap });
    } else {
      const cancel = { billedUntil: ending.billedUntil, owedAfterCancel: ending.owed };
      changes.push({ ...c, ...overlap, cancel });
    }
  }
  return { ...report, changes, unpriced };
}

const NO_CYCLE =
  'the API shows no billing cycle for this monthly guest, so what its cancel still owes is not known';
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

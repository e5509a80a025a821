import type { Client } from '../provider/client';
import { unlessNotFound } from '../provider/managers/not-found';
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

/** The dates of a monthly guest's billing item, as `Virtual_Guest.getObject` shows them. */
export interface BillingCycle {
  recurringFee?: string;
  cycleStartDate?: string;
  nextBillDate?: string;
}

export const CYCLE_MASK = 'billingItem[recurringFee,cycleStartDate,nextBillDate]';

/** The part of a cycle's fee from `now` to the next bill date, to the cent. */
export function owedUntilAnniversary(cycle: BillingCycle, now: number): number | undefined {
  const start = Date.parse(cycle.cycleStartDate ?? '');
  const end = Date.parse(cycle.nextBillDate ?? '');
  const fee = Number(cycle.recurringFee);
  if (!(end > start) || !Number.isFinite(fee)) return undefined;
  const left = Math.min(Math.max(end - now, 0), end - start);
  return Math.round(((fee * left) / (end - start)) * 100) / 100;
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
    const cycle = c.id ? await billingCycle(await client(), c.id) : undefined;
    const owed = cycle && owedUntilAnniversary(cycle, now);
    if (owed === undefined || !cycle?.nextBillDate) {
      unpriced.push({ name: c.name, op: c.op, side: 'old', reason: NO_CYCLE });
      changes.push({ ...c, ...overlap });
    } else {
      const cancel = { billedUntil: cycle.nextBillDate, owedAfterCancel: owed };
      changes.push({ ...c, ...overlap, cancel });
    }
  }
  return { ...report, changes, unpriced };
}

const NO_CYCLE =
  'the API shows no billing cycle for this monthly guest, so what its cancel still owes is not known';
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

async function billingCycle(client: Client, id: string): Promise<BillingCycle | undefined> {
  const guest = (await unlessNotFound(
    client.call('Virtual_Guest', 'getObject', { id: Number(id), mask: CYCLE_MASK }),
  )) as { billingItem?: BillingCycle | null } | undefined;
  return guest?.billingItem ?? undefined;
}

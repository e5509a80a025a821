import type { Client } from '../provider/client';
import { BILLING_FACES, faceOf, type BillingFaces } from './billed-kinds';
import type { BillingReport, ReportedChange } from './billing-summary';

/** The billing that the change ends: the old object's (a delete, a replace). */
const endedMode = (c: ReportedChange) => c.oldMode ?? c.mode;
export const endsBilling = (c: ReportedChange) => c.op === 'delete' || c.op === 'replace';

/**
 * The report with each delete and replace saying when the old object's billing ends and what is
 * owed after the cancel (monthly objects' cycles read from the API through `client`, by their
 * kind's billing face), and each replace what old and new cost per hour while they run together.
 * Without a cycle (an object gone already, an API without dates) the change says nothing of it
 * and is listed as unpriced.
 */
export async function withCancellations(
  report: BillingReport,
  client: () => Promise<Client>,
  now = Date.now(),
  faces: BillingFaces = BILLING_FACES,
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
    const face = faceOf(c.kind, faces);
    const ending =
      c.id && face ? await face.owedOnCancel(await client(), Number(c.id), now) : undefined;
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
  'the API shows no billing cycle for this monthly object, so what its cancel still owes is not known';
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

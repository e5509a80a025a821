/**
 * A provisioning transaction that runs from `createDate` to `readyAt` (a guest's provisioning,
 * upgrade or reload, a volume's, an image capture), as the API shows it at `now`: computed from
 * the record and the clock, never stored.
 */
import { formatApiDate } from '../dates';

export interface Timed {
  transactionId: number;
  createDate: number;
  readyAt: number;
}

export function timedTransaction(
  t: Timed,
  now: number,
  status: { name: string; friendlyName: string },
  group: { name: string; averageTimeToComplete: string },
): Record<string, unknown> {
  const end = Math.min(now, t.readyAt);
  return {
    id: t.transactionId,
    createDate: formatApiDate(t.createDate),
    modifyDate: formatApiDate(end),
    statusChangeDate: formatApiDate(t.createDate),
    elapsedSeconds: Math.max(0, Math.floor((end - t.createDate) / 1000)),
    transactionStatus: { ...status },
    transactionGroup: { ...group },
  };
}

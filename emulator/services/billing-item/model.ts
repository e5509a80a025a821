/** What the account is billed for: one item per guest (created with it), fees as the API writes them. */
import { recurringFees } from '../../catalog';
import { table, type RecordsOf, type WriteOp } from '../../store';

export interface BillingItemRec {
  id: number;
  accountId: number;
  categoryCode: string;
  description: string;
  hourlyFlag: boolean;
  hourlyRecurringFee: string;
  recurringFee: string;
  createDate: number;
  cancellationDate?: number;
  resourceTableId?: number;
  /** What the order said of it (a VLAN order's `containerIdentifier`). */
  notes?: string;
}

export const tables = { billingItems: table<BillingItemRec>(600001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

/** First instant of the next month (API zone is close enough to UTC for a billing date). */
export const endOfBillingMonth = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/** The write of a new billing item for object `resourceTableId`, billed `hourly` an hour. */
export function newBillingItem(
  ctx: { account: { id: number }; now: number },
  item: Pick<
    BillingItemRec,
    'id' | 'categoryCode' | 'description' | 'hourlyFlag' | 'resourceTableId'
  > &
    Pick<Partial<BillingItemRec>, 'notes'>,
  hourly: number,
): WriteOp {
  const record = {
    ...item,
    accountId: ctx.account.id,
    ...recurringFees(hourly),
    createDate: ctx.now,
  };
  return { put: 'billingItems', record };
}

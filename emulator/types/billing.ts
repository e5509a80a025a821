/** Svc_Billing_Item: what a guest costs; cancelling it (cancelService) removes the guest. */
import { formatApiDate } from '../dates';
import type { BillingItemRec } from '../records';
import { defineType } from '../schema';

defineType<BillingItemRec>('Svc_Billing_Item', {
  locals: {
    id: (b) => b.id,
    categoryCode: (b) => b.categoryCode,
    description: (b) => b.description,
    hourlyFlag: (b) => b.hourlyFlag,
    hourlyRecurringFee: (b) => b.hourlyRecurringFee,
    recurringFee: (b) => b.recurringFee,
    recurringMonths: () => 1,
    allowCancellationFlag: (b) => (b.cancellationDate === undefined ? 1 : 0),
    createDate: (b) => formatApiDate(b.createDate),
    cancellationDate: (b) =>
      b.cancellationDate === undefined ? undefined : formatApiDate(b.cancellationDate),
    resourceTableId: (b) => b.resourceTableId,
  },
});

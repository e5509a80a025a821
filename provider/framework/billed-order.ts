import { types, type Fields } from './fields';
import { TAKEOVER_FIELDS, TOKEN_FIELDS, rules } from './field-rules';
import { freeWriteWindowMs } from './connection';
import { writeIdempotent } from './exactly-once';
import { owedUntilAnniversary, type BillingCycle } from './billing-cycle';

/**
 * What every kind ordered once through Product_Order shares (a volume, a dedicated host): the
 * fields that seed and keep its creation token and record its price, how a verified order is
 * priced and shown, and its cancel through its billing item (at once when hourly or asked, else
 * at the anniversary, saying which and what is still owed).
 */

export const BILLED_ORDER_FIELDS = {
  ...TOKEN_FIELDS,
  ...TAKEOVER_FIELDS,
  /**
   * On delete, cancel a monthly order at once instead of at its billing anniversary (an hourly
   * one is always cancelled at once).
   */
  cancelImmediately: {
    type: types.boolean,
    input: 'optional',
    default: false,
    rule: rules.flag(),
    change: 'local',
  },
  /** What it costs an hour (check prices the order). */
  estimatedHourlyCost: { type: types.number, output: true, fromCheck: true },
  /** What it costs a month. */
  estimatedMonthlyCost: { type: types.number, output: true, fromCheck: true },
} satisfies Fields;

/** The datacenter an order places the object in (a short name such as `dal10`): a change replaces it. */
export const datacenterField = <R>(read: R) => ({
  type: types.string,
  input: 'required' as const,
  output: true as const,
  rule: rules.text({
    required: true,
    maxLength: 20,
    pattern: /^[a-z]{3}[0-9]{2}$/,
    patternRule: 'a datacenter short name such as dal10',
  }),
  change: 'replace' as const,
  read,
});

/** Free text kept with the object, edited in place by its `editObject`; read back by `read`. */
export const notesField = <R>(read: R, maxLength = 1000) => ({
  type: types.string,
  input: 'optional' as const,
  output: true as const,
  normalise: (value: unknown) => (value === '' ? undefined : value),
  rule: rules.text({ maxLength }),
  change: 'update' as const,
  how: '`editObject`',
  read,
});

/** The recorded price of a verified (or placed) order. */
export function pricedOrder(answer: Record<string, unknown>) {
  return {
    estimatedHourlyCost: Number(answer.postTaxRecurringHourly ?? 0),
    estimatedMonthlyCost: Number(answer.postTaxRecurringMonthly ?? 0),
  };
}

const money = (n: unknown, digits: number) =>
  typeof n === 'number' ? `$${n.toFixed(digits)}` : '$(unpriced)';

/** `$0.1234/hour ($90.08/month)` from the estimates that properties (or checked inputs) record. */
export function costText(props: object): string {
  const v = props as Record<string, unknown>;
  return `${money(v.estimatedHourlyCost, 4)}/hour (${money(v.estimatedMonthlyCost, 2)}/month)`;
}

export interface BilledCancel {
  /** How messages name the object. */
  what: string;
  billingItem: BillingCycle & { id: number; hourlyFlag?: boolean };
  cancelImmediately: boolean;
  /** Cancels the item (at once when `immediate`); a repeat is harmless. */
  cancel(immediate: boolean): Promise<void>;
  /** Whether the cancel shows: the object gone, or its item cancelled. */
  cancelled(): Promise<boolean>;
  now?: number;
}

/**
 * Cancels through the billing item, at once when hourly or asked, else at the anniversary, and
 * says which and what the monthly cycle still owes.
 */
export async function cancelBilled(c: BilledCancel): Promise<string> {
  const immediate = c.billingItem.hourlyFlag === true || c.cancelImmediately;
  await writeIdempotent({
    what: `${c.what} cancel`,
    write: () => c.cancel(immediate),
    done: () => c.cancelled(),
    windowMs: freeWriteWindowMs(),
  });
  if (c.billingItem.hourlyFlag) return `${c.what} cancelled at once: its hourly billing stops now`;
  const owed = owedUntilAnniversary(c.billingItem, c.now ?? Date.now());
  const until = c.billingItem.nextBillDate ?? 'its anniversary';
  const owes =
    owed === undefined
      ? ''
      : `; the month already invoiced ($${owed.toFixed(2)} of it from now to ${until}) is owed`;
  return immediate
    ? `${c.what} cancelled at once (cancelImmediately)${owes}`
    : `${c.what} cancelled at its billing anniversary: billed ($${Number(c.billingItem.recurringFee ?? 0).toFixed(2)}/month) until ${until}, then gone${owes}`;
}

/**
 * Svc_Product_Order: `verifyOrder` and `placeOrder` hand each order container to the folder that
 * owns its complexType (an `OrderOwner`, see ../service.ts; Virtual_Guest owns new guests and
 * upgrades), as moto dispatches a request to the service that owns its shape: this folder knows
 * no container. A `Svc_Container_Product_Order` wrapping `orderContainers` (what the reference
 * client's ordering manager sends) is checked whole and placed as one order, in one journal
 * transaction.
 */
import { formatApiDate } from '../../dates';
import { invalidParams, invalidValue, publicFault } from '../../errors';
import { isStruct, readFlag } from '../../validators';
import { expectArgs, ok, type AuthedContext } from '../context';
import { serviceFolder, type CheckedOrder } from '../service';

const WRAPPER = 'Svc_Container_Product_Order';

interface Checked {
  /** Whether the order came wrapped in `orderContainers`. */
  wrapped: boolean;
  parts: CheckedOrder[];
}

function checkOrder(ctx: AuthedContext): Checked {
  const order = ctx.args[0];
  if (!isStruct(order))
    throw invalidParams(`Product_Order::${ctx.method}(orderData): expected a struct.`);
  const wrapped =
    order.complexType === WRAPPER ||
    (order.complexType === undefined && order.orderContainers !== undefined);
  const containers = wrapped ? wrappedContainers(order.orderContainers) : [order];
  return { wrapped, parts: containers.map((c) => ownerCheck(ctx, c)) };
}

function wrappedContainers(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isStruct)) {
    throw invalidValue(
      `A ${WRAPPER} lists its orders in 'orderContainers': a non-empty array of order containers.`,
    );
  }
  return value;
}

function ownerCheck(ctx: AuthedContext, container: Record<string, unknown>): CheckedOrder {
  const type = container.complexType;
  const owner = typeof type === 'string' ? ctx.orderOwners.get(type) : undefined;
  if (!owner) {
    const known = [...ctx.orderOwners.keys()].join(', ');
    throw publicFault(
      typeof type === 'string'
        ? `Orders of ${type} are not modeled by this emulator; it takes ${known}.`
        : `The order container needs a complexType: one of ${known}.`,
    );
  }
  return owner.check(ctx, container);
}

/** The answer for the parts: the one container, or the wrapper with all of them. */
function combined(checked: Checked, parts: Record<string, unknown>[]): Record<string, unknown> {
  if (!checked.wrapped) return parts[0];
  const total = (key: string) => parts.reduce((sum, p) => sum + Number(p[key] ?? 0), 0);
  return {
    complexType: WRAPPER,
    orderContainers: parts,
    postTaxRecurringHourly: String(total('postTaxRecurringHourly')),
    postTaxRecurringMonthly: String(total('postTaxRecurringMonthly')),
    postTaxRecurring: String(total('postTaxRecurring')),
  };
}

async function place(ctx: AuthedContext, checked: Checked): Promise<Record<string, unknown>> {
  const orderId = ctx.store.nextSubId();
  const placed = checked.parts.map((part) => part.place(ctx, orderId));
  await ctx.store.write(placed.flatMap((p) => p.ops));
  const details = placed.map((p) => p.details);
  return {
    orderId,
    orderDate: formatApiDate(ctx.now),
    placedOrder: {
      id: orderId,
      accountId: ctx.account.id,
      userRecordId: ctx.user.id,
      status: 'APPROVED',
      items: details.flatMap((d) => (Array.isArray(d.prices) ? d.prices : [])),
    },
    orderDetails: combined(checked, details),
  };
}

export const productOrder = serviceFolder({
  tables: {},
  services: {
    Product_Order: {
      methods: {
        verifyOrder: {
          handler: (ctx) => {
            expectArgs(ctx, ['orderData']);
            const checked = checkOrder(ctx);
            return ok(
              combined(
                checked,
                checked.parts.map((p) => p.verified),
              ),
            );
          },
        },
        placeOrder: {
          handler: async (ctx) => {
            expectArgs(ctx, ['orderData', 'saveAsQuote'], 1);
            const quote = ctx.args[1] === undefined ? false : readFlag(ctx.args[1], 'saveAsQuote');
            const checked = checkOrder(ctx);
            if (quote)
              throw publicFault(
                'Quotes are not modeled by this emulator; set saveAsQuote to false.',
              );
            return ok(await place(ctx, checked));
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    productOrder: typeof productOrder;
  }
}

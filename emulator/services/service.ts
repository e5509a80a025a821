/**
 * What a service folder declares: one value with the tables its model keeps and the API
 * services (`Virtual_Guest`, ...) it answers, each with its methods. services/registry.ts lists
 * every folder's value; a folder adds itself to `ServiceFolders` so that a folder missing from
 * the registry fails to compile.
 */
import type { TableSpec, WriteOp } from '../store';
import type { AuthedContext, CallResult } from './context';

export type Access = 'user' | 'optional' | 'none';

export interface MethodDef {
  /** `user` (default): a valid caller is required; `optional`: checked when given; `none`: ignored. */
  access?: Access;
  handler(ctx: AuthedContext): CallResult | Promise<CallResult>;
}

/**
 * One API service. `getObject` and a getter per relational/on-demand property
 * (`getTagReferences`, `getUpdates`, ...) come for free from the schema when it has `load`.
 */
export interface ApiService {
  /** Loads the object the call addresses (by init-parameter id, or implicitly); faults when absent. */
  load?: (ctx: AuthedContext) => unknown;
  methods: Record<string, MethodDef>;
}

/**
 * An order container type a folder owns (`Svc_Container_Product_Order_Virtual_Guest`, ...):
 * `Product_Order.verifyOrder` and `placeOrder` hand the container to it, as moto's services own
 * their request shapes. The owner checks it the way the API does and says what placing it writes.
 */
export interface OrderOwner {
  check(ctx: AuthedContext, container: Record<string, unknown>): CheckedOrder;
}

export interface CheckedOrder {
  /** The container as verifyOrder answers it: priced, defaults filled in. */
  verified: Record<string, unknown>;
  /** The writes that place it under `orderId`, and the container as the receipt shows it. */
  place(ctx: AuthedContext, orderId: number): { ops: WriteOp[]; details: Record<string, unknown> };
}

/**
 * The owner of a container whose receipt shows it as verified: `check` answers what placing it
 * needs (its verified form among it), `place` the writes.
 */
export function placedAsVerified<C extends { verified: Record<string, unknown> }>(
  check: (ctx: AuthedContext, container: Record<string, unknown>) => C,
  place: (ctx: AuthedContext, checked: C, orderId: number) => WriteOp[],
): OrderOwner {
  return {
    check: (ctx, container) => {
      const checked = check(ctx, container);
      return {
        verified: checked.verified,
        place: (placing, orderId) => ({
          ops: place(placing, checked, orderId),
          details: checked.verified,
        }),
      };
    },
  };
}

export interface ServiceFolder {
  /** The tables of the folder's model (`{}` for none). */
  tables: Readonly<Record<string, TableSpec>>;
  /** Keyed by the service name without the `Svc_` prefix, e.g. `Virtual_Guest`. */
  services: Readonly<Record<string, ApiService>>;
  /** The order containers it owns, by complexType. */
  orders?: Readonly<Record<string, OrderOwner>>;
}

/**
 * Every service folder by name; each folder's handlers add their own entry
 * (`declare module '../service'`), and the registry must list exactly these.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ServiceFolders {}

/** Keeps the literal table and service names of a folder's value (the registry derives from them). */
export const serviceFolder = <const F extends ServiceFolder>(folder: F): F => folder;

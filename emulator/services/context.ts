/**
 * What a service method receives and the helpers every service shares: reading arguments and
 * the init-parameter id, and shaping results (mask projection; filter, orderBy, limit/offset and
 * the total count for lists).
 */
import { ApiFault, FaultCodes, invalidParams, objectNotFound } from '../errors';
import { compileFilter, matches, sortByFilter, type FilterNode } from '../query/filter';
import { validateMask, type Mask } from '../query/mask';
import { project } from '../query/project';
import { typeDef, type ViewContext } from '../schema';
import type { Tables } from '../store';
import type { OrderOwner } from './service';
import { isStruct } from '../validators';

export interface Settings {
  provisioningDelayMs: number;
  /**
   * How long a cancelled guest stays visible, reclaiming (its `RECLAIM_WAIT` transaction), before
   * it is gone. The real API takes minutes; 0 (the default) removes it within the cancel.
   */
  reclaimDelayMs: number;
  /**
   * A list answer of more items fails with `Internal Error`, as the real API does for a page
   * too large for its backend (it depends on the mask there; here on the count alone). Unset:
   * no limit.
   */
  largestPage?: number;
  /**
   * How many active guests a datacenter (by short name) holds, across accounts; an order beyond
   * it is refused with the capacity fault (virtual-guest/capacity.ts). Absent: unlimited.
   */
  datacenterCapacity?: Record<string, number>;
  /**
   * How long each provisioning stage of a bare-metal server lasts (hardware/model.ts); real
   * servers take hours. Absent: `provisioningDelayMs`.
   */
  hardwareStageMs?: number;
  /** Servers ordered while this is set fail their provisioning at this stage (a stage name). */
  failHardwareAt?: string;
}

export interface CallContext extends ViewContext {
  service: string;
  method: string;
  args: unknown[];
  rawId: unknown;
  mask?: Mask;
  filter?: Record<string, unknown>;
  limit?: number;
  offset?: number;
  settings: Settings;
  /** Every registered folder's order containers by complexType (see OrderOwner). */
  orderOwners: ReadonlyMap<string, OrderOwner>;
}

/** A context for a method that needs a signed-in caller. */
export interface AuthedContext extends CallContext {
  user: Tables['users'];
  account: Tables['accounts'];
}

export interface CallResult {
  value: unknown;
  /** For lists: the count before limit/offset, sent as `Svc-Total-Items`. */
  totalItems?: number;
}

// ---------------------------------------------------------------------------------------------
// Arguments

export function expectArgs(
  ctx: CallContext,
  names: readonly string[],
  required = names.length,
): void {
  const signature = `${ctx.service}::${ctx.method}(${names.join(', ')})`;
  if (ctx.args.length > names.length) {
    throw invalidParams(
      `${signature} takes ${names.length} parameter(s), ${ctx.args.length} given.`,
    );
  }
  for (let i = 0; i < required; i += 1) {
    if (ctx.args[i] === undefined || ctx.args[i] === null)
      throw invalidParams(`${signature}: '${names[i]}' is required.`);
  }
}

export function structArg(ctx: CallContext, index: number, name: string): Record<string, unknown> {
  const value = ctx.args[index];
  if (!isStruct(value))
    throw invalidParams(`${ctx.service}::${ctx.method}: '${name}' must be a struct.`);
  return value;
}

export function stringArg(ctx: CallContext, index: number, name: string): string {
  const value = ctx.args[index];
  if (typeof value !== 'string')
    throw invalidParams(`${ctx.service}::${ctx.method}: '${name}' must be a string.`);
  return value;
}

export function intArg(ctx: CallContext, index: number, name: string): number {
  const value = ctx.args[index];
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw invalidParams(`${ctx.service}::${ctx.method}: '${name}' must be an integer.`);
  }
  return n;
}

/** The init-parameter id as an integer; anything else finds nothing, like the real API. */
export function requireId(ctx: CallContext): number {
  const raw = ctx.rawId;
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim())) return Number(raw);
  throw objectNotFound(
    raw === undefined || raw === null ? '' : typeof raw === 'object' ? '[object]' : String(raw),
  );
}

/** A record of the caller's account by id; another account's record is indistinguishable from none. */
export function owned<T extends { accountId: number }>(
  ctx: AuthedContext,
  record: T | undefined,
  id: unknown,
): T {
  if (!record || record.accountId !== ctx.account.id) throw objectNotFound(id);
  return record;
}

/** A loader for objects addressed by the init-parameter id and owned by the caller's account. */
export const ownedById =
  <T extends { accountId: number }>(find: (ctx: AuthedContext, id: number) => T | undefined) =>
  (ctx: AuthedContext): T => {
    const id = requireId(ctx);
    return owned(ctx, find(ctx, id), id);
  };

// ---------------------------------------------------------------------------------------------
// Results

export function one(ctx: CallContext, typeName: string, object: unknown): CallResult {
  if (object === null || object === undefined) return { value: null };
  const type = typeDef(typeName);
  if (ctx.mask) validateMask(ctx.mask.root, type);
  return { value: project(type, object, ctx.mask?.root, ctx) };
}

/**
 * A list result. `filterRoot` says where the filter starts: the names of the service-type
 * relation that holds the items (e.g. `virtualGuests` for Account.getVirtualGuests, other
 * top-level keys are checked and ignored), or null when the filter is on the items themselves.
 */
export function list(
  ctx: CallContext,
  typeName: string,
  items: readonly unknown[],
  filterRoot: readonly string[] | null,
): CallResult {
  const type = typeDef(typeName);
  if (ctx.mask) validateMask(ctx.mask.root, type);
  const nodes = itemFilters(ctx, typeName, filterRoot);
  let rows =
    nodes.length === 0
      ? [...items]
      : items.filter((item) => nodes.every((n) => matches(n, item, ctx)));
  for (const node of nodes) rows = sortByFilter(node, rows, ctx);
  const totalItems = rows.length;
  const offset = ctx.offset ?? 0;
  const page = ctx.limit
    ? rows.slice(offset, offset + ctx.limit)
    : offset
      ? rows.slice(offset)
      : rows;
  if (ctx.settings.largestPage !== undefined && page.length > ctx.settings.largestPage)
    throw new ApiFault(FaultCodes.public, 'Internal Error');
  const pruneBy = ctx.mask?.filtered ? nodes[0] : undefined;
  return { value: page.map((row) => project(type, row, ctx.mask?.root, ctx, pruneBy)), totalItems };
}

function itemFilters(
  ctx: CallContext,
  itemType: string,
  filterRoot: readonly string[] | null,
): FilterNode[] {
  if (!ctx.filter) return [];
  if (filterRoot === null) return [compileFilter(typeDef(itemType), ctx.filter, ctx.now)];
  const top = compileFilter(typeDef(serviceType(ctx.service)), ctx.filter, ctx.now);
  return filterRoot.flatMap((key) => {
    const child = top.children.get(key);
    return child ? [child.node] : [];
  });
}

export const serviceType = (service: string) => `Svc_${service}`;

/** Validates the filter of a single-object call (unknown properties fault) without using it. */
export function checkFilter(ctx: CallContext): void {
  if (ctx.filter) compileFilter(typeDef(serviceType(ctx.service)), ctx.filter, ctx.now);
}

export const ok = (value: unknown): CallResult => ({ value });

/**
 * API data types and their properties. A type has local properties (returned by default),
 * relational properties (returned only when a mask names them; each has a target type and is
 * one object or a list) and count properties (numbers, also only when asked). Masks, filters and
 * projection all read these definitions, so a property is known in exactly one place.
 */
import type { UserRec } from './records';
import type { Store } from './store';

/** What a property getter may look at: the store, the clock and the caller. */
export interface ViewContext {
  store: Store;
  now: number;
  accountId: number;
  user: UserRec | null;
}

type Getter<T> = (object: T, ctx: ViewContext) => unknown;

export interface Relation {
  readonly type: string;
  readonly many: boolean;
  /** An array when `many`; otherwise an object, or null/undefined when absent. */
  readonly get: Getter<unknown>;
}

export interface TypeDef {
  readonly name: string;
  readonly locals: ReadonlyMap<string, Getter<unknown>>;
  readonly relations: ReadonlyMap<string, Relation>;
  readonly counts: ReadonlyMap<string, (object: unknown, ctx: ViewContext) => number>;
}

const registry = new Map<string, TypeDef>();

interface TypeSpec<T> {
  locals: Record<string, Getter<T>>;
  relations?: Record<string, { type: string; many?: boolean; get: Getter<T> }>;
  counts?: Record<string, (object: T, ctx: ViewContext) => number>;
}

export function defineType<T>(name: string, spec: TypeSpec<T>): TypeDef {
  const def: TypeDef = {
    name,
    locals: new Map(Object.entries(spec.locals)) as Map<string, Getter<unknown>>,
    relations: new Map(
      Object.entries(spec.relations ?? {}).map(([key, r]) => [
        key,
        { type: r.type, many: r.many ?? false, get: r.get as Getter<unknown> },
      ]),
    ),
    counts: new Map(Object.entries(spec.counts ?? {})) as TypeDef['counts'],
  };
  registry.set(name, def);
  return def;
}

/** A type whose objects are plain structs: every listed key is a local property read as is. */
export function definePlainType(name: string, keys: readonly string[]): TypeDef {
  const locals: Record<string, Getter<Record<string, unknown>>> = {};
  for (const key of keys) locals[key] = (o) => o[key];
  return defineType(name, { locals });
}

export function typeDef(name: string): TypeDef {
  const def = registry.get(name);
  if (!def) throw new Error(`unknown API type ${name}`);
  return def;
}

/** Reads a relation as a list whatever its cardinality (an absent one-relation is empty). */
export function relationItems(relation: Relation, object: unknown, ctx: ViewContext): unknown[] {
  const value = relation.get(object, ctx);
  if (relation.many) return (value as unknown[] | undefined) ?? [];
  return value === null || value === undefined ? [] : [value];
}

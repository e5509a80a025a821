/**
 * API data types and their properties. A type has local properties (returned by default),
 * relational properties (returned only when a mask names them; each has a target type and is
 * one object or a list) and on-demand properties (counts and other plain values that are only
 * returned when asked). Masks, filters and projection all read these definitions, so a
 * property is known in exactly one place.
 *
 * Every type carries the real API's property set (`sldn-properties.json`, generated from
 * the public API reference by scripts/sldn-properties.ts, plus the properties the real API
 * returns that the reference omits, `observed-properties.ts`). The emulator models some of those
 * properties (`defineType`); the others answer nothing (null, or an empty list for a list
 * relation; a count of a list the emulator models counts it, any other count is 0), so every
 * valid mask and filter works, while a name the type does not have still faults. Types that are
 * only reached through a relation the emulator does not model exist with their property set
 * and nothing else.
 */
import { OBSERVED_PROPERTIES } from './observed-properties';
import properties from './sldn-properties.json';
import type { Store, Tables } from './store';

/** What a property getter may look at: the store, the clock and the caller. */
export interface ViewContext {
  store: Store;
  now: number;
  accountId: number;
  user: Tables['users'] | null;
}

type Getter<T> = (object: T, ctx: ViewContext) => unknown;

/** `record` when it belongs to the caller's account, else undefined (a relation shows nothing). */
export const sameAccount = <T extends { accountId: number }>(
  record: T | undefined,
  ctx: ViewContext,
): T | undefined => (record && record.accountId === ctx.accountId ? record : undefined);

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
  /** Counts and relational plain values: returned only when named, no sub-mask. */
  readonly onDemand: ReadonlyMap<string, Getter<unknown>>;
}

interface CatalogType {
  local: string[];
  /** Property to target type, `Type[]` for a list; lower-case targets are plain values. */
  relational: Record<string, string>;
  count: string[];
}

const catalog = withObserved(properties.types as Record<string, CatalogType>);

/** The reference's property sets plus the properties the real API was seen returning. */
function withObserved(types: Record<string, CatalogType>): Record<string, CatalogType> {
  const out = { ...types };
  for (const [name, observed] of Object.entries(OBSERVED_PROPERTIES)) {
    const known = out[name];
    const merged: CatalogType = {
      local: [...known.local],
      relational: { ...known.relational },
      count: known.count,
    };
    for (const [key, p] of Object.entries(observed)) {
      if (p.kind === 'local') merged.local.push(key);
      else merged.relational[key] = p.target!;
    }
    out[name] = merged;
  }
  return out;
}
/** A type as the registry keeps it: rebuilt in place when a folder extends it. */
interface BuiltType extends TypeDef {
  readonly locals: Map<string, Getter<unknown>>;
  readonly relations: Map<string, Relation>;
  readonly onDemand: Map<string, Getter<unknown>>;
}

const registry = new Map<string, BuiltType>();

export interface TypeSpec<T> {
  locals: Record<string, Getter<T>>;
  relations?: Record<string, { type: string; many?: boolean; get: Getter<T> }>;
  /** Counts and other relational plain values the emulator computes. */
  onDemand?: Record<string, Getter<T>>;
}

const nothing = () => undefined;
const noItems = () => [];

/** Whether a catalog target names an object type (plain values are lower-case: `string`, ...). */
const isObjectType = (target: string) => /^[A-Z]/.test(target);

/**
 * Registers the modeled properties of one or more type names (several names share one model,
 * e.g. `Svc_Hardware` and `Svc_Hardware_Server`), each completed with its catalog properties.
 */
export function defineType<T>(names: string | readonly string[], spec: TypeSpec<T>): void {
  for (const name of typeof names === 'string' ? [names] : names) {
    specOf(name).base = spec as TypeSpec<never>;
    build(name);
  }
}

/**
 * Adds properties to a type that another folder defines: a service's objects listed on the
 * account (`Svc_Account.iscsiNetworkStorage`) are declared by that service's folder, not by
 * account/. Either may load first.
 */
export function extendType<T>(name: string, spec: Partial<TypeSpec<T>>): void {
  specOf(name).added.push(spec as Partial<TypeSpec<never>>);
  build(name);
}

/** Each type's own spec and what other folders add to it (extendType). */
const specs = new Map<string, { base: TypeSpec<never>; added: Partial<TypeSpec<never>>[] }>();

function specOf(name: string) {
  let spec = specs.get(name);
  if (!spec) specs.set(name, (spec = { base: { locals: {} }, added: [] }));
  return spec;
}

/** (Re)builds a type from its specs, in place: a definition read before an extension sees it. */
function build(name: string): void {
  const def = registry.get(name) ?? {
    name,
    locals: new Map(),
    relations: new Map(),
    onDemand: new Map(),
  };
  const { locals, relations, onDemand } = def;
  for (const map of [locals, relations, onDemand]) map.clear();
  const { base, added } = specOf(name);
  for (const spec of [base, ...added]) {
    for (const [key, get] of Object.entries(spec.locals ?? {}))
      locals.set(key, get as Getter<unknown>);
    for (const [key, r] of Object.entries(spec.relations ?? {}))
      relations.set(key, { type: r.type, many: r.many ?? false, get: r.get as Getter<unknown> });
    for (const [key, get] of Object.entries(spec.onDemand ?? {}))
      onDemand.set(key, get as Getter<unknown>);
  }
  completeFromCatalog(def, locals, relations, onDemand);
  registry.set(name, def);
}

/** A type whose objects are plain structs: every listed key is a local property read as is. */
export function definePlainType(name: string | readonly string[], keys: readonly string[]): void {
  const locals: Record<string, Getter<Record<string, unknown>>> = {};
  for (const key of keys) locals[key] = (o) => o[key];
  defineType(name, { locals });
}

function completeFromCatalog(
  def: TypeDef,
  locals: Map<string, Getter<unknown>>,
  relations: Map<string, Relation>,
  onDemand: Map<string, Getter<unknown>>,
): void {
  const known = catalog[def.name];
  if (!known) return;
  const modeled = (key: string) => locals.has(key) || relations.has(key) || onDemand.has(key);
  for (const key of known.local) if (!modeled(key)) locals.set(key, nothing);
  for (const [key, target] of Object.entries(known.relational)) {
    if (modeled(key)) continue;
    const many = target.endsWith('[]');
    const type = many ? target.slice(0, -2) : target;
    if (isObjectType(type)) relations.set(key, { type, many, get: many ? noItems : nothing });
    else onDemand.set(key, many ? noItems : nothing);
  }
  for (const key of known.count) if (!modeled(key)) onDemand.set(key, countOf(relations, key));
}

/** `tagReferenceCount` counts the `tagReferences` list (or `userDataCount` `userData`, ...). */
function countOf(relations: ReadonlyMap<string, Relation>, key: string): Getter<unknown> {
  const base = key.slice(0, -'Count'.length);
  for (const name of [`${base}s`, `${base}es`, base, base.replace(/y$/, 'ies')]) {
    const relation = relations.get(name);
    if (relation?.many) return (object, ctx) => relationItems(relation, object, ctx).length;
  }
  return () => 0;
}

/** Whether `name` is a type of the API (modeled, or known from the catalog). */
export const isKnownType = (name: string) => registry.has(name) || Object.hasOwn(catalog, name);

export function typeDef(name: string): TypeDef {
  let def = registry.get(name);
  if (!def && Object.hasOwn(catalog, name)) {
    defineType(name, { locals: {} });
    def = registry.get(name);
  }
  if (!def) throw new Error(`unknown API type ${name}`);
  return def;
}

/** The catalog's property names of a type (undefined for a type the catalog does not list). */
export function catalogProperties(
  name: string,
): { name: string; kind: 'local' | 'relational' | 'count'; target?: string }[] | undefined {
  const known = catalog[name];
  if (!known) return undefined;
  return [
    ...known.local.map((key) => ({ name: key, kind: 'local' as const })),
    ...Object.entries(known.relational).map(([key, target]) => ({
      name: key,
      kind: 'relational' as const,
      target,
    })),
    ...known.count.map((key) => ({ name: key, kind: 'count' as const })),
  ];
}

/** Every type name that has been defined (modeled or completed from the catalog). */
export const definedTypes = (): string[] => [...registry.keys()];

/** Reads a relation as a list whatever its cardinality (an absent one-relation is empty). */
export function relationItems(relation: Relation, object: unknown, ctx: ViewContext): unknown[] {
  const value = relation.get(object, ctx);
  if (relation.many) return (value as unknown[] | undefined) ?? [];
  return value === null || value === undefined ? [] : [value];
}

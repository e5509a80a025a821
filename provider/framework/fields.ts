import type * as pulumi from '@pulumi/pulumi';
import { changedFields } from './compare';
import type { Failures } from './failures';

/**
 * A resource's declarative field table: one entry per field, stating its type and check rule,
 * default, whether it is a program argument and/or an output and what a change does; its doc line
 * is the entry's JSDoc comment. Everything else is derived from it: the program-side Args and
 * output types (below), the checked inputs with their defaults (`withDefaults`, `checkFields`), the
 * replace/update sets of `diff` (`fieldsChanging`) and the README's reference table
 * (scripts/reference-tables.ts, which reads the JSDoc comments).
 */

/** A resource's properties as Pulumi hands them over (inputs, outputs, olds, news). */
export type Bag = Record<string, unknown>;

/**
 * A field's value type: `name` is what the README shows, `T` is for TypeScript only. (A "kind"
 * is a resource kind, provider/kinds/; a field's value has a type.)
 */
export interface ValueType<T> {
  readonly name: string;
  /** Never set: carries `T`. */
  readonly type?: T;
}

export const valueType = <T>(name: string): ValueType<T> => ({ name });

export const types = {
  string: valueType<string>('string'),
  number: valueType<number>('number'),
  integer: valueType<number>('integer'),
  boolean: valueType<boolean>('boolean'),
  id: valueType<string | number>('id'),
  list: <T>(item: ValueType<T>) => valueType<T[]>(`${item.name}[]`),
  nullable: <T>(item: ValueType<T>) => valueType<T | null>(`${item.name} \\| null`),
};

/**
 * What a change of the field does: `replace` (a new object), `update` (in place through the API,
 * `how` says which call), `upgrade` (in place through an upgrade order) or `local` (only how the
 * provider works; no API call).
 */
export type Change = 'replace' | 'update' | 'upgrade' | 'local';

/** A check rule: runs on the inputs with defaults applied; `text` is the README's limit column. */
export interface Rule {
  check(failures: Failures, name: string, value: unknown, inputs: Bag): void;
  text?: string;
}

export interface Field<T = unknown, A = T> {
  type: ValueType<T>;
  /** What the program may pass when it is more than what is stored (ids as strings, say). */
  arg?: ValueType<A>;
  /** A program argument (required or optional); absent: an output only. */
  input?: 'required' | 'optional';
  /** Set by the resource class or by `check`, not by the program. */
  internal?: true;
  /** An output property of the resource class. */
  output?: true;
  /** Applied in `check` when the value is missing (null or undefined). */
  default?: T;
  /** A default computed from the new and old inputs. */
  defaultFrom?: (news: Bag, olds: Bag) => T;
  /** How the README states a computed default. */
  defaultText?: string;
  /** The stored form of a given value (the way the API stores it); undefined drops the field. */
  normalise?: (value: unknown) => unknown;
  rule?: Rule;
  change?: Change;
  /** How a change is applied (README), e.g. `editObject`. */
  how?: string;
  /** Why a change replaces the object, said in preview next to the change. */
  reason?: string;
  /** Shown as a secret (the plugin's outputs and schema). */
  secret?: true;
  /**
   * The only values it takes, as a named list (the plugin schema's enum type of that name).
   * `anyCase`: taken in any case and normalised (`a` is `A`, the API's own spelling), so the
   * schema types it as any string or the enum, and a program of either spelling type-checks.
   * `meanings`: what each value does, by value (the enum values' descriptions in the schema).
   */
  oneOf?: {
    name: string;
    values: readonly string[];
    meanings: Readonly<Record<string, string>>;
    anyCase?: true;
  };
  /** Where the field lives on the API object, so a resource can be read from its id alone. */
  read?: ReadBack;
  /** Set by the create and kept by every update (the token the object was ordered with). */
  keep?: true;
  /** Only an output (where the API put the object) when this other input is given instead. */
  outputWith?: string;
  /**
   * An output `check` computes (the price of the order), kept with the inputs so that a change of
   * it shows in the preview; never a program argument.
   */
  fromCheck?: true;
}

/** The API object says the field is not set (no notes, no user data): the input is dropped. */
export const UNSET = Symbol('unset');

/** Where a field lives on the API object: what to ask for and how to read it back. */
export interface ReadBack {
  /** The object-mask properties it needs, comma-separated (`datacenter.name`). */
  mask: string;
  /** The value as a program declares it; undefined when the object does not report it. */
  from(api: never): unknown;
  /** The API's form differs from the declared one without meaning a change (`UBUNTU_LATEST`). */
  same?(declared: unknown, observed: unknown): boolean;
  /** Left unset by the program, the field takes whatever the API has: that is no drift. */
  unsetFollowsApi?: true;
}

/** A field's read-back on API objects of type `A` (the table's entries name their API type). */
export const readFrom =
  <A>() =>
  (mask: string, from: (api: A) => unknown, more: Omit<ReadBack, 'mask' | 'from'> = {}) =>
    ({ mask, from, ...more }) as ReadBack;

/**
 * A field table. A kind that states more of its fields than the framework reads (how a field goes
 * into its order, what it is priced by) declares those properties as `Extra`, in its own folder:
 * `satisfies Fields<GuestField>`; the framework reads only `Field`'s.
 */
export type Fields<Extra extends object = object> = Record<string, Field<unknown, unknown> & Extra>;

type ValueOf<F> = F extends { type: ValueType<infer T> } ? T : never;
type ArgOf<F> = F extends { arg: ValueType<infer A> } ? A : ValueOf<F>;
type KeysWhere<F, C> = { [K in keyof F]-?: F[K] extends C ? K : never }[keyof F] & keyof F;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type PulumiInput<T> = [T] extends [(infer U)[]] ? pulumi.Input<pulumi.Input<U>[]> : pulumi.Input<T>;

type ArgKeys<F> = Exclude<KeysWhere<F, { input: string }>, KeysWhere<F, { internal: true }>>;

/**
 * The keys of `F` that are in `Keys`, as the key filter of a mapped type over `keyof F`: such a
 * mapped type is homomorphic, so each property keeps its link to the table entry and with it the
 * entry's JSDoc comment (what an IDE shows on hovering the property, in the .d.ts too).
 */
type Only<K, Keys> = K extends Keys ? K : never;

type RequiredArgKeys<F> = ArgKeys<F> & KeysWhere<F, { input: 'required' }>;

/** The program's arguments of a resource. */
export type ArgsOf<F extends Fields> = Simplify<
  { [K in keyof F as Only<K, RequiredArgKeys<F>>]: PulumiInput<ArgOf<F[K]>> } & {
    [K in keyof F as Only<K, Exclude<ArgKeys<F>, RequiredArgKeys<F>>>]?: PulumiInput<ArgOf<F[K]>>;
  }
>;

/** Always present once checked: required, or defaulted. */
type Present<F> =
  | KeysWhere<F, { input: 'required' }>
  | KeysWhere<F, { default: unknown }>
  | KeysWhere<F, { defaultFrom: unknown }>;

/** The inputs as `check` stores them (defaults applied, values normalised). */
export type InputsOf<F extends Fields> = Simplify<
  { [K in KeysWhere<F, { input: string }> & Present<F>]: ValueOf<F[K]> } & {
    [K in Exclude<KeysWhere<F, { input: string }>, Present<F>>]?: ValueOf<F[K]>;
  }
>;

/** A field's name in the table `F`. */
export type FieldName<F extends Fields> = keyof F & string;

type NotInputKeys<F> = Exclude<keyof F, KeysWhere<F, { input: string }>>;

/**
 * The properties the state keeps of a resource: its checked inputs and the table's other fields
 * (outputs, and what is kept in the state only; absent from states written before one was added),
 * and, for a kind whose objects belong to one account, `accountId` (kind-provider.ts's `owned`).
 */
export type StateOf<F extends Fields> = Simplify<
  InputsOf<F> & { [K in NotInputKeys<F>]?: ValueOf<F[K]> } & { accountId?: number }
>;

/** The values of the output properties. */
export type OutputValuesOf<F extends Fields> = {
  [K in keyof F as Only<K, KeysWhere<F, { output: true }>>]: F[K] extends { input: 'optional' }
    ? F[K] extends { default: unknown } | { defaultFrom: unknown }
      ? ValueOf<F[K]>
      : ValueOf<F[K]> | undefined
    : ValueOf<F[K]>;
};

/** The output properties of a resource object. */
export type OutputsOf<F extends Fields> = {
  readonly [K in keyof OutputValuesOf<F>]: pulumi.Output<OutputValuesOf<F>[K]>;
};

/** Every property the entries of `F` may state: the framework's and the kind's own. */
type PropertyOf<F> = F[keyof F] extends infer E ? (E extends object ? keyof E : never) : never;

/** Names of the fields whose `property` is `value`, in table order. */
export function fieldsWhere<F extends Fields, P extends keyof Field | PropertyOf<F>, const V>(
  fields: F,
  property: P,
  value: V,
): (KeysWhere<F, Record<P, V>> & string)[] {
  return Object.keys(fields).filter(
    (name) => (fields[name] as Record<PropertyKey, unknown>)[property] === value,
  ) as (KeysWhere<F, Record<P, V>> & string)[];
}

/** The fields whose change does `change`, in table order. */
export const fieldsChanging = <F extends Fields, C extends Change>(fields: F, change: C) =>
  fieldsWhere(fields, 'change', change);

export const outputNames = <F extends Fields>(fields: F) => fieldsWhere(fields, 'output', true);

/**
 * The inputs with the table's defaults applied and values normalised, the rest as given. A
 * default replaces a missing value (undefined or null); a normalised value of undefined drops
 * the field.
 */
export function withFieldDefaults(fields: Fields, olds: Bag, news: Bag): Bag {
  const out: Bag = { ...news };
  for (const [name, field] of Object.entries(fields)) {
    const given = news[name];
    const missing = given === undefined || given === null;
    if (missing && field.default === undefined && !field.defaultFrom) continue;
    let value = !missing
      ? given
      : field.defaultFrom
        ? field.defaultFrom(news, olds)
        : structuredClone(field.default);
    if (field.normalise) value = field.normalise(value);
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

/**
 * The checked inputs without the defaults of fields the object was made without: an existing
 * object (its old inputs are not empty) whose old inputs lack a field the program does not give
 * either was made by a version before that field existed, so the field's default is no change
 * for it. Left out of what check answers, the engine's own comparison of old and new inputs does
 * not see it either; the kind gets the default again where it acts (`withAbsentDefaults`).
 */
export function withoutNewDefaults(fields: Fields, olds: Bag, news: Bag, inputs: Bag): Bag {
  if (Object.keys(olds).length === 0) return inputs;
  const absent = (bag: Bag, name: string) => bag[name] === undefined || bag[name] === null;
  const defaults = withFieldDefaults(fields, olds, news);
  const added = Object.keys(fields).filter(
    (name) =>
      absent(olds, name) &&
      absent(news, name) &&
      !absent(defaults, name) &&
      JSON.stringify(inputs[name]) === JSON.stringify(defaults[name]),
  );
  if (added.length === 0) return inputs;
  const out = { ...inputs };
  for (const name of added) delete out[name];
  return out;
}

/** `inputs` with the table's default of each field they lack (what `withoutNewDefaults` left out). */
export function withAbsentDefaults(fields: Fields, olds: Bag, inputs: Bag): Bag {
  const out = { ...inputs };
  for (const [name, value] of Object.entries(withFieldDefaults(fields, olds, inputs))) {
    if (out[name] === undefined && value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The checked inputs as diff compares them with the old state: a field they leave out (check
 * drops the default of a field the old inputs lack: `withoutNewDefaults`) that the old state
 * does hold means its default. An import stores no default among its inputs, yet its outputs
 * state every field: the program that declares it as it is must not read as deleting them.
 */
export function withDefaultsTheStateHolds(fields: Fields, olds: Bag, news: Bag): Bag {
  const filled = withAbsentDefaults(fields, olds, news);
  for (const name of Object.keys(filled)) {
    if (news[name] === undefined && olds[name] === undefined) delete filled[name];
  }
  return filled;
}

/** Runs every field's rule, in table order (one failure per field: the first one found). */
export function checkFields(fields: Fields, inputs: Bag, failures: Failures): void {
  for (const [name, field] of Object.entries(fields)) {
    field.rule?.check(failures, name, inputs[name], inputs);
  }
}

/** The object mask that reads back the table's fields (or the `only` ones) that say where they live. */
export function readMask(fields: Fields, only: readonly string[] = Object.keys(fields)): string {
  const paths = only.flatMap((name) => fields[name]?.read?.mask.split(',') ?? []);
  return [...new Set(paths)].join(',');
}

/**
 * The table's inputs as the API object shows them now. Without `declared` (an import: only the
 * id is known) every readable input is read. Against declared values (a refresh): an API form
 * that means the same keeps the declared value, an input the program leaves unset that follows
 * the API stays unset, and a value the object does not report keeps the declared one; what else
 * differs is drift.
 */
export function readInputs(fields: Fields, api: unknown, declared?: Bag): Bag {
  const out: Bag = { ...declared };
  for (const [name, { read, input }] of Object.entries(fields)) {
    if (!read || !input || (declared && read.unsetFollowsApi && declared[name] === undefined))
      continue;
    const found = read.from(api as never);
    if (found === undefined) continue;
    const observed = found === UNSET ? undefined : found;
    if (declared && read.same?.(declared[name], observed)) continue;
    if (observed === undefined) delete out[name];
    else out[name] = observed;
  }
  return out;
}

/**
 * An import's inputs as a program would declare them: a value equal to the field's default (the
 * table's, or `apiDefaults`, what the API gives an order that leaves the field out) is left out,
 * as a user leaves it out; `check` puts it back, so the stored inputs are the same.
 */
export function withoutDefaults(fields: Fields, inputs: Bag, apiDefaults: Bag = {}): Bag {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return Object.fromEntries(
    Object.entries(inputs).filter(([name, value]) => {
      const field = fields[name];
      if (!field?.input) return true;
      const fallback = name in apiDefaults ? apiDefaults[name] : field.default;
      return fallback === undefined || !same(value, fallback);
    }),
  );
}

/** The outputs that are not inputs, read from the API object (those it reports). */
export function readComputed(fields: Fields, api: unknown): Bag {
  const out: Bag = {};
  for (const [name, { read, input, output }] of Object.entries(fields)) {
    if (!read || input || !output) continue;
    const found = read.from(api as never);
    if (found !== undefined && found !== UNSET) out[name] = found;
  }
  return out;
}

/**
 * The fields among `names` whose new value is a change from the old one: different, not a form
 * of the same value by the field's read-back rule (`UBUNTU_LATEST` for `UBUNTU_24_64`), and not
 * a field the program now leaves to the API (`unsetFollowsApi`).
 */
export function changedBetween<K extends string>(
  fields: Fields,
  olds: Partial<Record<K, unknown>>,
  news: Partial<Record<K, unknown>>,
  names: readonly K[],
): K[] {
  return changedFields(olds, news, names).filter((name) => {
    const read = fields[name]?.read;
    if (read?.unsetFollowsApi && news[name] === undefined) return false;
    return !read?.same?.(news[name], olds[name]);
  });
}

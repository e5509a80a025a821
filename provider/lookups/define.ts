import type { Client } from '../client';
import type { Failures } from '../framework/failures';
import { lookupArgs } from './args';

/**
 * A lookup is declared once: its description, its arguments and its answer with their types and
 * docs, examples, the checks of its arguments and the call. From that one declaration come the
 * program's Promise and Output forms (resources/), the plugin's functions (plugin/functions.ts)
 * and their schema with typed results (scripts/plugin-schema.ts). The account's lookups are in
 * account.ts; a kind registers its own with itself (kinds/index.ts).
 */

type Spec = Record<string, unknown>;

/** A schema type, with the TypeScript type a program passes or receives for it (`T`, unused at run time). */
export interface Type<T = unknown> {
  readonly schema: Spec;
  /** An object type: the schema's `types` holds it under `svc:index:<name>`. */
  readonly object?: ObjectType;
  /** A list's items. */
  readonly item?: Type;
  /** A map's values (its keys are strings). */
  readonly value?: Type;
  readonly __ts?: T;
}

/** A property of an argument list or an answer: its type, its doc, whether it is always given. */
export interface Property {
  readonly type: Type;
  readonly description: string;
  readonly required?: boolean;
  /**
   * Only the program's lookups take it (the plugin's functions answer typed objects, whose
   * properties a mask could not choose).
   */
  readonly programOnly?: boolean;
}

/**
 * An object type of the schema: its own properties, and those it has of a resource kind
 * (`fromKind`: typed and described as the kind's outputs, from its field table).
 */
export interface ObjectType {
  readonly name: string;
  readonly description: string;
  readonly properties: Readonly<Record<string, Property>>;
  readonly fromKind?: { readonly kind: string; readonly fields: readonly string[] };
}

const type = <T>(schema: Spec): Type<T> => ({ schema });

export const STRING = type<string>({ type: 'string' });
export const INTEGER = type<number>({ type: 'integer' });
export const BOOLEAN = type<boolean>({ type: 'boolean' });
/**
 * An id. Every id a lookup takes or answers is an integer, the API's own type for every object's
 * id: one type in every SDK, which feeds a resource's `guestId`, `keyId` or `zoneId` unchanged.
 * A program's lookup also takes the id's string form (a resource's Pulumi id).
 */
export const ID = type<number | string>({ type: 'integer' });
export const listOf = <T>(item: Type<T>): Type<T[]> => ({
  schema: { type: 'array', items: item.schema },
  item,
});

/** A map from strings to `value`s; `T` is what the program passes for it. */
export const mapOf = <T>(value: Type): Type<T> => ({
  schema: { type: 'object', additionalProperties: value.schema },
  value,
});

/** A named object type; `T` is what the program's lookup answers for it. */
export function objectType<T>(spec: ObjectType): Type<T> {
  return { schema: { $ref: `#/types/svc:index:${spec.name}` }, object: spec };
}

/** An argument or a property of an answer (`required`: always given). */
export const prop = <T, const O extends Partial<Pick<Property, 'required' | 'programOnly'>>>(
  type: Type<T>,
  description: string,
  options?: O,
) => ({ type, description, ...options }) as Property & { type: Type<T> } & O;

/** A JSON value of an example. */
export type ExampleValue =
  string | number | boolean | ExampleValue[] | { [k: string]: ExampleValue };

/**
 * An example in no language: a resource declared or a lookup called with `args`, and what the
 * program exports of it. scripts/examples.ts writes it in TypeScript, Python, Go and YAML.
 */
export interface Example {
  title: string;
  /** The resource's (or the result's) name in the program. */
  name: string;
  args: Record<string, ExampleValue>;
  exports: string[];
}

/** How a resource kind is shown in the schema, the SDKs and the reference docs. */
export interface KindDocs {
  example: Example;
  /** An id for its `## Import` section; absent when `pulumi import` does not take the kind. */
  importId?: string;
}

type Inputs = Readonly<Record<string, Property>>;
type TsOf<P> = P extends { type: Type<infer T> } ? T : never;
/** A lookup's arguments as a program passes them, from its declared inputs. */
export type ArgsOf<I extends Inputs> = {
  -readonly [K in keyof I as I[K] extends { required: true } ? K : never]: TsOf<I[K]>;
} & {
  -readonly [K in keyof I as I[K] extends { required: true } ? never : K]?: TsOf<I[K]>;
};

export interface Lookup<I extends Inputs = Inputs, R = unknown> {
  /** What the lookup answers, shown by the schema, the SDKs and the docs. */
  description: string;
  /** Its arguments by name: no other name is accepted. */
  inputs: I;
  /** Its answer: an object type, or a list of one (the plugin answers a list as `{ items }`). */
  result: Type<R>;
  /** The lookup in use, rendered in every language by scripts/examples.ts. */
  example: Example;
  /** Checks of the arguments' values, before any call: each failure names its argument. */
  check?(args: Record<string, unknown>, failures: Failures): void;
  /** The call, given checked arguments. */
  call(client: Client, args: ArgsOf<I>): Promise<R>;
}

/** One lookup, typed from its declaration: `call` takes the arguments `inputs` declare. */
export const lookup = <const I extends Inputs, R>(spec: Lookup<I, R>): Lookup<I, R> => spec;

/**
 * Lookups by name, each checking its arguments first (a `ValidationError` naming every wrong one,
 * before any call, as every lookup does: lookups/args.ts).
 */
export function defineLookups<const L extends Record<string, Lookup>>(lookups: L): L {
  const checked: Record<string, Lookup<Inputs, unknown>> = {};
  for (const [name, spec] of Object.entries(lookups) as [string, Lookup<Inputs, unknown>][]) {
    const names = Object.keys(spec.inputs);
    checked[name] = {
      ...spec,
      call: (client, args) => spec.call(client, lookupArgs<never>(name, args, names, spec.check)),
    };
  }
  return checked as unknown as L;
}

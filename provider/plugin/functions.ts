import type { Client } from '../client';
import type { Bag } from '../framework/fields';
import { ValidationError } from '../framework/failures';
import type { Lookup, Type } from '../lookups';
import { LOOKUPS } from '../kinds';

/**
 * The lookups served as the plugin's functions (`svc:index:<name>`): the account's and each
 * kind's, as declared (lookups/define.ts). A function answers an object typed by the schema: an
 * answer that lists is `{ items }`, and every answer keeps only the properties its type declares,
 * with their declared types (the SDKs decode it into their classes).
 */
export interface FunctionSpec extends Lookup {
  answer(client: Client, args: Bag): Promise<unknown>;
}

/** `value` as `type` declares it: declared properties only, integers and booleans as such. */
export function conform(value: unknown, type: Type): unknown {
  if (value === null || value === undefined) return undefined;
  if (type.item) return Array.isArray(value) ? value.map((v) => conform(v, type.item!)) : [];
  const object = type.object;
  if (object) {
    const bag = value as Bag;
    const declared: [string, Type | undefined][] = [
      ...Object.entries(object.properties).map(([name, p]) => [name, p.type] as [string, Type]),
      // A resource's fields are typed as the resource outputs them already.
      ...(object.fromKind?.fields ?? []).map((name) => [name, undefined] as [string, undefined]),
    ];
    return Object.fromEntries(
      declared.flatMap(([name, t]) => {
        const v = t ? conform(bag[name], t) : bag[name];
        return v === undefined ? [] : [[name, v]];
      }),
    );
  }
  switch (type.schema.type) {
    case 'integer':
    case 'number':
      return Number.isFinite(Number(value)) ? Number(value) : undefined;
    case 'boolean':
      return Boolean(value);
    case 'string':
      return String(value);
    default:
      return value;
  }
}

/** A lookup as a function: the arguments only the program takes are refused, naming them. */
function functionOf(name: string, lookup: Lookup): FunctionSpec {
  const programOnly = Object.keys(lookup.inputs).filter((k) => lookup.inputs[k].programOnly);
  return {
    ...lookup,
    answer: async (client, args) => {
      const given = programOnly.filter((k) => args[k] !== undefined);
      if (given.length > 0) {
        throw new ValidationError(
          name,
          given.map((k) => ({
            property: k,
            reason: `${k} is taken by the TypeScript program's lookup only: the function answers the typed properties`,
          })),
        );
      }
      const answer = conform(await lookup.call(client, args as never), lookup.result);
      return lookup.result.item ? { items: answer } : answer;
    },
  };
}

export const FUNCTIONS: Record<string, FunctionSpec> = Object.fromEntries(
  Object.entries(LOOKUPS).map(([name, lookup]) => [name, functionOf(name, lookup)]),
);

import type { Client } from '../client';
import type { Failures } from '../framework/failures';
import { lookupArgs } from './args';

/**
 * A kind's lookups, registered with the kind (provider/kinds/index.ts): the provider plugin
 * serves each as a function of its schema (plugin/functions.ts), and the program calls it through
 * its Promise and Output forms (resources/). A lookup says once what it takes and answers.
 */

/** Schema types of a lookup's arguments and answer (what the plugin's SDKs type them as). */
export const ANY = { $ref: 'pulumi.json#/Any' };
export const STRING = { type: 'string' };
export const INTEGER = { type: 'integer' };
export const BOOLEAN = { type: 'boolean' };
/** The answer of a lookup that lists: the plugin answers `{ items }`. */
export const LIST = { items: { type: 'array', items: ANY } };

export interface Lookup<A extends object = never, R = unknown> {
  /** What the plugin's schema (and so each SDK) says of it. */
  description: string;
  /** Its arguments by name, with their schema types: no other name is accepted. */
  inputs: Record<string, object>;
  required?: string[];
  outputs: Record<string, object>;
  /** Checks of the arguments' values, before any call: each failure names its argument. */
  check?(args: Record<string, unknown>, failures: Failures): void;
  /** The call, given checked arguments. */
  call(client: Client, args: A): Promise<R>;
}

/**
 * A kind's lookups by name, each checking its arguments first (a `ValidationError` naming every
 * wrong one, before any call, as every lookup does: lookups/args.ts).
 */
export function defineLookups<const L extends Record<string, Lookup>>(lookups: L): L {
  const checked: Record<string, Lookup> = {};
  for (const [name, lookup] of Object.entries(lookups)) {
    const names = Object.keys(lookup.inputs);
    checked[name] = {
      ...lookup,
      call: (client, args) =>
        lookup.call(client, lookupArgs<never>(name, args, names, lookup.check)),
    };
  }
  return checked as L;
}

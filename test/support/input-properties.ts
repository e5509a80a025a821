/**
 * The properties every resource's `check` and every lookup must have, for any input (arbitrary
 * JSON values, and NaN, Infinity, control characters, lone surrogates, huge lists): `check`
 * returns failures (one per field, each naming its field) and never throws; a lookup rejects with
 * the project's ValidationError. Whatever the validators reject reaches no API call (`calls`
 * counts the calls the emulator served). validation-property.test.ts runs them on every kind and
 * lookup; a kind's own test may run them on its own.
 */
import type * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SvcAPIError, SvcError } from '../../provider/client';
import { checkFields, withFieldDefaults, type Fields } from '../../provider/framework/fields';
import { Failures, ValidationError } from '../../provider/framework/failures';
import type { Emulator } from './provider-env';

type Bag = Record<string, unknown>;
export type CheckFn = (olds: Bag, news: Bag) => Promise<pulumi.dynamic.CheckResult>;
/** The failures the validators alone (no API) find: a non-empty list means no call may happen. */
export type ShapeFailures = (bag: Bag) => readonly unknown[];

const SEED = 20_251_123;

/** Arbitrary JSON, plus what JSON cannot hold but a program can pass. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    1e300,
    2 ** 53 + 2,
    null,
    '',
    'web',
    '1,2',
    ' ',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 200 }),
  fc.array(fc.oneof(fc.integer(), fc.double()), { maxLength: 120 }),
);

/** A valid base with some fields replaced, or a bag of arbitrary fields with no base at all. */
function bags(base: Bag): fc.Arbitrary<Bag> {
  const fields = fc.constantFrom(...Object.keys(base), 'extra');
  return fc.oneof(
    fc
      .dictionary(fields, anyValue, { minKeys: 1, maxKeys: 4 })
      .map((changes) => ({ ...base, ...changes })),
    fc.dictionary(fields, anyValue, { maxKeys: 8 }),
  );
}

/** How many calls the emulator has served so far. */
export const callsServed = (emulator: Emulator) => () =>
  Object.values(emulator.stats().calls).reduce((sum, n) => sum + n, 0);

/** What a field table's own rules reject. */
export const tableFailures =
  (fields: Fields): ShapeFailures =>
  (bag) => {
    const failures = new Failures();
    checkFields(fields, withFieldDefaults(fields, {}, bag), failures);
    return failures.list;
  };

/** `check` on bags around `base` (valid inputs): failures, never an exception. */
export async function assertCheckProperty(
  check: CheckFn,
  base: Bag,
  shapeFailures: ShapeFailures,
  calls: () => number,
): Promise<void> {
  const original = console.log;
  console.log = () => undefined; // billing lines of the valid samples
  try {
    await fc.assert(
      fc.asyncProperty(bags(base), async (bag) => {
        const invalid = shapeFailures(bag).length > 0;
        const before = calls();
        const result = await check({}, bag);
        const failures = result.failures ?? [];
        const properties = failures.map((f) => f.property);
        assert.equal(new Set(properties).size, properties.length, 'one failure per field');
        for (const { property, reason } of failures) {
          assert.equal(typeof reason, 'string');
          assert.ok(reason.includes(property), `the reason names ${property}: ${reason}`);
        }
        if (invalid) {
          assert.ok(failures.length > 0, 'what the validators reject, check rejects');
          assert.equal(calls(), before, 'no call for invalid inputs');
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  } finally {
    console.log = original;
  }
}

/** Lookup `name` (its Promise form) on arbitrary arguments around `argNames`. */
export async function assertLookupProperty(
  name: string,
  lookup: (args: never) => Promise<unknown>,
  argNames: readonly string[],
  calls: () => number,
): Promise<void> {
  const keys = fc.constantFrom(...argNames, 'other');
  const args = fc.oneof(anyValue, fc.dictionary(keys, anyValue, { maxKeys: 4 }));
  let rejected = 0;
  await fc.assert(
    fc.asyncProperty(args, async (value) => {
      const before = calls();
      try {
        await lookup(value as never);
      } catch (err) {
        if (err instanceof ValidationError) {
          rejected++;
          assert.ok(err.message.startsWith(`${name}: `), err.message);
          assert.equal(calls(), before, 'no call for invalid arguments');
          return;
        }
        // Accepted arguments the API itself refuses (an unknown mask property, no such zone).
        assert.ok(err instanceof SvcAPIError || err instanceof SvcError, String(err));
        assert.ok(calls() > before, `only after a call: ${String(err)}`);
      }
    }),
    { seed: SEED, numRuns: 150 },
  );
  assert.ok(rejected > 0, 'the samples included invalid arguments');
}

import { containsUnknown } from './unknown';

export { UNKNOWN, containsUnknown, isKnown, isUnknown } from './unknown';
/** Check failures: one per field, naming the field, the rule and what was given (validate.ts). */
export { Failures } from './validate';

/** Accepts the spec's literal text 'true'/'false' as well as booleans. */
export function asBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The names of `fields` whose values differ between the two bags (unknown counts as changed). */
export function changedFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: readonly string[],
): string[] {
  return fields.filter(
    (field) => containsUnknown(news[field]) || !sameJson(olds[field], news[field]),
  );
}

/** An error the engine records as "created but failed to initialize": it keeps the id in state. */
export function initFailure(
  message: string,
  id: string,
  properties: Record<string, unknown>,
): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}

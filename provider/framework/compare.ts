import { containsUnknown } from './unknown';

// How field values compare: the spec's literal booleans, and equality by JSON value.

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
export function changedFields<K extends string>(
  olds: Partial<Record<K, unknown>>,
  news: Partial<Record<K, unknown>>,
  fields: readonly K[],
): K[] {
  return fields.filter(
    (field) => containsUnknown(news[field]) || !sameJson(olds[field], news[field]),
  );
}

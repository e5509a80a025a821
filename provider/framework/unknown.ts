/** What the engine sends in place of a value that is not known yet (during preview). */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value is set and known, so it can be validated now. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && !containsUnknown(value);
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

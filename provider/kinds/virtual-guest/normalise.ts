import { createHash } from 'node:crypto';
import { containsUnknown } from '../../framework/unknown';

/** How a VirtualGuest's inputs are stored: the forms the platform keeps (fields.ts uses these). */

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** `<resource name>-<7 hex>`, stable for a resource of a stack (derived, not random, so re-runs agree). */
export function autoHostname(resourceName: string, identity: string): string {
  const base =
    resourceName
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 55) || 'guest';
  return `${base}-${digest('hostname', identity).slice(0, 7)}`;
}

/** Tags as the API stores them: trimmed, lower-cased, each once, sorted. */
export const normaliseTags = (tags: unknown): unknown =>
  Array.isArray(tags)
    ? [...new Set(tags.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : t)))].sort()
    : tags;

/**
 * Key ids as the API lists them: numbers (an `SshKey`'s string id is accepted), each once, in
 * ascending order, so the order they are given in is not a change of the guest.
 */
export const normaliseKeyIds = (ids: unknown): unknown => {
  if (!Array.isArray(ids) || containsUnknown(ids)) return ids;
  const numbers = ids.map((id) => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id));
  if (!numbers.every((id) => typeof id === 'number')) return numbers;
  return [...new Set(numbers as number[])].sort((a, b) => a - b);
};

/** An id given as a number is stored as the string the resource id is. */
export const idAsString = (id: unknown): unknown => (Number.isSafeInteger(id) ? String(id) : id);

/** An id given as its digits (an output of another resource in YAML) is stored as the number. */
export const idAsNumber = (id: unknown): unknown =>
  typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id;

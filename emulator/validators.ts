/**
 * Checks of values clients send, shared by the services: flags (booleans or the strings
 * 'true'/'false'), integers, strings, host and domain names, notes, tags, arrays and structs.
 * Faults name the field and say what was expected, as the real API's do.
 */
import { invalidValue, publicFault } from './errors';

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_NOTES = 1000;

export const isStruct = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
export const present = (v: unknown) => v !== undefined && v !== null;
const shown = (v: unknown) =>
  typeof v === 'string' ? `'${v.slice(0, 100)}'` : (JSON.stringify(v) ?? String(v));

/** The fault for a required property a template lacks. */
export const missing = (field: string, type: string) =>
  publicFault(`Property '${field}' must be set to create an instance of ${type}.`);
export const badValue = (field: string, value: unknown, expected: string) =>
  invalidValue(`Invalid value provided for '${field}': ${shown(value)}. ${expected}`);
export const notOffered = (field: string, value: unknown, options: readonly (string | number)[]) =>
  publicFault(
    `The value ${shown(value)} for '${field}' is not offered. Choose one of: ${options.join(', ')} (see getCreateObjectOptions).`,
  );

/** Booleans, or the literal strings 'true'/'false' (and 1/0), as API clients send them. */
export function readFlag(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
  }
  throw badValue(field, value, 'Expected true or false.');
}

/** An optional flag argument: absent (undefined or null) is false. */
export const optionalFlag = (value: unknown, field: string): boolean =>
  value === undefined || value === null ? false : readFlag(value, field);

export function readInt(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw badValue(field, value, 'Expected an integer.');
  return n;
}

export function readString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badValue(field, value, 'Expected a string.');
  return value;
}

export function checkHostname(value: unknown, field = 'hostname'): string {
  const hostname = readString(value, field).trim();
  if (!LABEL.test(hostname)) {
    throw badValue(
      field,
      value,
      'A hostname is 1-63 letters, digits and hyphens and cannot start or end with a hyphen.',
    );
  }
  return hostname;
}

export function checkDomain(value: unknown, field = 'domain'): string {
  const domain = readString(value, field).trim().replace(/\.$/, '');
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw badValue(
      field,
      value,
      'A domain is two or more dot-separated labels of letters, digits and hyphens.',
    );
  }
  return domain;
}

export function checkNotes(value: unknown): string {
  const notes = readString(value, 'notes');
  if (notes.length > MAX_NOTES)
    throw badValue(
      'notes',
      `${notes.slice(0, 20)}...`,
      `Notes are limited to ${MAX_NOTES} characters.`,
    );
  return notes;
}

/** Tags as the platform stores them: trimmed, lower-cased, no empties or duplicates. */
export function normalizeTags(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const tag = raw.trim().toLowerCase();
    if (tag.length === 0 || out.includes(tag)) continue;
    if (tag.length > 255)
      throw badValue('tag', `${tag.slice(0, 20)}...`, 'Tags are limited to 255 characters.');
    out.push(tag);
  }
  return out;
}

export function listOf(value: unknown, field: string): unknown[] {
  // Clients send `{}` where an empty array is meant.
  if (isStruct(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value)) throw badValue(field, value, 'Expected an array.');
  return value;
}

export function structAt(value: unknown, field: string): Record<string, unknown> {
  if (!isStruct(value)) throw badValue(field, value, 'Expected a struct.');
  return value;
}

import { formatMask } from '../mask';
import type { CallOptions } from '../options';

/**
 * What goes on the wire for one call besides the positional arguments: the XML-RPC headers
 * struct (first param of every call) and the HTTP headers. The legacy client builds its
 * persistent headers with the same entry builders.
 */

export const SERVICE_PREFIX = 'Svc_';
/** Key of a string object mask, whatever the service (reference: `SoftLayer_ObjectMask`). */
export const OBJECT_MASK_HEADER = `${SERVICE_PREFIX}ObjectMask`;

/** `Account` -> `Svc_Account`; a name that already has the prefix is left alone. */
export function remoteServiceName(name: string): string {
  if (typeof name !== 'string' || name === '')
    throw new TypeError('service name must be a non-empty string');
  return name.startsWith(SERVICE_PREFIX) ? name : SERVICE_PREFIX + name;
}

export type HeaderEntry = [key: string, value: unknown];

export function initParametersHeader(remoteService: string, id: unknown): HeaderEntry {
  return [`${remoteService}InitParameters`, { id }];
}

/** String masks go under `Svc_ObjectMask`, formatted; struct masks under `<Service>ObjectMask`. */
export function maskHeader(
  remoteService: string,
  mask: string | Record<string, unknown>,
): HeaderEntry {
  return typeof mask === 'string'
    ? [OBJECT_MASK_HEADER, { mask: formatMask(mask) }]
    : [`${remoteService}ObjectMask`, { mask }];
}

export function filterHeader(remoteService: string, filter: Record<string, unknown>): HeaderEntry {
  return [`${remoteService}ObjectFilter`, filter];
}

export function resultLimitHeader(limit: number, offset = 0): HeaderEntry {
  return ['resultLimit', { limit, offset }];
}

/**
 * The headers struct, in the reference client's order: auth, the caller's per-call headers
 * (they may override auth), then id, mask, filter and result limit.
 */
export function buildApiHeaders(
  remoteService: string,
  options: CallOptions,
  authHeaders: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...authHeaders, ...options.headers };
  const entries: HeaderEntry[] = [];
  if (options.id !== undefined) entries.push(initParametersHeader(remoteService, options.id));
  if (options.mask !== undefined) entries.push(maskHeader(remoteService, options.mask));
  if (options.filter !== undefined) entries.push(filterHeader(remoteService, options.filter));
  if (options.limit !== undefined) entries.push(resultLimitHeader(options.limit, options.offset));
  for (const [key, value] of entries) headers[key] = value;
  return headers;
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
  return out;
}

/**
 * HTTP headers: defaults, then the auth handler's, then the caller's `rawHeaders` (which may
 * override anything, Content-Type and User-Agent included). Keys are lower-cased so overrides
 * match whatever case the caller used.
 */
export function buildHttpHeaders(
  options: CallOptions,
  authHttpHeaders: Record<string, string> | undefined,
  userAgent: string,
): Record<string, string> {
  return {
    'content-type': 'text/xml',
    'user-agent': userAgent,
    accept: '*/*',
    'accept-encoding': options.compress === false ? 'identity' : 'gzip',
    ...lowerKeys(authHttpHeaders),
    ...lowerKeys(options.rawHeaders),
  };
}

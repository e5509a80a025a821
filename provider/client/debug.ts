import type { CallOptions } from './options';

/**
 * What the request/response hooks see, and the one-line description the `verbose` logger prints.
 * Never credentials: the headers struct is not included, and the arguments of login methods
 * (which carry passwords) are masked.
 */

export interface RequestInfo {
  service: string;
  method: string;
  url: string;
  /** 1 for the first try, then 2, 3... on retries. */
  attempt: number;
  id?: unknown;
  mask?: unknown;
  filter?: unknown;
  limit?: number;
  offset?: number;
  args: readonly unknown[];
}

export interface ResponseInfo {
  service: string;
  method: string;
  attempt: number;
  /** HTTP status; absent when no response arrived or when the call ended in a fault. */
  status?: number;
  durationMs: number;
  totalItems?: number;
  error?: Error;
}

/** Methods whose positional arguments are credentials. */
const SECRET_ARG_METHODS = new Set([
  'getPortalLoginToken',
  'performExternalAuthentication',
  'refreshEncryptedToken',
  'getEncryptedSessionToken',
]);

export function loggableArgs(method: string, args: readonly unknown[]): readonly unknown[] {
  return SECRET_ARG_METHODS.has(method) ? args.map(() => '*************') : args;
}

export function requestInfo(
  service: string,
  method: string,
  url: string,
  attempt: number,
  options: CallOptions,
): RequestInfo {
  const { id, mask, filter, limit, offset } = options;
  const info: RequestInfo = {
    service,
    method,
    url,
    attempt,
    args: loggableArgs(method, options.args ?? []),
  };
  return Object.assign(
    info,
    Object.fromEntries(
      Object.entries({ id, mask, filter, limit, offset }).filter(([, v]) => v !== undefined),
    ),
  );
}

function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** `Svc_Account::getObject(id=1, mask='id,name', args=[...])`, whitespace in masks collapsed. */
export function describeRequest(info: RequestInfo): string {
  const parts: string[] = [];
  if (info.id !== undefined) parts.push(`id=${show(info.id)}`);
  if (typeof info.mask === 'string') parts.push(`mask='${info.mask.replace(/\s+/g, ' ').trim()}'`);
  else if (info.mask !== undefined) parts.push(`mask=${show(info.mask)}`);
  if (info.filter !== undefined) parts.push(`filter=${show(info.filter)}`);
  if (info.limit !== undefined) parts.push(`limit=${info.limit}`, `offset=${info.offset ?? 0}`);
  if (info.args.length > 0) parts.push(`args=${show(info.args)}`);
  return `${info.service}::${info.method}(${parts.join(', ')})`;
}

export function describeResponse(info: ResponseInfo): string {
  const outcome = info.error ? `${info.error.name}: ${info.error.message}` : 'ok';
  const total = info.totalItems === undefined ? '' : `, ${info.totalItems} items in total`;
  return `${info.service}::${info.method} -> HTTP ${info.status ?? '-'} in ${info.durationMs.toFixed(1)} ms (${outcome}${total})`;
}

/**
 * Per-call options (spec 4.2) and their validation. Unknown options are a `TypeError` naming
 * them, so a typo (`filters`, `raw_headers`) fails loudly instead of being silently ignored.
 */

export interface CallOptions {
  /** Positional arguments of the remote method, in the order the method defines. */
  args?: readonly unknown[];
  /** Id of the object acted upon (sent as `Svc_<Service>InitParameters {id}`). */
  id?: number | bigint | string;
  /** Object mask: a string (bare list or `mask[...]`), or a legacy struct mask. */
  mask?: string | Record<string, unknown>;
  /** Object filter, sent as `Svc_<Service>ObjectFilter`. */
  filter?: Record<string, unknown>;
  /** Extra XML-RPC headers for this call only. */
  headers?: Record<string, unknown>;
  /** Extra HTTP headers for this call only; they override the defaults. */
  rawHeaders?: Record<string, string>;
  /** Ask for a gzip response (default true); false sends `Accept-Encoding: identity`. */
  compress?: boolean;
  /** Return at most this many results (with `iter`: at most this many in total). */
  limit?: number;
  /** Skip this many results; needs `limit` except with `iter`. */
  offset?: number;
  /** Return an async iterator that fetches page after page (see `IterCallOptions`). */
  iter?: boolean;
  /** Page size when `iter` is true (default 100). */
  chunk?: number;
}

/** `iterCall` options: `chunk` is the page size, `limit` the most results in total, `offset` the start. */
export type IterCallOptions = Omit<CallOptions, 'iter'>;

const KNOWN = new Set<string>([
  'args',
  'id',
  'mask',
  'filter',
  'headers',
  'rawHeaders',
  'compress',
  'limit',
  'offset',
  'iter',
  'chunk',
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkCount(where: string, name: string, value: unknown, min: number): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= min)) {
    throw new RangeError(`${where}: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
}

function checkType(
  where: string,
  name: string,
  value: unknown,
  ok: boolean,
  expected: string,
): void {
  if (value !== undefined && !ok) throw new TypeError(`${where}: ${name} must be ${expected}`);
}

function isStringRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Checks an options object; `where` (e.g. `Svc_Account::getObject`) goes into the messages.
 * In paging mode (`iterCall` or `iter: true`) `limit` is the total and `offset` needs no limit.
 * No closures here: this runs on every call.
 */
export function validateCallOptions(options: unknown, where: string, paging: boolean): CallOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be a plain object`);
  for (const key in options) {
    if (!KNOWN.has(key)) throw unknownOptions(options, where);
  }
  const o = options as CallOptions;
  checkType(where, 'args', o.args, Array.isArray(o.args), 'an array');
  checkType(where, 'id', o.id, ID_TYPES.has(typeof o.id), 'a number, bigint or string');
  checkType(
    where,
    'mask',
    o.mask,
    typeof o.mask === 'string' || isPlainObject(o.mask),
    'a string or a plain object',
  );
  checkType(where, 'filter', o.filter, isPlainObject(o.filter), 'a plain object');
  checkType(where, 'headers', o.headers, isPlainObject(o.headers), 'a plain object');
  checkType(
    where,
    'rawHeaders',
    o.rawHeaders,
    isStringRecord(o.rawHeaders),
    'a plain object of strings',
  );
  checkType(where, 'compress', o.compress, typeof o.compress === 'boolean', 'a boolean');
  checkType(where, 'iter', o.iter, typeof o.iter === 'boolean', 'a boolean');
  checkCount(where, 'limit', o.limit, 1);
  checkCount(where, 'offset', o.offset, 0);
  checkCount(where, 'chunk', o.chunk, 1);
  if (!paging && o.chunk !== undefined) {
    throw new TypeError(
      `${where}: chunk is the page size of iterCall; use it with iter: true or iterCall`,
    );
  }
  if (!paging && o.offset !== undefined && o.limit === undefined) {
    throw new TypeError(
      `${where}: offset needs limit (offset=${o.offset} without limit); pages are limit=10, offset=0 then limit=10, offset=10`,
    );
  }
  return o;
}

const ID_TYPES = new Set(['number', 'bigint', 'string']);

function unknownOptions(options: object, where: string): TypeError {
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  const names = unknown.map((key) => `'${key}'`).join(', ');
  return new TypeError(
    `${where}: unknown option${unknown.length > 1 ? 's' : ''} ${names} (valid: ${[...KNOWN].join(', ')})`,
  );
}

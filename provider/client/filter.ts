/**
 * Helpers that build object filters (spec "Object filter"; reference client `utils.py`).
 * A filter is `{collection: {field: {operation, options?}}}`; these build the leaf conditions and
 * put them at a path.
 */

export type FilterOperation = string | number;

export interface FilterCondition {
  operation: FilterOperation;
  options?: { name: string; value: (string | number)[] }[];
}

export interface Filter {
  [key: string]: Filter | FilterCondition;
}

/** Operators a string condition may start with, longest first so `!*=` wins over `!=`. */
const OPERATORS = [
  '!*=',
  '!^=',
  '!$=',
  '!=',
  '!~',
  '<=',
  '>=',
  '*=',
  '^=',
  '$=',
  '_=',
  '<',
  '>',
  '~',
];
const NULL_TESTS = new Set(['not null', 'is null']);

/**
 * One condition from a value: integers (and integer strings, booleans as 1/0) match exactly;
 * a string that starts with an operator keeps it (`'>10'` -> `'> 10'`); `'*x*'` -> contains,
 * `'*x'` -> ends with, `'x*'` -> starts with; any other string -> case-insensitive equality `'_= x'`.
 */
export function queryFilter(value: string | number | boolean): FilterCondition {
  if (typeof value === 'boolean') return { operation: value ? 1 : 0 };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`queryFilter: not a finite number: ${value}`);
    return { operation: Math.trunc(value) };
  }
  const text = value.trim();
  if (/^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text)))
    return { operation: Number(text) };
  if (NULL_TESTS.has(text.toLowerCase())) return { operation: text.toLowerCase() };
  const op = OPERATORS.find((candidate) => text.startsWith(candidate));
  if (op !== undefined) return { operation: `${op} ${text.slice(op.length).trim()}` };
  if (text.length > 1 && text.startsWith('*') && text.endsWith('*')) {
    return { operation: `*= ${text.slice(1, -1)}` };
  }
  if (text.startsWith('*')) return { operation: `$= ${text.slice(1)}` };
  if (text.endsWith('*')) return { operation: `^= ${text.slice(0, -1)}` };
  return { operation: `_= ${text}` };
}

const DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/;

/**
 * The API reads filter dates in its own time zone, US Central; the dates it returns carry that
 * offset (`...T09:00:00-06:00`). Daylight saving time is not modelled: -06:00 all year.
 */
export const API_UTC_OFFSET_MINUTES = -360;

/**
 * The API's date text, `MM/DD/YYYY H:M:S` as the spec writes it (24-hour clock), in the API's
 * time zone. A string `YYYY-MM-DD[ HH:MM[:SS]]` is taken literally, as API-zone wall time; a `Date`
 * is an instant and is converted to the API zone.
 */
export function formatFilterDate(date: Date | string): string {
  let parts: number[];
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new RangeError('formatFilterDate: invalid Date');
    const wall = new Date(date.getTime() + API_UTC_OFFSET_MINUTES * 60_000);
    parts = [
      wall.getUTCFullYear(),
      wall.getUTCMonth() + 1,
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
      wall.getUTCSeconds(),
    ];
  } else {
    const m = DAY.exec(date.trim());
    if (!m)
      throw new RangeError(`formatFilterDate: expected YYYY-MM-DD[ HH:MM[:SS]], got '${date}'`);
    parts = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  }
  const [year, month, day, hours, minutes, seconds] = parts;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(month)}/${pad(day)}/${year} ${hours}:${minutes}:${seconds}`;
}

/** A `betweenDate` condition from `start` to `end` (see `formatFilterDate` for accepted inputs). */
export function queryFilterDate(start: Date | string, end: Date | string): FilterCondition {
  return {
    operation: 'betweenDate',
    options: [
      { name: 'startDate', value: [formatFilterDate(start)] },
      { name: 'endDate', value: [formatFilterDate(end)] },
    ],
  };
}

/** An `orderBy` condition; a lower `sortOrder` sorts first when several fields are ordered. */
export function orderBy(sort: 'ASC' | 'DESC' = 'ASC', sortOrder?: number): FilterCondition {
  const options: { name: string; value: (string | number)[] }[] = [{ name: 'sort', value: [sort] }];
  if (sortOrder !== undefined) options.push({ name: 'sortOrder', value: [sortOrder] });
  return { operation: 'orderBy', options };
}

/**
 * Puts a condition at a dotted path (`'virtualGuests.datacenter.name'`), merged into `into`
 * when given (without modifying it): `nestedFilter('virtualGuests.domain', queryFilter('x.com'))`.
 */
export function nestedFilter(
  path: string | readonly string[],
  condition: FilterCondition,
  into?: Filter,
): Filter {
  const keys = typeof path === 'string' ? path.split('.') : [...path];
  if (keys.length === 0 || keys.some((key) => key === '')) {
    throw new TypeError(`nestedFilter: bad path '${String(path)}'`);
  }
  let node: Filter | FilterCondition = condition;
  for (let i = keys.length - 1; i >= 0; i--) node = { [keys[i]]: node };
  return into === undefined ? (node as Filter) : mergeFilters(into, node as Filter);
}

function isCondition(value: unknown): value is FilterCondition {
  return typeof value === 'object' && value !== null && 'operation' in value;
}

function isBranch(value: unknown): value is Filter {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !isCondition(value)
  );
}

/** Deep-merges filters into a new one; where two give a condition for the same field, the later wins. */
export function mergeFilters(...filters: readonly Filter[]): Filter {
  const out: Filter = {};
  for (const filter of filters) {
    for (const [key, value] of Object.entries(filter)) {
      const existing = out[key];
      out[key] = isBranch(existing) && isBranch(value) ? mergeFilters(existing, value) : value;
    }
  }
  return out;
}

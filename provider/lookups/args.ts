import { isUnknown } from '../framework/unknown';
import {
  Failures,
  LIMITS,
  ValidationError,
  badCharacter,
  describeValue,
  isPlainObject,
} from '../framework/failures';

/**
 * Argument checks of the lookups: each lookup validates its arguments before any call and throws
 * one `ValidationError` listing every wrong argument (named, with its rule and what was given).
 */

type Args = Record<string, unknown>;
type Check = (args: Args, failures: Failures) => void;

const MASK_CHARS = /^[A-Za-z0-9_.,[\]()\s]+$/;
const FILTER_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The arguments object itself: absent, or a plain object with only the known names. */
function argsObject(where: string, args: unknown, known: readonly string[]): Args {
  if (args === undefined || args === null) return {};
  if (!isPlainObject(args)) {
    throw new ValidationError(where, [
      {
        property: 'args',
        reason: `the arguments must be an object${known.length ? ` with ${known.join(', ')}` : ' (there are none)'}, got ${describeValue(args)}`,
      },
    ]);
  }
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new ValidationError(
      where,
      unknown.map((key) => ({
        property: key,
        reason: `unknown argument '${key}' (${known.length ? `known: ${known.join(', ')}` : 'it takes none'})`,
      })),
    );
  }
  return args;
}

/** Validates and returns the arguments of `where`, or throws its ValidationError. */
export function lookupArgs<A extends object>(
  where: string,
  args: unknown,
  known: readonly string[],
  check: Check = () => undefined,
): A {
  const bag = argsObject(where, args, known);
  const failures = new Failures();
  check(bag, failures);
  if (failures.list.length > 0) throw new ValidationError(where, failures.list);
  return bag as A;
}

export function checkMask(failures: Failures, value: unknown): void {
  if (value === '' || value === null) {
    failures.wrong('mask', 'a non-empty object mask (leave it out for the default)', value);
    return;
  }
  if (!failures.string('mask', value, { maxLength: LIMITS.mask })) return;
  const mask = value as string;
  let depth = 0;
  for (const c of mask) {
    if (c === '[' || c === '(') depth++;
    if (c === ']' || c === ')') depth--;
    if (depth < 0) break;
  }
  if (mask.trim() === '' || !MASK_CHARS.test(mask) || depth !== 0) {
    failures.wrong(
      'mask',
      'an object mask such as "id,hostname,datacenter.name" (names, dots, commas and balanced brackets)',
      value,
    );
  }
}

/** Why a filter node is not a valid object filter, or undefined (walks at most LIMITS nodes). */
function filterProblem(
  node: unknown,
  at: string,
  depth: number,
  budget: { nodes: number },
): string | undefined {
  if (--budget.nodes < 0) return `filter has more than ${LIMITS.filterNodes} parts`;
  if (depth > LIMITS.filterDepth)
    return `filter is nested deeper than ${LIMITS.filterDepth} levels`;
  if (!isPlainObject(node)) return `${at} must be an object, got ${describeValue(node)}`;
  for (const [key, value] of Object.entries(node)) {
    const where = `${at}.${key}`;
    if (key === 'operation') {
      const ok =
        (typeof value === 'string' && !badCharacter(value)) ||
        (typeof value === 'number' && Number.isFinite(value));
      if (!ok) return `${where} must be a string or a finite number, got ${describeValue(value)}`;
    } else if (key === 'options') {
      const problem = optionsProblem(value, where);
      if (problem) return problem;
    } else if (!FILTER_KEY.test(key)) {
      return `${at} has the key ${JSON.stringify(key)}, which is not a property name`;
    } else {
      const problem = filterProblem(value, where, depth + 1, budget);
      if (problem) return problem;
    }
  }
  return undefined;
}

function optionsProblem(value: unknown, at: string): string | undefined {
  const scalar = (v: unknown) =>
    (typeof v === 'string' && !badCharacter(v)) || (typeof v === 'number' && Number.isFinite(v));
  const ok =
    Array.isArray(value) &&
    value.length <= LIMITS.filterNodes &&
    value.every(
      (o) =>
        isPlainObject(o) &&
        typeof o.name === 'string' &&
        Array.isArray(o.value) &&
        o.value.length <= LIMITS.filterNodes &&
        o.value.every(scalar),
    );
  return ok
    ? undefined
    : `${at} must be a list of { name, value: [strings or numbers] }, got ${describeValue(value)}`;
}

/** The API's own object filter: rooted at the objects listed (`{ virtualGuests: { ... } }`). */
const isObjectFilter = (value: Args, root: string) =>
  Object.keys(value).length === 1 && root in value;

/** Why a filter by property path (`{ 'datacenter.name': { operation: 'dal10' } }`) is wrong. */
function conditionsProblem(value: Args, root: string): string | undefined {
  if (Object.keys(value).length > LIMITS.filterNodes)
    return `filter has more than ${LIMITS.filterNodes} parts`;
  for (const [path, condition] of Object.entries(value)) {
    const at = `filter[${JSON.stringify(path)}]`;
    if (!path.split('.').every((part) => FILTER_KEY.test(part)))
      return `${at}: the key must be a property path such as datacenter.name (names and dots)`;
    if (!isPlainObject(condition))
      return `${at} must be a condition such as { operation: 'dal10' }, got ${describeValue(condition)}`;
    const other = Object.keys(condition).find((k) => k !== 'operation' && k !== 'options');
    if (other !== undefined)
      return `${at} has the key ${JSON.stringify(other)}: a condition takes operation and options`;
    if (!('operation' in condition) && !('options' in condition))
      return `${at} has no operation or options: a condition such as { operation: 'dal10' } (or an object filter that starts at ${root})`;
  }
  return undefined;
}

/**
 * A lookup's filter as the API takes it, rooted at `root`: a filter by property path becomes
 * the object filter (`{ 'datacenter.name': c }` → `{ [root]: { datacenter: { name: c } } }`);
 * the object filter itself passes unchanged.
 */
export function objectFilter(value: Args, root: string): Args {
  if (isObjectFilter(value, root)) return value;
  const tree: Args = {};
  for (const [path, condition] of Object.entries(value)) {
    let node = tree;
    for (const part of path.split('.')) {
      // An own property even for `__proto__` or `constructor`: nothing reaches a prototype.
      if (!Object.hasOwn(node, part))
        Object.defineProperty(node, part, { value: {}, enumerable: true, writable: true });
      node = node[part] as Args;
    }
    Object.assign(node, condition);
  }
  return { [root]: tree };
}

/**
 * A lookup's filter: conditions by property path of the objects listed (what every SDK writes),
 * or the API's object filter rooted at `root` (e.g. `{ virtualGuests: { domain: { operation:
 * 'x' } } }`); either is checked as the object filter the API gets.
 */
export function checkFilter(failures: Failures, value: unknown, root: string): void {
  if (value === undefined || isUnknown(value)) return;
  if (!isPlainObject(value)) {
    failures.wrong(
      'filter',
      `an object filter: conditions by property path such as { 'datacenter.name': { operation: 'dal10' } }, or { ${root}: { ... } }`,
      value,
    );
    return;
  }
  const problem =
    (isObjectFilter(value, root) ? undefined : conditionsProblem(value, root)) ??
    filterProblem(objectFilter(value, root), 'filter', 0, { nodes: LIMITS.filterNodes });
  if (problem) failures.add('filter', problem);
}

function dateProblem(label: string, value: unknown): string | undefined {
  const ok =
    (value instanceof Date && !Number.isNaN(value.getTime())) ||
    (typeof value === 'string' && !badCharacter(value) && !Number.isNaN(Date.parse(value)));
  return ok
    ? undefined
    : `${label} must be a date (a Date or an ISO 8601 string), got ${describeValue(value)}`;
}

/** `{ start, end }`, both dates, start not after end. */
export function checkDateRange(failures: Failures, value: unknown, property: string): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    failures.wrong(property, 'an object { start, end } of dates', value);
    return;
  }
  const extra = Object.keys(value).find((key) => key !== 'start' && key !== 'end');
  const problem =
    (extra !== undefined && `${property} takes only start and end, got ${JSON.stringify(extra)}`) ||
    dateProblem(`${property}.start`, value.start) ||
    dateProblem(`${property}.end`, value.end);
  if (problem) {
    failures.add(property, problem);
    return;
  }
  if (new Date(value.start as string).getTime() > new Date(value.end as string).getTime()) {
    failures.add(property, `${property}.start must not be after ${property}.end`);
  }
}

/** An object named by `id`, or by `hostname` and `domain` (one way, not both): `what` is "a guest's". */
export function checkIdOrName(
  failures: Failures,
  a: { id?: unknown; hostname?: unknown; domain?: unknown },
  what: string,
): void {
  const byName = a.hostname !== undefined || a.domain !== undefined;
  if ((a.id !== undefined) === byName) {
    failures.add('id', 'give either id, or hostname and domain');
  } else if (a.id !== undefined) {
    if (!/^[1-9][0-9]*$/.test(String(a.id)))
      failures.add('id', `id must be ${what} numeric id, got ${JSON.stringify(a.id)}`);
  } else {
    failures.hostname('hostname', a.hostname, true);
    failures.domain('domain', a.domain, true);
  }
}

/**
 * Object filters: a nested struct that walks properties from the service's type down to local
 * properties, each leaf `{operation, options?}`. Compiled once per call into a tree of
 * predicates (several leaves = AND; a condition under a list relation holds when some element
 * satisfies it, like a SQL join) and sort keys from `orderBy` leaves. Unknown properties fault.
 */
import { DAY_MS, parseFilterDate, startOfApiDay } from '../dates';
import { ApiFault, FaultCodes, publicFault } from '../errors';
import { relationItems, typeDef, type Relation, type TypeDef, type ViewContext } from '../schema';

type Getter = (object: unknown, ctx: ViewContext) => unknown;
type Test = (value: unknown) => boolean;

interface Condition {
  get: Getter;
  test: Test;
}

interface Sort {
  relations: Relation[];
  get: Getter;
  desc: boolean;
  order: number;
  seq: number;
}

export interface FilterNode {
  readonly type: TypeDef;
  readonly conditions: Condition[];
  readonly children: Map<string, { relation: Relation; node: FilterNode }>;
  readonly sorts: Sort[];
}

const MAX_DEPTH = 16;
const MAX_REGEX_LENGTH = 256;

const isStruct = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

const filterFault = (detail: string) => publicFault(`Invalid object filter: ${detail}`);

/** Compiles `filter` against `type`; `now` anchors relative dates (`> sysdate - 30`). */
export function compileFilter(type: TypeDef, filter: unknown, now: number, path = ''): FilterNode {
  let seq = 0;
  const compileNode = (t: TypeDef, value: unknown, at: string, depth: number): FilterNode => {
    if (depth > MAX_DEPTH) throw filterFault('it is nested too deeply.');
    if (!isStruct(value)) throw filterFault(`the value at '${at || 'the root'}' must be a struct.`);
    const node: FilterNode = { type: t, conditions: [], children: new Map(), sorts: [] };
    for (const [key, spec] of Object.entries(value)) {
      const where = at ? `${at}.${key}` : key;
      const relation = t.relations.get(key);
      if (relation) {
        if (isStruct(spec) && Object.hasOwn(spec, 'operation')) {
          throw filterFault(
            `'${where}' is a relational property of '${t.name}'; filter on one of its properties.`,
          );
        }
        node.children.set(key, {
          relation,
          node: compileNode(typeDef(relation.type), spec, where, depth + 1),
        });
        continue;
      }
      const get = (t.locals.get(key) ?? t.onDemand.get(key)) as Getter | undefined;
      if (!get) {
        throw new ApiFault(
          FaultCodes.public,
          `Property '${key}' not valid for '${t.name}' (object filter '${where}').`,
        );
      }
      if (!isStruct(spec) || !Object.hasOwn(spec, 'operation')) {
        throw filterFault(`'${where}' must be a struct with an 'operation'.`);
      }
      const compiled = compileOperation(spec.operation, spec.options, where, now);
      if ('sort' in compiled) {
        node.sorts.push({
          relations: [],
          get,
          desc: compiled.sort.desc,
          order: compiled.sort.order,
          seq: seq++,
        });
      } else {
        node.conditions.push({ get, test: compiled.test });
      }
    }
    for (const [, child] of node.children) {
      for (const s of child.node.sorts)
        node.sorts.push({ ...s, relations: [child.relation, ...s.relations] });
    }
    return node;
  };
  return compileNode(type, filter, path, 1);
}

/** True when `object` satisfies every condition of `node`. */
export function matches(node: FilterNode, object: unknown, ctx: ViewContext): boolean {
  for (const c of node.conditions) {
    // A list of plain values (a pod's `capabilities`) matches when one of them does.
    const value = c.get(object, ctx);
    if (Array.isArray(value) ? !value.some((v) => c.test(v)) : !c.test(value)) return false;
  }
  for (const [, { relation, node: child }] of node.children) {
    const items = relationItems(relation, object, ctx);
    if (items.length === 0) {
      if (!matchesAbsent(child)) return false;
    } else if (!items.some((item) => matches(child, item, ctx))) {
      return false;
    }
  }
  return true;
}

/** An absent related object behaves like one whose properties are all null (`is null` holds). */
function matchesAbsent(node: FilterNode): boolean {
  return (
    node.conditions.every((c) => c.test(undefined)) &&
    [...node.children.values()].every((c) => matchesAbsent(c.node))
  );
}

/** Stable sort by the node's orderBy keys (lower sortOrder first, then filter order). */
export function sortByFilter<T>(node: FilterNode, items: T[], ctx: ViewContext): T[] {
  if (node.sorts.length === 0) return items;
  const sorts = [...node.sorts].sort((a, b) => a.order - b.order || a.seq - b.seq);
  const keyed = items.map((item, index) => ({
    item,
    index,
    keys: sorts.map((s) => sortKey(s, item, ctx)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < sorts.length; i += 1) {
      const c = compareKeys(a.keys[i], b.keys[i]);
      if (c !== 0) return sorts[i].desc ? -c : c;
    }
    return a.index - b.index;
  });
  return keyed.map((k) => k.item);
}

function sortKey(sort: Sort, item: unknown, ctx: ViewContext): number | string | null {
  let current: unknown = item;
  for (const relation of sort.relations) {
    current = relationItems(relation, current, ctx)[0];
    if (current === undefined) return null;
  }
  const value = sort.get(current, ctx);
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return String(value).toLowerCase();
}

function compareKeys(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

// ---------------------------------------------------------------------------------------------
// Operations

type Compiled = { test: Test } | { sort: { desc: boolean; order: number } };

const PREFIX_OPERATORS = [
  '!^=',
  '!$=',
  '!*=',
  '!=',
  '^=',
  '$=',
  '*=',
  '_=',
  '<=',
  '>=',
  '!~',
  '~',
  '<',
  '>',
];

function compileOperation(
  operation: unknown,
  options: unknown,
  where: string,
  now: number,
): Compiled {
  if (typeof operation === 'number' || typeof operation === 'boolean') {
    return { test: (v) => equals(v, operation) };
  }
  if (typeof operation !== 'string') {
    throw filterFault(`the operation of '${where}' must be a string or a number.`);
  }
  const text = operation.trim();
  const opts = readOptions(options, where);
  return (
    keywordOperation(text.toLowerCase(), operation, opts, where, now) ??
    prefixOperation(text, where, now)
  );
}

type Options = ReturnType<typeof readOptions>;

/** `is null`, `orderBy`, `in`, `or`, `and` and the date operations; undefined for another. */
function keywordOperation(
  keyword: string,
  operation: string,
  opts: Options,
  where: string,
  now: number,
): Compiled | undefined {
  switch (keyword) {
    case 'is null':
      return { test: (v) => v === null || v === undefined };
    case 'not null':
      return { test: (v) => v !== null && v !== undefined };
    case 'orderby': {
      const sort = (opts.get('sort')?.[0] ?? 'ASC').toString().toUpperCase();
      if (sort !== 'ASC' && sort !== 'DESC')
        throw filterFault(`orderBy on '${where}' needs sort ASC or DESC.`);
      const order = Number(opts.get('sortOrder')?.[0] ?? 0);
      return { sort: { desc: sort === 'DESC', order: Number.isFinite(order) ? order : 0 } };
    }
    case 'in': {
      const values = requireOption(opts, 'data', where, 'in');
      return { test: (v) => values.some((x) => equals(v, x)) };
    }
    case 'or':
    case 'and': {
      const parts = requireOption(opts, 'data', where, keyword).map((x) =>
        compileOperation(x, undefined, where, now),
      );
      const tests = parts.map((p) => {
        if (!('test' in p)) throw filterFault(`'${keyword}' on '${where}' cannot contain orderBy.`);
        return p.test;
      });
      return keyword === 'or'
        ? { test: (v) => tests.some((t) => t(v)) }
        : { test: (v) => tests.every((t) => t(v)) };
    }
    default:
      return dateOperation(keyword, operation, opts, where);
  }
}

function dateOperation(
  keyword: string,
  operation: string,
  opts: Options,
  where: string,
): Compiled | undefined {
  switch (keyword) {
    case 'betweendate':
    case 'notbetweendate': {
      const start = dateOption(opts, 'startDate', where, operation);
      const end = dateOption(opts, 'endDate', where, operation);
      const inside: Test = (v) => withDate(v, (ms) => ms >= start && ms <= end);
      return keyword === 'betweendate'
        ? { test: inside }
        : { test: (v) => dateOf(v) !== undefined && !inside(v) };
    }
    case 'isdate': {
      const day = startOfApiDay(dateOption(opts, 'date', where, operation));
      return { test: (v) => withDate(v, (ms) => ms >= day && ms < day + DAY_MS) };
    }
    case 'lessthandate': {
      const limit = dateOption(opts, 'date', where, operation);
      return { test: (v) => withDate(v, (ms) => ms < limit) };
    }
    case 'greaterthandate': {
      const limit = dateOption(opts, 'date', where, operation);
      return { test: (v) => withDate(v, (ms) => ms > limit) };
    }
    default:
      return undefined;
  }
}

/** `!=`, `^=`, `*=`, `~`, `<`, ... followed by the operand; a plain value is equality. */
function prefixOperation(text: string, where: string, now: number): Compiled {
  const op = PREFIX_OPERATORS.find((p) => text.startsWith(p));
  if (!op) return { test: (v) => equals(v, text) };
  const operand = text.slice(op.length).trim();
  const lower = operand.toLowerCase();
  const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v).toLowerCase());
  const negate =
    (t: Test): Test =>
    (v) =>
      v !== null && v !== undefined && !t(v);
  switch (op) {
    case '!=':
      return { test: negate((v) => equals(v, operand)) };
    case '^=':
      return { test: (v) => str(v)?.startsWith(lower) ?? false };
    case '!^=':
      return { test: negate((v) => str(v)!.startsWith(lower)) };
    case '$=':
      return { test: (v) => str(v)?.endsWith(lower) ?? false };
    case '!$=':
      return { test: negate((v) => str(v)!.endsWith(lower)) };
    case '*=':
      return { test: (v) => str(v)?.includes(lower) ?? false };
    case '!*=':
      return { test: negate((v) => str(v)!.includes(lower)) };
    case '_=': {
      const re = new RegExp(`^${operand.split('*').map(escapeRegex).join('.*')}$`, 'i');
      return { test: (v) => v !== null && v !== undefined && re.test(String(v)) };
    }
    case '~':
    case '!~': {
      const re = safeRegex(operand, where);
      const test: Test = (v) => v !== null && v !== undefined && re.test(String(v));
      return { test: op === '~' ? test : negate(test) };
    }
    default:
      return { test: comparison(op, operand, where, now) };
  }
}

function comparison(op: string, operand: string, where: string, now: number): Test {
  if (operand === '') throw filterFault(`'${op}' on '${where}' needs a value.`);
  const relative = /^(sysdate|currentdate)\s*(?:([+-])\s*(\d+(?:\.\d+)?))?$/i.exec(operand);
  const numeric = toNumber(operand);
  const date = relative
    ? now + (relative[2] === '-' ? -1 : 1) * Number(relative[3] ?? 0) * DAY_MS
    : Number.isNaN(numeric)
      ? parseFilterDate(operand)
      : undefined;
  const cmp = (c: number) =>
    op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  return (v) => {
    if (v === null || v === undefined) return false;
    if (date !== undefined) {
      const ms = dateOf(v);
      return ms !== undefined && cmp(ms - date);
    }
    const n = toNumber(v);
    if (!Number.isNaN(numeric) && !Number.isNaN(n)) return cmp(n - numeric);
    const s = String(v).toLowerCase();
    const o = operand.toLowerCase();
    return cmp(s < o ? -1 : s > o ? 1 : 0);
  };
}

function readOptions(options: unknown, where: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  if (options === undefined || options === null) return out;
  const list = Array.isArray(options) ? options : isStruct(options) ? Object.values(options) : null;
  if (!list) throw filterFault(`the options of '${where}' must be an array of {name, value}.`);
  for (const option of list) {
    if (!isStruct(option) || typeof option.name !== 'string') {
      throw filterFault(`each option of '${where}' must be a struct with a 'name'.`);
    }
    const value = option.value;
    out.set(option.name, Array.isArray(value) ? value : [value]);
  }
  return out;
}

function requireOption(
  opts: Map<string, unknown[]>,
  name: string,
  where: string,
  op: string,
): unknown[] {
  const values = opts.get(name);
  if (!values) throw filterFault(`'${op}' on '${where}' needs an option named '${name}'.`);
  return values;
}

function dateOption(opts: Map<string, unknown[]>, name: string, where: string, op: string): number {
  const [value] = requireOption(opts, name, where, op);
  const ms = typeof value === 'string' ? parseFilterDate(value) : undefined;
  if (ms === undefined) {
    throw filterFault(
      `'${op}' on '${where}': option '${name}' must be a date like 'MM/DD/YYYY HH:MM:SS', got '${String(value)}'.`,
    );
  }
  return ms;
}

function dateOf(v: unknown): number | undefined {
  return typeof v === 'string' ? parseFilterDate(v) : undefined;
}

function withDate(v: unknown, test: (ms: number) => boolean): boolean {
  const ms = dateOf(v);
  return ms !== undefined && test(ms);
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return Number.NaN;
}

/** Plain equality: booleans and numbers compare as values, everything else as exact text. */
function equals(v: unknown, operand: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') {
    const o = typeof operand === 'string' ? operand.trim().toLowerCase() : operand;
    if (o === true || o === 1 || o === '1' || o === 'true') return v;
    if (o === false || o === 0 || o === '0' || o === 'false') return !v;
    return false;
  }
  const a = toNumber(v);
  const b = toNumber(operand);
  if (
    !Number.isNaN(a) &&
    !Number.isNaN(b) &&
    (typeof v === 'number' || typeof operand === 'number')
  ) {
    return a === b;
  }
  return String(v) === String(operand);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `~` takes a regular expression; reject what could backtrack catastrophically. */
function safeRegex(source: string, where: string): RegExp {
  if (source.length > MAX_REGEX_LENGTH)
    throw filterFault(`the pattern for '${where}' is too long.`);
  if (/\([^)]*[+*}][^)]*\)\s*[+*{]/.test(source) || /\\[1-9]/.test(source)) {
    throw filterFault(
      `the pattern for '${where}' has nested repetition or back-references, which are not supported.`,
    );
  }
  try {
    return new RegExp(source);
  } catch (err) {
    throw filterFault(
      `the pattern for '${where}' is not a valid regular expression (${(err as Error).message}).`,
    );
  }
}

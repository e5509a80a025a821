/**
 * XML-RPC encoder: one pass over the value, writing UTF-8 bytes (byte-writer.ts) with the tags
 * as prepared byte runs, and one string at the end. No whitespace between tags.
 *
 * Mapping: int32 integers -> <int>; other safe integers and bigints (int64 range) -> <i8>;
 * other finite numbers, including integers beyond 2^53 -> <double> (String(x), exact on
 * reading); boolean -> <boolean>1/0; string -> <string>; null -> <nil/>; undefined -> <nil/>
 * as a param or array item and an omitted member in a struct; Date -> <dateTime.iso8601>
 * (see iso8601.ts); Uint8Array/Buffer -> <base64>; array -> <array>; plain object -> <struct>.
 * Anything else (NaN, functions, symbols, Maps, class instances, cycles) is a TypeError that
 * says where in the value the problem is.
 */

import { ByteTemplate } from './byte-template';
import { writeString, type ByteWriter } from './byte-writer';
import * as elements from './elements';
import { formatIso8601, isFormattableDate } from './iso8601';
import type { Fault } from './types';
import { Unencodable } from './unencodable';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { ARRAY, BASE64, BOOLEAN, DATETIME, DOUBLE, ELEMENT_NAMES, I8, INT, NIL, STRING, STRUCT } =
  elements;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Far beyond any real payload (decoders default to 64), and far from a stack overflow. */
const MAX_NESTING = 256;
/** Struct members whose name tags are remembered per depth and position (see `memberStart`). */
const MAX_REMEMBERED_MEMBERS = 256;
const MAX_REMEMBERED_DEPTH = 16;

const run = (text: string) => ByteTemplate.of(text);
const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';
const CALL_START = run(PROLOG + '<methodCall><methodName>');
const CALL_PARAMS = run('</methodName><params>');
const CALL_END = run('</params></methodCall>');
const RESPONSE_START = run(PROLOG + '<methodResponse><params><param><value>');
const RESPONSE_END = run('</param></params></methodResponse>');
const FAULT_START = run(PROLOG + '<methodResponse><fault><value>');
const FAULT_END = run('</fault></methodResponse>');
const PARAM_START = run('<param><value>');
const ITEM_START = run('<value>');
const MEMBER_START = run('<member><name>');
const MEMBER_NAME_END = run('</name><value>');
const TRUE = run('<boolean>1');
const FALSE = run('<boolean>0');
/**
 * Per element code, what a value of that type starts with, and what ends it together with the
 * `</value>` around it, `</value></param>` or `</value></member>`.
 */
const STARTS = byType((name, code) =>
  code === NIL ? '<nil/>' : code === ARRAY ? '<array><data>' : `<${name}>`,
);
const closing = (name: string, code: number) =>
  code === NIL ? '' : code === ARRAY ? '</data></array>' : `</${name}>`;
const ENDS = byType((name, code) => closing(name, code) + '</value>');
const PARAM_ENDS = byType((name, code) => closing(name, code) + '</value></param>');
const MEMBER_ENDS = byType((name, code) => closing(name, code) + '</value></member>');

function byType(make: (name: string, code: number) => string): ByteTemplate[] {
  const types = [INT, I8, DOUBLE, BOOLEAN, STRING, DATETIME, BASE64, NIL, STRUCT, ARRAY];
  return ELEMENT_NAMES.map((name, code) => run(types.includes(code) ? make(name, code) : '----'));
}

export function encodeMethodCall(methodName: string, params: readonly unknown[]): string {
  if (typeof methodName !== 'string' || methodName === '') {
    throw new TypeError('methodName must be a non-empty string');
  }
  return encode((writer) => {
    writer.out.template(CALL_START);
    writer.text(methodName, ['methodName']);
    writer.out.template(CALL_PARAMS);
    for (let i = 0; i < params.length; i++) {
      writer.out.template(PARAM_START);
      writer.out.template(PARAM_ENDS[writer.value(params[i], ['params', i])]);
    }
    writer.out.template(CALL_END);
  });
}

export function encodeMethodResponse(value: unknown): string {
  return encode((writer) => {
    writer.out.template(RESPONSE_START);
    writer.out.template(ENDS[writer.value(value, ['value'])]);
    writer.out.template(RESPONSE_END);
  });
}

export function encodeFault(fault: Fault): string {
  const { faultCode, faultString } = fault;
  if (typeof faultCode !== 'number' && typeof faultCode !== 'string') {
    throw new TypeError('faultCode must be a number or a string');
  }
  return encode((writer) => {
    writer.out.template(FAULT_START);
    const type = writer.value({ faultCode, faultString: String(faultString) }, ['fault']);
    writer.out.template(ENDS[type]);
    writer.out.template(FAULT_END);
  });
}

function encode(write: (writer: ValueWriter) => void): string {
  return writeString((out) => write(new ValueWriter(out)));
}

type Path = readonly [string, ...(string | number)[]];

/** The start of a member (`<member><name>…</name><value>`) as written for a name. */
interface MemberStart {
  name: string;
  bytes: ByteTemplate;
  ascii: boolean;
}

/**
 * The member starts written last, per struct depth and position: the structs of a listing have
 * the same members in the same order, so most member starts are copied, not escaped again.
 */
const memberStarts: MemberStart[][] = [];

class ValueWriter {
  /** The arrays and structs being written, to turn a cycle into an error instead of a stack overflow. */
  private readonly open: object[] = [];

  constructor(readonly out: ByteWriter) {}

  /**
   * Writes the start of a value and its content; returns its type, whose end the caller writes
   * (with what closes around it). A TypeError naming `where` and the inner path if impossible.
   */
  value(value: unknown, where: Path): number {
    return this.guard(where, () => this.anyValue(value));
  }

  text(text: string, where: Path): void {
    this.guard(where, () => this.out.text(text));
  }

  private guard<T>(where: Path, write: () => T): T {
    try {
      return write();
    } catch (err) {
      if (!(err instanceof Unencodable)) throw err;
      const path = [...where, ...err.path];
      throw new TypeError(`Cannot encode ${formatPath(path)} as XML-RPC: ${err.problem}`);
    }
  }

  private anyValue(value: unknown): number {
    const out = this.out;
    switch (typeof value) {
      case 'string':
        out.template(STARTS[STRING]);
        this.out.text(value);
        return STRING;
      case 'number':
        return this.number(value);
      case 'boolean':
        out.template(value ? TRUE : FALSE);
        return BOOLEAN;
      case 'bigint':
        if (value < INT64_MIN || value > INT64_MAX) {
          throw new Unencodable(`bigint ${value} is outside the 64-bit range of <i8>`);
        }
        out.template(STARTS[I8]);
        out.plain(String(value));
        return I8;
      case 'undefined':
        out.template(STARTS[NIL]);
        return NIL;
      case 'object':
        if (value !== null) return this.objectValue(value);
        out.template(STARTS[NIL]);
        return NIL;
      default:
        throw new Unencodable(`a ${typeof value} has no XML-RPC form`);
    }
  }

  private number(n: number): number {
    let type = DOUBLE;
    if (Number.isInteger(n)) {
      if (n >= INT32_MIN && n <= INT32_MAX) type = INT;
      else if (Number.isSafeInteger(n)) type = I8;
    } else if (!Number.isFinite(n)) {
      throw new Unencodable(`${n} is not representable (XML-RPC has no NaN or Infinity)`);
    }
    this.out.template(STARTS[type]);
    // Decimal, and for doubles the shortest text that reads back as the same number.
    this.out.plain(String(n));
    return type;
  }

  private objectValue(value: object): number {
    if (Array.isArray(value)) return this.container(value, ARRAY);
    if (value instanceof Date) return this.date(value);
    if (value instanceof Uint8Array) {
      const buffer = Buffer.isBuffer(value)
        ? value
        : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      this.out.template(STARTS[BASE64]);
      this.out.plain(buffer.toString('base64'));
      return BASE64;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return this.container(value, STRUCT);
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new Unencodable(`a ${name} is not a plain object, array, Date or Buffer`);
  }

  private date(date: Date): number {
    if (!isFormattableDate(date)) {
      throw new Unencodable('the Date is invalid or its year is outside 0000-9999');
    }
    this.out.template(STARTS[DATETIME]);
    this.out.plain(formatIso8601(date));
    return DATETIME;
  }

  private container(value: object, type: number): number {
    const open = this.open;
    if (open.includes(value)) throw new Unencodable('the value contains itself (a cycle)');
    if (open.length >= MAX_NESTING) {
      throw new Unencodable(`arrays and structs nest deeper than ${MAX_NESTING} levels`);
    }
    open.push(value);
    this.out.template(STARTS[type]);
    if (type === ARRAY) this.items(value as readonly unknown[]);
    else this.members(value as Record<string, unknown>, open.length - 1);
    open.pop();
    return type;
  }

  private items(items: readonly unknown[]): void {
    const out = this.out;
    for (let i = 0; i < items.length; i++) {
      out.template(ITEM_START);
      out.template(ENDS[this.located(i, items[i])]);
    }
  }

  private members(struct: Record<string, unknown>, depth: number): void {
    const starts =
      depth < MAX_REMEMBERED_DEPTH ? (memberStarts[depth] ??= []) : ([] as MemberStart[]);
    let index = 0;
    if (inheritedEnumerables()) {
      for (const key of Object.keys(struct)) index = this.member(key, struct[key], index, starts);
    } else {
      // With nothing enumerable inherited, for-in gives the own keys of Object.keys, and V8
      // reads the values by field index from the shape's enum cache: no array, no lookups.
      for (const key in struct) index = this.member(key, struct[key], index, starts);
    }
  }

  /** Writes member `index` (unless undefined); returns the index of the next. */
  private member(key: string, value: unknown, index: number, starts: MemberStart[]): number {
    if (value === undefined) return index;
    const out = this.out;
    const known = starts[index];
    if (known !== undefined && known.name === key) {
      if (known.ascii) out.template(known.bytes);
      else out.nonAsciiTemplate(known.bytes);
    } else {
      const start = this.memberStart(key);
      if (index < MAX_REMEMBERED_MEMBERS) starts[index] = start;
    }
    out.template(MEMBER_ENDS[this.located(key, value)]);
    return index + 1;
  }

  /** Writes `<member><name>…</name><value>` for `name`, and returns it for the next time. */
  private memberStart(name: string): MemberStart {
    const out = this.out;
    // All of it in the current buffer, to be read back as one run.
    out.reserve(MEMBER_START.length + name.length * 5 + MEMBER_NAME_END.length);
    const mark = out.position;
    out.template(MEMBER_START);
    this.out.text(name);
    out.template(MEMBER_NAME_END);
    const bytes = out.since(mark);
    return { name, bytes: new ByteTemplate(bytes), ascii: bytes.every((b) => b < 0x80) };
  }

  /** Writes a member or item, adding its key to the path of any problem inside it. */
  private located(key: string | number, value: unknown): number {
    try {
      return this.anyValue(value);
    } catch (err) {
      if (err instanceof Unencodable) err.path.unshift(key);
      throw err;
    }
  }
}

/** Whether anything enumerable is inherited by plain objects (someone polluted Object.prototype). */
function inheritedEnumerables(): boolean {
  for (const key in Object.prototype) return key !== undefined;
  return false;
}

/** `params[0].tags[3]`; long paths keep their two ends. */
function formatPath(path: readonly (string | number)[]): string {
  const parts = path.map((key, i) => {
    if (i === 0) return String(key);
    if (typeof key === 'number') return `[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key.slice(0, 40))}]`;
  });
  return parts.length > 12
    ? [...parts.slice(0, 6), '…', ...parts.slice(-5)].join('')
    : parts.join('');
}

/**
 * Writes XML-RPC values as bytes (byte-writer.ts). A value is written as its type's start tag,
 * its content, and an end that also closes what is around it (`</string></value></member>`). In
 * a struct, the end of a member and the start of the next (`</int></value></member><member>
 * <name>id</name><value><string>`) are one copy of prepared bytes, remembered per struct depth
 * and position for the name and the two types, because the structs of a listing repeat their
 * members: a member costs that copy and its content.
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
import { ByteWriter } from './byte-writer';
import * as elements from './elements';
import { formatIso8601, isFormattableDate } from './iso8601';
import { Unencodable } from './unencodable';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const {
  ARRAY,
  BASE64,
  BOOLEAN,
  DATETIME,
  DOUBLE,
  I8,
  INT,
  NIL,
  NONE,
  STRING,
  STRUCT,
  templatesFor,
} = elements;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Far beyond any real payload (decoders default to 64), and far from a stack overflow. */
const MAX_NESTING = 256;
/** Member starts are remembered for this many positions and depths. */
const MAX_REMEMBERED_MEMBERS = 256;
const MAX_REMEMBERED_DEPTH = 16;

const TYPES = [INT, I8, DOUBLE, BOOLEAN, STRING, DATETIME, BASE64, NIL, STRUCT, ARRAY];
const DIGIT_ONE = 0x31;
const DIGIT_ZERO = 0x30;

/** Per type code: a template made by `make`, for the codes of value types only. */
export function byType(make: (name: string, code: number) => string): ByteTemplate[] {
  return templatesFor(TYPES, make);
}

/** What a value of each type starts with (in its `<value>`), and its own end tags. */
const startTag = (name: string, code: number) =>
  code === NIL ? '<nil/>' : code === ARRAY ? '<array><data>' : `<${name}>`;
const endTag = (name: string, code: number) =>
  code === NIL ? '' : code === ARRAY ? '</data></array>' : `</${name}>`;
/** Per type: a value's start with the `<value>` before it, and its end with what closes around it. */
export const VALUE_STARTS = byType((name, code) => '<value>' + startTag(name, code));
export const VALUE_ENDS = byType((name, code) => endTag(name, code) + '</value>');
export const PARAM_ENDS = byType((name, code) => endTag(name, code) + '</value></param>');
const MEMBER_ENDS = byType((name, code) => endTag(name, code) + '</value></member>');
const MEMBER_OPEN = '<member><name>';
const NAME_END = '</name>';

export type Path = readonly [string, ...(string | number)[]];

/**
 * The bytes a member starts with, for a name and a type, after the end of the member before
 * (one copy per member instead of two): `</int></value></member><member><name>id</name><value><int>`.
 */
interface MemberStart {
  name: string;
  type: number;
  /** The type of the member before (NONE for the first). */
  before: number;
  bytes: ByteTemplate;
  ascii: boolean;
}

/** The member starts written last, per struct depth and position (kept between encodings). */
const memberStarts: MemberStart[][] = [];

/**
 * The writer kept between encodings. Besides its buffer, it keeps the hidden classes of the
 * writers alive: V8 holds the maps it compiled a function against weakly, and when the last
 * writer died, the next GC threw away the optimized code of the whole encoder, so the following
 * encoding ran about half as fast while it was compiled again.
 */
let idle: ValueWriter | undefined;

/** Runs `write(writer, arg)` with a writer and returns the string it wrote. */
export function writeString<T>(write: (writer: ValueWriter, arg: T) => void, arg: T): string {
  // A getter in the value may encode something else meanwhile: it then gets a writer of its own.
  const writer = idle ?? new ValueWriter();
  idle = undefined;
  try {
    writer.begin();
    write(writer, arg);
    return writer.out.finish();
  } finally {
    writer.out.reset();
    idle = writer;
  }
}

export class ValueWriter {
  readonly out = new ByteWriter();
  /** The arrays and structs being written, to turn a cycle into an error instead of a stack overflow. */
  private readonly open: object[] = [];
  /** Whether plain objects inherit anything enumerable (someone polluted Object.prototype). */
  private inherited = false;

  /** Gets ready for an encoding. */
  begin(): void {
    this.open.length = 0;
    this.inherited = inheritedEnumerables();
  }

  /**
   * Writes `starts[type]` and the value's content; returns the type, whose end the caller writes
   * (with what closes around it). A TypeError naming `where` and the inner path if impossible.
   */
  value(value: unknown, starts: ByteTemplate[], where: Path): number {
    return this.guard(where, () => {
      const type = typeOf(value);
      this.out.template(starts[type]);
      this.content(type, value);
      return type;
    });
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

  /** What goes between a value's start and end tags. */
  private content(type: number, value: unknown): void {
    const out = this.out;
    switch (type) {
      case STRING:
        out.text(value as string);
        return;
      case INT:
        out.int32(value as number);
        return;
      case I8:
      case DOUBLE:
        // Decimal, and for doubles the shortest text that reads back as the same number.
        out.plain(String(value));
        return;
      case BOOLEAN:
        out.byte(value ? DIGIT_ONE : DIGIT_ZERO);
        return;
      case STRUCT:
      case ARRAY:
        this.container(value as object, type);
        return;
      case DATETIME:
        out.plain(formatIso8601(value as Date));
        return;
      case BASE64:
        out.plain(asBuffer(value as Uint8Array).toString('base64'));
        return;
      // NIL: nothing
    }
  }

  private container(value: object, type: number): void {
    const open = this.open;
    if (open.includes(value)) throw new Unencodable('the value contains itself (a cycle)');
    if (open.length >= MAX_NESTING) {
      throw new Unencodable(`arrays and structs nest deeper than ${MAX_NESTING} levels`);
    }
    open.push(value);
    if (type === ARRAY) this.items(value as readonly unknown[]);
    else this.members(value as Record<string, unknown>, open.length - 1);
    open.pop();
  }

  private items(items: readonly unknown[]): void {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      try {
        const type = typeOf(item);
        this.out.template(VALUE_STARTS[type]);
        this.content(type, item);
        this.out.template(VALUE_ENDS[type]);
      } catch (err) {
        if (err instanceof Unencodable) err.path.unshift(i);
        throw err;
      }
    }
  }

  private members(struct: Record<string, unknown>, depth: number): void {
    const starts =
      depth < MAX_REMEMBERED_DEPTH ? (memberStarts[depth] ??= []) : ([] as MemberStart[]);
    let index = 0;
    // The type of the member before, whose end is written with the start of the next.
    let before = NONE;
    if (this.inherited) {
      for (const key of Object.keys(struct)) {
        const value = struct[key];
        if (value !== undefined) before = this.member(key, value, index++, before, starts);
      }
    } else {
      // With nothing enumerable inherited, for-in gives the own keys of Object.keys, and V8
      // reads the values by field index from the shape's enum cache: no array, no lookups.
      for (const key in struct) {
        const value = struct[key];
        if (value !== undefined) before = this.member(key, value, index++, before, starts);
      }
    }
    if (before !== NONE) this.out.template(MEMBER_ENDS[before]);
  }

  /** Writes member `index` after the end of one of type `before`; returns its type. */
  private member(
    key: string,
    value: unknown,
    index: number,
    before: number,
    starts: MemberStart[],
  ): number {
    try {
      const type = typeOf(value);
      const known = starts[index];
      if (known?.name === key && known.type === type && known.before === before) {
        if (known.ascii) this.out.template(known.bytes);
        else this.out.nonAsciiTemplate(known.bytes);
      } else {
        const start = this.memberStart(key, type, before);
        if (index < MAX_REMEMBERED_MEMBERS) starts[index] = start;
      }
      this.content(type, value);
      return type;
    } catch (err) {
      if (err instanceof Unencodable) err.path.unshift(key);
      throw err;
    }
  }

  /**
   * Writes the end of the member before (of type `before`, if any), `<member><name>…</name><value>`
   * and the type's start tag; returns them for next time.
   */
  private memberStart(name: string, type: number, before: number): MemberStart {
    const out = this.out;
    const end = MEMBER_ENDS[before];
    const start = VALUE_STARTS[type];
    // All of it in the current buffer, to be read back as one run.
    out.reserve(end.length + MEMBER_OPEN.length + name.length * 5 + NAME_END.length + start.length);
    const mark = out.position;
    if (before !== NONE) out.template(end);
    out.plain(MEMBER_OPEN);
    out.text(name);
    out.plain(NAME_END);
    out.template(start);
    const bytes = out.since(mark);
    const ascii = bytes.every((b) => b < 0x80);
    return { name, type, before, bytes: new ByteTemplate(bytes), ascii };
  }
}

/** The element a value is written as; throws Unencodable for what XML-RPC cannot carry. */
function typeOf(value: unknown): number {
  // `typeof x === '…'` tests, not a switch on `typeof x`: V8 turns each test into a check of the
  // value, where the switch called a builtin for the type's name and compared strings.
  if (typeof value === 'string') return STRING;
  if (typeof value === 'number') return numberType(value);
  if (typeof value === 'boolean') return BOOLEAN;
  if (typeof value === 'object') return value === null ? NIL : objectType(value);
  if (typeof value === 'undefined') return NIL;
  if (typeof value === 'bigint') {
    if (value < INT64_MIN || value > INT64_MAX) {
      throw new Unencodable(`bigint ${value} is outside the 64-bit range of <i8>`);
    }
    return I8;
  }
  throw new Unencodable(`a ${typeof value} has no XML-RPC form`);
}

function numberType(value: number): number {
  if (Number.isInteger(value)) {
    if (value >= INT32_MIN && value <= INT32_MAX) return INT;
    return Number.isSafeInteger(value) ? I8 : DOUBLE;
  }
  if (Number.isFinite(value)) return DOUBLE;
  throw new Unencodable(`${value} is not representable (XML-RPC has no NaN or Infinity)`);
}

function objectType(value: object): number {
  if (Array.isArray(value)) return ARRAY;
  if (value instanceof Date) {
    if (isFormattableDate(value)) return DATETIME;
    throw new Unencodable('the Date is invalid or its year is outside 0000-9999');
  }
  if (value instanceof Uint8Array) return BASE64;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return STRUCT;
  const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
  throw new Unencodable(`a ${name} is not a plain object, array, Date or Buffer`);
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether anything enumerable is inherited by plain objects. */
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

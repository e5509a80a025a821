/**
 * XML-RPC encoder: one pass over the value, appending to strings (V8 keeps `+=` results as
 * ropes and flattens once, so no array of parts is needed). No whitespace between tags.
 *
 * Mapping: int32 integers -> <int>; other safe integers and bigints (int64 range) -> <i8>;
 * other finite numbers, including integers beyond 2^53 -> <double> (String(x), exact on
 * reading); boolean -> <boolean>1/0; string -> <string>; null -> <nil/>; undefined -> <nil/>
 * as a param or array item and an omitted member in a struct; Date -> <dateTime.iso8601>
 * (see iso8601.ts); Uint8Array/Buffer -> <base64>; array -> <array>; plain object -> <struct>.
 * Anything else (NaN, functions, symbols, Maps, class instances, cycles) is a TypeError that
 * says where in the value the problem is.
 */

import type { Fault } from './types';
import { formatIso8601, isFormattableDate } from './iso8601';
import { escapeText, UnencodableCharacter } from './xml-text';

const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';
const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Far beyond any real payload (decoders default to 64), and far from a stack overflow. */
const MAX_NESTING = 256;

export function encodeMethodCall(methodName: string, params: readonly unknown[]): string {
  if (typeof methodName !== 'string' || methodName === '') {
    throw new TypeError('methodName must be a non-empty string');
  }
  const writer = new ValueWriter();
  let out = PROLOG + '<methodCall><methodName>' + writer.text(methodName, ['methodName']);
  out += '</methodName><params>';
  for (let i = 0; i < params.length; i++) {
    out += '<param>' + writer.value(params[i], ['params', i]) + '</param>';
  }
  return out + '</params></methodCall>';
}

export function encodeMethodResponse(value: unknown): string {
  const body = new ValueWriter().value(value, ['value']);
  return PROLOG + '<methodResponse><params><param>' + body + '</param></params></methodResponse>';
}

export function encodeFault(fault: Fault): string {
  const { faultCode, faultString } = fault;
  if (typeof faultCode !== 'number' && typeof faultCode !== 'string') {
    throw new TypeError('faultCode must be a number or a string');
  }
  const body = new ValueWriter().value({ faultCode, faultString: String(faultString) }, ['fault']);
  return PROLOG + '<methodResponse><fault>' + body + '</fault></methodResponse>';
}

/** A problem found deep in a value; the path is filled in while the stack unwinds. */
class Unencodable extends Error {
  readonly path: (string | number)[] = [];
  constructor(readonly problem: string) {
    super(problem);
  }
}

type Path = readonly [string, ...(string | number)[]];

class ValueWriter {
  /** The arrays and structs being written, to turn a cycle into an error instead of a stack overflow. */
  private readonly open: object[] = [];

  /** Writes `<value>…</value>`; a TypeError naming `where` and the inner path if impossible. */
  value(value: unknown, where: Path): string {
    return this.guard(where, () => this.anyValue(value));
  }

  text(text: string, where: Path): string {
    return this.guard(where, () => this.escaped(text));
  }

  private guard(where: Path, write: () => string): string {
    try {
      return write();
    } catch (err) {
      if (!(err instanceof Unencodable)) throw err;
      const path = [...where, ...err.path];
      throw new TypeError(`Cannot encode ${formatPath(path)} as XML-RPC: ${err.problem}`);
    }
  }

  private anyValue(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return '<value><string>' + this.escaped(value) + '</string></value>';
      case 'number':
        return numberValue(value);
      case 'boolean':
        return value
          ? '<value><boolean>1</boolean></value>'
          : '<value><boolean>0</boolean></value>';
      case 'bigint':
        if (value < INT64_MIN || value > INT64_MAX) {
          throw new Unencodable(`bigint ${value} is outside the 64-bit range of <i8>`);
        }
        return '<value><i8>' + value + '</i8></value>';
      case 'undefined':
        return '<value><nil/></value>';
      case 'object':
        return value === null ? '<value><nil/></value>' : this.objectValue(value);
      default:
        throw new Unencodable(`a ${typeof value} has no XML-RPC form`);
    }
  }

  private objectValue(value: object): string {
    if (Array.isArray(value)) return this.container(value, this.arrayValue);
    if (value instanceof Date) return dateValue(value);
    if (value instanceof Uint8Array) return base64Value(value);
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      return this.container(value as Record<string, unknown>, this.structValue);
    }
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new Unencodable(`a ${name} is not a plain object, array, Date or Buffer`);
  }

  private container<T extends object>(
    value: T,
    write: (this: ValueWriter, value: T) => string,
  ): string {
    if (this.open.includes(value)) throw new Unencodable('the value contains itself (a cycle)');
    if (this.open.length >= MAX_NESTING) {
      throw new Unencodable(`arrays and structs nest deeper than ${MAX_NESTING} levels`);
    }
    this.open.push(value);
    const xml = write.call(this, value);
    this.open.pop();
    return xml;
  }

  private arrayValue(items: readonly unknown[]): string {
    let out = '<value><array><data>';
    for (let i = 0; i < items.length; i++) {
      out += this.located(i, items[i]);
    }
    return out + '</data></array></value>';
  }

  private structValue(struct: Record<string, unknown>): string {
    let out = '<value><struct>';
    for (const key of Object.keys(struct)) {
      const member = struct[key];
      if (member === undefined) continue;
      out +=
        '<member><name>' + this.escaped(key) + '</name>' + this.located(key, member) + '</member>';
    }
    return out + '</struct></value>';
  }

  /** Writes a member or item, adding its key to the path of any problem inside it. */
  private located(key: string | number, value: unknown): string {
    try {
      return this.anyValue(value);
    } catch (err) {
      if (err instanceof Unencodable) err.path.unshift(key);
      throw err;
    }
  }

  private escaped(text: string): string {
    try {
      return escapeText(text);
    } catch (err) {
      if (err instanceof UnencodableCharacter) throw new Unencodable(`string: ${err.message}`);
      throw err;
    }
  }
}

function numberValue(n: number): string {
  if (Number.isInteger(n)) {
    if (n >= INT32_MIN && n <= INT32_MAX) return '<value><int>' + n + '</int></value>';
    if (Number.isSafeInteger(n)) return '<value><i8>' + n + '</i8></value>';
  } else if (!Number.isFinite(n)) {
    throw new Unencodable(`${n} is not representable (XML-RPC has no NaN or Infinity)`);
  }
  return '<value><double>' + n + '</double></value>';
}

function dateValue(date: Date): string {
  if (!isFormattableDate(date)) {
    throw new Unencodable('the Date is invalid or its year is outside 0000-9999');
  }
  return '<value><dateTime.iso8601>' + formatIso8601(date) + '</dateTime.iso8601></value>';
}

function base64Value(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return '<value><base64>' + buffer.toString('base64') + '</base64></value>';
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

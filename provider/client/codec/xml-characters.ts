/**
 * The character level of the XML scanner (xml-scanner.ts): character data with its references
 * and forbidden characters, names, whitespace, where the document is (prolog, root, epilog), the
 * text handed to the reader, waiting for more input, and errors with their line:column.
 *
 * A scan that reaches the end of the input calls `needMore()`: in the middle of a document that
 * stops the unit (thrown NEED_MORE, caught by `XmlScanner.scan`) until the byte sequence in
 * `until` arrives; at the end of the document it is an error.
 */

import { InvalidCharacter, NotWellFormed, ParseError } from '../errors';
import type { ContentHandler } from './content-handler';
import * as elements from './elements';
import type { InputWindow, Position } from './input-window';
import * as inputWindow from './input-window';
import { clip } from './messages';
import * as scalars from './scalars';
import * as references from './xml-references';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { nameBytes, PREFIXED_NIL } = elements;
const { isBlankBytes } = scalars;
const { ESCAPED, NON_ASCII } = inputWindow;
const { BAD_CHARACTER_REFERENCE, entityName, INCOMPLETE, scanReference, UNDEFINED_ENTITY } =
  references;

export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const AMPERSAND = 0x26;
export const SLASH = 0x2f;
export const LT = 0x3c;
export const GT = 0x3e;
export const CLOSE_BRACKET = 0x5d;

// Byte classes in character data.
export const PLAIN = 0;
export const MARKUP = 1; // <
export const REFERENCE = 2; // &
export const CARRIAGE_RETURN = 3;
export const GREATER = 4; // > (not allowed after ]])
export const HIGH = 5; // part of a non-ASCII character
export const FORBIDDEN = 6; // a control character XML does not allow

export const TEXT_CLASS = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) TEXT_CLASS[b] = FORBIDDEN;
TEXT_CLASS[TAB] = PLAIN;
TEXT_CLASS[LF] = PLAIN;
TEXT_CLASS[CR] = CARRIAGE_RETURN;
TEXT_CLASS[LT] = MARKUP;
TEXT_CLASS[AMPERSAND] = REFERENCE;
TEXT_CLASS[GT] = GREATER;
TEXT_CLASS.fill(HIGH, 0x80);

// Byte classes in names: bit 1 a name character, bit 2 a possible first one, bit 4 non-ASCII
// (checked against the full XML name rule once the name is read).
const NAME_CHAR = 1;
const NAME_START = 2;
const NAME_HIGH = 4;
export const NAME_CLASS = new Uint8Array(256);
for (const [from, to] of [
  [0x41, 0x5a],
  [0x61, 0x7a],
]) {
  NAME_CLASS.fill(NAME_CHAR | NAME_START, from, to + 1);
}
NAME_CLASS[0x5f] = NAME_CHAR | NAME_START; // _
NAME_CLASS[0x3a] = NAME_CHAR | NAME_START; // :
NAME_CLASS.fill(NAME_CHAR, 0x30, 0x3a); // digits
NAME_CLASS[0x2d] = NAME_CHAR; // -
NAME_CLASS[0x2e] = NAME_CHAR; // .
NAME_CLASS.fill(NAME_CHAR | NAME_START | NAME_HIGH, 0x80);

/** XML 1.0 (fifth edition) `Name`, for names with non-ASCII characters. */
const XML_NAME =
  /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}][-.0-9:A-Z_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]*$/u;

/** Far beyond any XML-RPC name; bounds the work a hostile document can cause. */
const MAX_NAME_BYTES = 1024;

// Where the scanner is in the document.
export const PROLOG = 0;
export const ROOT = 1;
export const EPILOG = 2;

/** What can end the unit a chunk ended in: `<` after text, `>` after a tag, and so on. */
export const UNTIL = {
  lt: Buffer.from('<'),
  gt: Buffer.from('>'),
  commentEnd: Buffer.from('-->'),
  cdataEnd: Buffer.from(']]>'),
  instructionEnd: Buffer.from('?>'),
};

/** Thrown inside the scanner when the unit is not all there yet; never leaves it. */
export const NEED_MORE = new Error('need more input');

export class CharacterScanner implements Position {
  protected state = PROLOG;
  /** Codes of the open elements, and the names of the open prefixed nils. */
  protected readonly open: number[] = [];
  protected readonly prefixedNames: string[] = [];
  protected final = false;
  /** The end of what the current handler call is about, for its messages. */
  protected cursor = 0;
  // Results of the scans that return a position.
  protected textFlags = 0;
  protected nameFlags = 0;
  // Waiting: what can end the unit, and from which document offset to look for it.
  protected until: Buffer = UNTIL.lt;
  protected waitingFor: Buffer | undefined;
  protected waitFrom = 0;

  constructor(
    protected readonly window: InputWindow,
    protected readonly handler: ContentHandler,
  ) {}

  /** Forgets the document (the scanner is kept for the next one: see decode.ts). */
  clear(): void {
    this.state = PROLOG;
    this.open.length = 0;
    this.prefixedNames.length = 0;
    this.final = false;
    this.cursor = 0;
    this.until = UNTIL.lt;
    this.waitingFor = undefined;
    this.waitFrom = 0;
  }

  get line(): number {
    return this.window.position(this.cursor).line;
  }

  get column(): number {
    return this.window.position(this.cursor).column;
  }

  /** Hands the text before a tag to the reader (as a range only when the tag is an element's). */
  protected deliverText(bytes: Uint8Array, start: number, end: number, asRange: boolean): void {
    if (start === end) return;
    if (this.state !== ROOT) {
      if (isBlankBytes(bytes, start, end)) return;
      this.cursor = start;
      throw this.notWellFormed('text outside the root element');
    }
    if (asRange) this.handler.text(start, end, this.textFlags);
    else this.handler.appendText(this.window.text(start, end, this.textFlags));
  }

  protected closedName(code: number): string {
    return code === PREFIXED_NIL
      ? this.prefixedNames[this.prefixedNames.length - 1]
      : nameBytes(code).toString('latin1');
  }

  /** The index of the `<` that ends the text from `i` (or `end` at the end of the document). */
  protected scanText(bytes: Uint8Array, i: number, end: number): number {
    let flags = 0;
    for (;;) {
      if (i >= end) {
        if (this.final) break;
        this.needMore();
      }
      const kind = TEXT_CLASS[bytes[i]];
      if (kind === PLAIN) {
        i++;
        continue;
      }
      if (kind === MARKUP) break;
      switch (kind) {
        case REFERENCE:
          flags |= ESCAPED;
          i = this.reference(bytes, end, i);
          break;
        case CARRIAGE_RETURN:
          flags |= ESCAPED;
          i++;
          break;
        case GREATER:
          if (bytes[i - 1] === CLOSE_BRACKET && bytes[i - 2] === CLOSE_BRACKET) {
            throw this.notWellFormedAt(i, "']]>' is not allowed in text");
          }
          i++;
          break;
        case HIGH:
          flags |= NON_ASCII;
          i = this.highByte(bytes, end, i);
          break;
        default:
          throw this.invalidCharacter(bytes, i);
      }
    }
    this.textFlags = flags;
    return i;
  }

  /** Outside the root element: only whitespace may come before the next `<`. */
  protected skipBlank(bytes: Uint8Array, i: number, end: number): number {
    for (;;) {
      if (i >= end) {
        if (this.final) return end;
        this.needMore();
      }
      const b = bytes[i];
      if (b === LT) return i;
      if (TEXT_CLASS[b] === FORBIDDEN) throw this.invalidCharacter(bytes, i);
      if (!isSpace(b)) throw this.notWellFormedAt(i, 'text outside the root element');
      i++;
    }
  }

  /** Checks the reference at `bytes[at]` and returns where it ends. */
  protected reference(bytes: Uint8Array, end: number, at: number): number {
    const next = scanReference(bytes, at, end);
    if (next >= 0) return next;
    if (next === INCOMPLETE) this.needMore();
    if (next === BAD_CHARACTER_REFERENCE) {
      throw new InvalidCharacter(
        -32702,
        `${this.where(at)}character reference &${clip(entityName(bytes, at))}; is malformed or not allowed in XML 1.0`,
      );
    }
    if (next === UNDEFINED_ENTITY) {
      throw this.notWellFormedAt(at, `undefined entity &${clip(entityName(bytes, at))};`);
    }
    throw this.notWellFormedAt(at, "malformed reference ('&' must be written &amp;)");
  }

  /**
   * A byte of a non-ASCII character. The bytes are valid UTF-8 (checked before scanning) or
   * Latin-1; of the characters UTF-8 can carry, only U+FFFE and U+FFFF are not XML characters.
   */
  protected highByte(bytes: Uint8Array, end: number, i: number): number {
    if (bytes[i] === 0xef && !this.window.latin1) {
      if (i + 2 >= end) this.needMore();
      if (bytes[i + 1] === 0xbf && (bytes[i + 2] & 0xfe) === 0xbe) {
        throw new InvalidCharacter(
          -32702,
          `${this.where(i)}U+FFF${bytes[i + 2] === 0xbe ? 'E' : 'F'} is not allowed in XML 1.0`,
        );
      }
    }
    return i + 1;
  }

  /** One byte of a comment, CDATA section or processing instruction: any XML character. */
  protected otherCharacter(bytes: Uint8Array, end: number, j: number): number {
    const kind = TEXT_CLASS[bytes[j]];
    if (kind === FORBIDDEN) throw this.invalidCharacter(bytes, j);
    return kind === HIGH ? this.highByte(bytes, end, j) : j + 1;
  }

  /** An XML name from `bytes[at]`; returns its end and sets `nameFlags`. */
  protected name(bytes: Uint8Array, end: number, at: number): number {
    if (at >= end) this.needMore();
    let kinds = NAME_CLASS[bytes[at]];
    if ((kinds & NAME_START) === 0) {
      throw this.notWellFormedAt(at, `a name cannot start with ${describeByte(bytes[at])}`);
    }
    let j = at + 1;
    for (;;) {
      if (j >= end) this.needMore();
      const kind = NAME_CLASS[bytes[j]];
      if (kind === 0) break;
      kinds |= kind;
      if (++j - at > MAX_NAME_BYTES) {
        throw new ParseError(-32700, `${this.where(at)}a name longer than ${MAX_NAME_BYTES} bytes`);
      }
    }
    this.nameFlags = (kinds & NAME_HIGH) !== 0 ? NON_ASCII : 0;
    if (this.nameFlags !== 0) {
      if (!this.window.latin1) this.checkHighBytes(bytes, end, at, j);
      const name = this.window.string(at, j, NON_ASCII);
      if (!XML_NAME.test(name)) throw this.notWellFormedAt(at, `invalid name ${clip(name)}`);
    }
    return j;
  }

  protected checkHighBytes(bytes: Uint8Array, end: number, from: number, to: number): void {
    for (let i = from; i < to; i++) if (bytes[i] >= 0x80) this.highByte(bytes, end, i);
  }

  protected skipSpace(bytes: Uint8Array, end: number, j: number): number {
    for (;;) {
      if (j >= end) this.needMore();
      if (!isSpace(bytes[j])) return j;
      j++;
    }
  }

  protected expectGreater(bytes: Uint8Array, end: number, j: number): number {
    if (j >= end) this.needMore();
    if (bytes[j] !== GT) throw this.notWellFormedAt(j, `expected '>' after '/'`);
    return j + 1;
  }

  /** Stops the unit: it continues when more input comes, or is an error at the end. */
  protected needMore(): never {
    if (this.final) {
      this.cursor = this.window.end;
      const open = this.open;
      const inside = open.length > 0 ? ` (inside <${this.closedName(open[open.length - 1])}>)` : '';
      throw this.notWellFormed(`unexpected end of the document${inside}`);
    }
    this.waitingFor = this.until;
    this.waitFrom = this.window.offset(this.window.end - this.until.length + 1);
    throw NEED_MORE;
  }

  protected where(index: number): string {
    const { line, column } = this.window.position(index);
    return `${line}:${column}: `;
  }

  protected notWellFormedAt(index: number, message: string): NotWellFormed {
    return new NotWellFormed(-32700, this.where(index) + message);
  }

  protected notWellFormed(message: string): NotWellFormed {
    return this.notWellFormedAt(this.cursor, message);
  }

  protected invalidCharacter(bytes: Uint8Array, index: number): InvalidCharacter {
    const code = bytes[index].toString(16).toUpperCase().padStart(4, '0');
    return new InvalidCharacter(-32702, `${this.where(index)}U+${code} is not allowed in XML 1.0`);
  }
}

export function isSpace(b: number): boolean {
  return b === SPACE || b === LF || b === TAB || b === CR;
}

export function describeByte(b: number): string {
  return b >= 0x21 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16)}`;
}

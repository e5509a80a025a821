/**
 * Where the encoder writes: UTF-8 bytes appended to one buffer (replaced by one twice the size
 * when it fills up), turned into one string at the end. The writer and its buffer are kept for
 * the next encoding (value-writer.ts), so a run of large encodings allocates nothing: allocating
 * and dropping tens of MB of buffers per encoding made V8 run a full GC for "external memory
 * pressure" every time. The buffer is dropped again when an encoding uses less than an eighth of
 * it. Text is escaped and encoded in one pass: besides `&`, `<` and `>`, a CR is written as a
 * character reference because XML parsers turn a literal CR into LF, which would change the
 * string on the other side; characters XML 1.0 cannot carry are refused.
 */

import type { ByteTemplate } from './byte-template';
import { unencodableCharacter } from './unencodable';

const AMPERSAND = 0x26;
const LT = 0x3c;
const GT = 0x3e;
const CR = 0x0d;
const MINUS = 0x2d;
const DIGIT_ZERO = 0x30;

/** ASCII characters that cannot be copied as they are: `& < > CR` and forbidden controls. */
const SPECIAL = new Uint8Array(128);
SPECIAL.fill(1, 0, 0x20);
SPECIAL[0x09] = 0;
SPECIAL[0x0a] = 0;
SPECIAL[AMPERSAND] = SPECIAL[LT] = SPECIAL[GT] = 1;

/** The longest a UTF-16 unit can get written: `&amp;` and `&#13;`. */
const MAX_BYTES_PER_UNIT = 5;
/** Long texts are written in slices so that room is made for a slice, not the whole text. */
const SLICE_UNITS = 16 * 1024;

const INITIAL_BYTES = 64 * 1024;

export class ByteWriter {
  private chunk = Buffer.allocUnsafe(INITIAL_BYTES);
  private pos = 0;
  /** Whether every byte so far is ASCII (then the output is read back byte for byte, faster). */
  private ascii = true;

  /** Where the next byte goes. */
  get position(): number {
    return this.pos;
  }

  /** The bytes written since position `mark` (a view: valid until the next write). */
  since(mark: number): Buffer {
    return this.chunk.subarray(mark, this.pos);
  }

  /** Makes room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.pos + bytes > this.chunk.length) this.grow(bytes);
  }

  template(template: ByteTemplate): void {
    this.reserve(template.length);
    // TypedArray#set is a copy in native code: faster than any JS loop, even for a few bytes.
    this.chunk.set(template.bytes, this.pos);
    this.pos += template.length;
  }

  /** A template whose bytes are not all ASCII. */
  nonAsciiTemplate(template: ByteTemplate): void {
    this.ascii = false;
    this.template(template);
  }

  byte(byte: number): void {
    this.reserve(1);
    this.chunk[this.pos++] = byte;
  }

  /** An integer of at most 32 bits (with its sign), in decimal: no string made for it. */
  int32(n: number): void {
    this.reserve(11);
    const chunk = this.chunk;
    let pos = this.pos;
    if (n < 0) {
      chunk[pos++] = MINUS;
      n = -n;
    }
    let digits = 1;
    for (let power = 10; power <= n; power *= 10) digits++;
    this.pos = pos + digits;
    for (let at = pos + digits - 1; at >= pos; at--) {
      const tenth = Math.floor(n / 10);
      chunk[at] = DIGIT_ZERO + n - tenth * 10;
      n = tenth;
    }
  }

  /** Text known to be ASCII without anything to escape: numbers, dates, base64, tags. */
  plain(text: string): void {
    this.reserve(text.length);
    const chunk = this.chunk;
    let pos = this.pos;
    for (let i = 0; i < text.length; i++) chunk[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /** Character data: escaped, UTF-8; throws Unencodable for a character XML 1.0 cannot carry. */
  text(text: string): void {
    if (text.length <= SLICE_UNITS) {
      this.reserve(text.length * MAX_BYTES_PER_UNIT);
      this.textSlice(text, 0, text.length);
      return;
    }
    for (let from = 0; from < text.length;) {
      let to = Math.min(text.length, from + SLICE_UNITS);
      // A slice does not end between the two halves of a surrogate pair.
      if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
      this.reserve((to - from) * MAX_BYTES_PER_UNIT);
      this.textSlice(text, from, to);
      from = to;
    }
  }

  /** The output as a string. */
  finish(): string {
    // ASCII read as Latin-1: the same characters, copied without checking every byte again.
    return this.chunk.toString(this.ascii ? 'latin1' : 'utf8', 0, this.pos);
  }

  /** Empties the writer for the next encoding; its buffer is replaced if it was mostly unused. */
  reset(): void {
    if (this.chunk.length > INITIAL_BYTES && this.pos < this.chunk.length / 8) {
      this.chunk = Buffer.allocUnsafe(INITIAL_BYTES);
    }
    this.pos = 0;
    this.ascii = true;
  }

  private textSlice(text: string, from: number, to: number): void {
    const chunk = this.chunk;
    let pos = this.pos;
    let i = from;
    // Plain ASCII, the usual case, in a loop of its own.
    for (; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80 || SPECIAL[c] !== 0) break;
      chunk[pos++] = c;
    }
    this.pos = i < to ? this.escapedSlice(text, i, to, pos) : pos;
  }

  /** The rest of a slice from its first character that is not plain ASCII; returns the end. */
  private escapedSlice(text: string, from: number, to: number, pos: number): number {
    const chunk = this.chunk;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if (SPECIAL[c] === 0) {
          chunk[pos++] = c;
          continue;
        }
        pos = escape(chunk, pos, c, i);
      } else {
        this.ascii = false;
        if (c < 0x800) {
          chunk[pos++] = 0xc0 | (c >> 6);
          chunk[pos++] = 0x80 | (c & 0x3f);
        } else if (c >= 0xd800 && c <= 0xdfff) {
          const low = text.charCodeAt(i + 1);
          if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) throw unencodableCharacter(c, i);
          const codePoint = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          chunk[pos++] = 0xf0 | (codePoint >> 18);
          chunk[pos++] = 0x80 | ((codePoint >> 12) & 0x3f);
          chunk[pos++] = 0x80 | ((codePoint >> 6) & 0x3f);
          chunk[pos++] = 0x80 | (codePoint & 0x3f);
          i++;
        } else {
          if (c >= 0xfffe) throw unencodableCharacter(c, i);
          chunk[pos++] = 0xe0 | (c >> 12);
          chunk[pos++] = 0x80 | ((c >> 6) & 0x3f);
          chunk[pos++] = 0x80 | (c & 0x3f);
        }
      }
    }
    return pos;
  }

  private grow(bytes: number): void {
    const grown = Buffer.allocUnsafe(Math.max(this.pos + bytes, this.chunk.length * 2));
    this.chunk.copy(grown, 0, 0, this.pos);
    this.chunk = grown;
  }
}

/** Writes the escaped form of the special ASCII character `c` (at `index` in its text). */
function escape(chunk: Buffer, pos: number, c: number, index: number): number {
  let entity: string;
  if (c === AMPERSAND) entity = '&amp;';
  else if (c === LT) entity = '&lt;';
  else if (c === GT) entity = '&gt;';
  else if (c === CR) entity = '&#13;';
  else throw unencodableCharacter(c, index);
  for (let k = 0; k < entity.length; k++) chunk[pos++] = entity.charCodeAt(k);
  return pos;
}

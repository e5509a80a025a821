/**
 * The bytes of a document that the scanner has not consumed yet, fed chunk by chunk, and the
 * strings made from them.
 *
 * A chunk that arrives when everything before it was consumed is used as it is (a whole body is
 * never copied); otherwise the unconsumed rest and the chunk are copied into a buffer of our own,
 * which grows by doubling, so a long token arriving in many chunks costs linear time. Strings are
 * always fresh copies (`Buffer#toString`), never views that would keep the body alive.
 *
 * Positions for messages (line, and column in bytes) count the newlines of every byte dropped.
 */

import { referenceText } from './xml-references';

/** Text flags: the text has bytes above 0x7F. */
export const NON_ASCII = 1;
/** Text flags: the text has references or carriage returns to turn into characters. */
export const ESCAPED = 2;

const LF = 0x0a;
const CR = 0x0d;
const AMPERSAND = 0x26;
const MIN_CAPACITY = 64 * 1024;
const EMPTY = Buffer.alloc(0);
const EMPTY_VIEW = new DataView(new ArrayBuffer(0));

export interface Position {
  readonly line: number;
  readonly column: number;
}

export class InputWindow {
  bytes: Buffer = EMPTY;
  /** The same bytes, for word-sized compares (byte-template.ts). */
  view: DataView = EMPTY_VIEW;
  /** The first byte not consumed yet. */
  start = 0;
  end = 0;
  /** Bytes stand for Latin-1 characters rather than UTF-8 (see charset.ts). */
  latin1 = false;
  /** Whether `bytes` is our own buffer (true) or a chunk as it was given. */
  private owned = false;
  /** The offset of `bytes[0]` in the document, and the line and line start there. */
  private base = 0;
  private line = 1;
  private lineStart = 0;

  /** Drops every byte, for the next document. */
  clear(latin1: boolean): void {
    this.bytes = EMPTY;
    this.view = EMPTY_VIEW;
    this.start = this.end = 0;
    this.latin1 = latin1;
    this.owned = false;
    this.base = 0;
    this.line = 1;
    this.lineStart = 0;
  }

  append(chunk: Buffer): void {
    const rest = this.end - this.start;
    if (rest === 0) {
      this.drop(this.end);
      this.bytes = chunk;
      this.view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.start = 0;
      this.end = chunk.length;
      this.owned = false;
      return;
    }
    if (!this.owned || this.end + chunk.length > this.bytes.length) {
      this.drop(this.start);
      const needed = rest + chunk.length;
      if (this.owned && needed <= this.bytes.length) {
        this.bytes.copyWithin(0, this.start, this.end);
      } else {
        const grown = Buffer.allocUnsafe(Math.max(needed * 2, MIN_CAPACITY));
        this.bytes.copy(grown, 0, this.start, this.end);
        this.bytes = grown;
        this.view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
        this.owned = true;
      }
      this.start = 0;
      this.end = rest;
    }
    chunk.copy(this.bytes, this.end);
    this.end += chunk.length;
  }

  /** The offset in the document of `bytes[index]`. */
  offset(index: number): number {
    return this.base + index;
  }

  /** `bytes[start, end)` as a string; `flags` from the scanner. */
  text(start: number, end: number, flags: number): string {
    if ((flags & ESCAPED) === 0) return this.string(start, end, flags);
    return this.unescape(start, end, flags, true);
  }

  /** The content of a CDATA section: carriage returns are normalised, `&` is a character. */
  cdata(start: number, end: number, flags: number): string {
    if ((flags & ESCAPED) === 0) return this.string(start, end, flags);
    return this.unescape(start, end, flags, false);
  }

  string(start: number, end: number, flags: number): string {
    return this.bytes.toString(
      (flags & NON_ASCII) !== 0 && !this.latin1 ? 'utf8' : 'latin1',
      start,
      end,
    );
  }

  position(index: number): Position {
    let line = this.line;
    let lineStart = this.lineStart;
    for (let i = this.bytes.indexOf(LF); i >= 0 && i < index; i = this.bytes.indexOf(LF, i + 1)) {
      line++;
      lineStart = this.base + i + 1;
    }
    return { line, column: this.base + index - lineStart + 1 };
  }

  /** Turns references (when `references`) and line ends (CR LF and CR become LF) into text. */
  private unescape(start: number, end: number, flags: number, references: boolean): string {
    const bytes = this.bytes;
    let out = '';
    let run = start;
    for (let i = start; i < end;) {
      const b = bytes[i];
      if (b === CR) {
        out += this.string(run, i, flags) + '\n';
        i += bytes[i + 1] === LF && i + 1 < end ? 2 : 1;
        run = i;
      } else if (b === AMPERSAND && references) {
        out += this.string(run, i, flags) + referenceText(bytes, i);
        i = bytes.indexOf(0x3b, i) + 1;
        run = i;
      } else {
        i++;
      }
    }
    return out + this.string(run, end, flags);
  }

  /** Counts the lines of `bytes[0, count)`, which are about to be dropped. */
  private drop(count: number): void {
    const bytes = this.bytes;
    for (let i = bytes.indexOf(LF); i >= 0 && i < count; i = bytes.indexOf(LF, i + 1)) {
      this.line++;
      this.lineStart = this.base + i + 1;
    }
    this.base += count;
  }
}

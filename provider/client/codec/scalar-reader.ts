/**
 * The text side of the reader (reader.ts): the text since the last tag, as a range of the input
 * window's bytes or as a string, and the scalar values read from it. Integers and booleans are
 * read from the bytes when the text was plain; everything else from its characters.
 */

import { ParseError } from '../errors';
import * as elements from './elements';
import * as inputWindow from './input-window';
import type { InputWindow, Position } from './input-window';
import { parseIso8601 } from './iso8601';
import { quote } from './messages';
import * as scalars from './scalars';
import type { XmlRpcValue } from './types';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { BASE64, BOOLEAN, DATETIME, DOUBLE, ELEMENT_NAMES, I4, I8, INT, STRING } = elements;
const { ESCAPED } = inputWindow;
const {
  isBlank,
  isBlankBytes,
  parseBase64,
  parseBoolean,
  parseDouble,
  parseInteger,
  parseIntegerBytes,
} = scalars;

const DIGIT_ZERO = 0x30;
const DIGIT_ONE = 0x31;

export class ScalarReader {
  /** The text since the last tag: a range of the window's bytes, or a string. */
  protected textStart = 0;
  protected textEnd = 0;
  protected textFlags = 0;
  protected textString: string | undefined;
  /** Set once the scanner exists (it reports positions and needs this reader first). */
  position: Position = { line: 0, column: 0 };

  constructor(protected readonly window: InputWindow) {}

  text(start: number, end: number, flags: number): void {
    if (this.textString !== undefined) {
      this.textString += this.window.text(start, end, flags);
      return;
    }
    this.textStart = start;
    this.textEnd = end;
    this.textFlags = flags;
  }

  appendText(text: string): void {
    this.textString = this.currentText() + text;
    this.textStart = this.textEnd = 0;
  }

  protected setText(start: number, end: number, flags: number): void {
    this.textStart = start;
    this.textEnd = end;
    this.textFlags = flags;
  }

  protected currentText(): string {
    const range =
      this.textEnd > this.textStart
        ? this.window.text(this.textStart, this.textEnd, this.textFlags)
        : '';
    return this.textString === undefined ? range : this.textString + range;
  }

  protected textIsBlank(): boolean {
    return this.textString === undefined && (this.textFlags & ESCAPED) === 0
      ? isBlankBytes(this.window.bytes, this.textStart, this.textEnd)
      : isBlank(this.currentText());
  }

  protected clearText(): void {
    this.textStart = this.textEnd = 0;
    this.textString = undefined;
  }

  /** The value of a scalar element (`code` >= FIRST_TYPED) from the text since its start tag. */
  protected scalar(code: number): XmlRpcValue {
    switch (code) {
      case STRING:
        return this.currentText();
      case INT:
      case I8:
        return this.integer(64, code);
      case I4:
        return this.integer(32, code);
      case BOOLEAN:
        return this.boolean();
      case DOUBLE:
        return parseDouble(this.currentText()) ?? this.badText('double');
      case DATETIME:
        return parseIso8601(this.currentText()) ?? this.badText('dateTime.iso8601');
      case BASE64:
        return parseBase64(this.currentText()) ?? this.badText('base64');
      default: // NIL, PREFIXED_NIL
        this.requireBlank();
        return null;
    }
  }

  protected integer(bits: 32 | 64, code: number): number | bigint {
    // Straight from the bytes unless references or CDATA made the text.
    const value =
      this.textString === undefined && (this.textFlags & ESCAPED) === 0
        ? parseIntegerBytes(this.window.bytes, this.textStart, this.textEnd, bits)
        : parseInteger(this.currentText(), bits);
    if (value === null) {
      this.fail(
        `integer ${quote(this.currentText().trim())} is out of range for <${ELEMENT_NAMES[code]}>`,
      );
    }
    return value ?? this.badText('integer');
  }

  protected boolean(): boolean {
    if (this.textString === undefined && this.textEnd - this.textStart === 1) {
      const digit = this.window.bytes[this.textStart];
      if (digit === DIGIT_ONE) return true;
      if (digit === DIGIT_ZERO) return false;
    }
    return parseBoolean(this.currentText()) ?? this.badText('boolean');
  }

  protected requireBlank(): void {
    if (!this.textIsBlank()) this.fail(`unexpected text ${quote(this.currentText())}`);
  }

  protected badText(type: string): never {
    return this.fail(`invalid ${type} ${quote(this.currentText())}`);
  }

  protected fail(message: string, withPosition = true): never {
    const where = withPosition ? `${this.position.line}:${this.position.column}: ` : '';
    throw new ParseError(-32700, `${where}${message}`);
  }
}

/**
 * The markup level of the XML scanner (xml-scanner.ts) other than elements: comments, CDATA
 * sections, processing instructions, the XML declaration (only at the very start, with a
 * supported encoding) and DOCTYPEs, which are refused wherever they appear: XML-RPC never needs
 * one, and without one no entity can be declared, so entity expansion (billion laughs) and
 * external entities cannot happen.
 */

import { checkDeclaredEncoding } from './charset';
import * as inputWindow from './input-window';
import * as characters from './xml-characters';
import { clip } from './messages';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call.
const { ESCAPED, NON_ASCII } = inputWindow;
const { CLOSE_BRACKET, CR, GT, isSpace, ROOT, UNTIL } = characters;

const DASH = 0x2d;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const DOCTYPE = Buffer.from('DOCTYPE');
const CDATA_OPEN = Buffer.from('CDATA[');
const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/;
const MAX_DECLARATION_BYTES = 1024;

export class MarkupScanner extends characters.CharacterScanner {
  protected cdataFlags = 0;

  protected markupDeclaration(
    bytes: Uint8Array,
    end: number,
    textStart: number,
    lt: number,
  ): number {
    const j = lt + 2;
    if (j >= end) this.needMore();
    let after: number;
    switch (bytes[j]) {
      case DASH:
        if (j + 1 >= end) this.needMore();
        if (bytes[j + 1] !== DASH) throw this.notWellFormedAt(lt, "'<!-' is not a comment");
        this.until = UNTIL.commentEnd;
        after = this.comment(bytes, end, j + 2);
        this.deliverText(bytes, textStart, lt, false);
        return after;
      case OPEN_BRACKET: {
        this.expect(bytes, end, j + 1, CDATA_OPEN, lt);
        if (this.state !== ROOT) throw this.notWellFormedAt(lt, 'CDATA outside the root element');
        this.until = UNTIL.cdataEnd;
        const contentStart = j + 1 + CDATA_OPEN.length;
        const contentEnd = this.cdata(bytes, end, contentStart);
        this.deliverText(bytes, textStart, lt, false);
        this.handler.appendText(this.window.cdata(contentStart, contentEnd, this.cdataFlags));
        return contentEnd + 3;
      }
      default:
        this.expect(bytes, end, j, DOCTYPE, lt);
        this.cursor = lt;
        throw this.notWellFormed('DOCTYPE declarations are not allowed in XML-RPC');
    }
  }

  /** Checks that `bytes` at `at` hold `expected`. */
  protected expect(bytes: Uint8Array, end: number, at: number, expected: Buffer, lt: number): void {
    for (let k = 0; k < expected.length; k++) {
      if (at + k >= end) this.needMore();
      if (bytes[at + k] !== expected[k]) {
        throw this.notWellFormedAt(
          lt,
          `unknown markup '<!${clip(this.window.string(lt + 2, at + k + 1, NON_ASCII))}'`,
        );
      }
    }
  }

  protected comment(bytes: Uint8Array, end: number, j: number): number {
    for (;;) {
      if (j >= end) this.needMore();
      const b = bytes[j];
      if (b === DASH) {
        if (j + 2 >= end) this.needMore();
        if (bytes[j + 1] === DASH) {
          if (bytes[j + 2] !== GT) throw this.notWellFormedAt(j, "'--' inside a comment");
          return j + 3;
        }
      }
      j = this.otherCharacter(bytes, end, j);
    }
  }

  /** The end of CDATA content from `j` (where `]]>` starts); sets `cdataFlags`. */
  protected cdata(bytes: Uint8Array, end: number, j: number): number {
    let flags = 0;
    for (;;) {
      if (j >= end) this.needMore();
      const b = bytes[j];
      if (b === CLOSE_BRACKET) {
        if (j + 2 >= end) this.needMore();
        if (bytes[j + 1] === CLOSE_BRACKET && bytes[j + 2] === GT) {
          this.cdataFlags = flags;
          return j;
        }
      } else if (b === CR) {
        flags |= ESCAPED;
      } else if (b >= 0x80) {
        flags |= NON_ASCII;
      }
      j = this.otherCharacter(bytes, end, j);
    }
  }

  protected processingInstruction(
    bytes: Uint8Array,
    end: number,
    textStart: number,
    lt: number,
  ): number {
    this.until = UNTIL.instructionEnd;
    const targetStart = lt + 2;
    let j = this.name(bytes, end, targetStart);
    if (j - targetStart === 3 && this.window.string(targetStart, j, 0).toLowerCase() === 'xml') {
      if (this.window.offset(lt) !== 0) {
        throw this.notWellFormedAt(lt, 'an XML declaration is only allowed at the very start');
      }
      return this.xmlDeclaration(bytes, end, lt, j);
    }
    if (j >= end) this.needMore();
    if (!isSpace(bytes[j]) && bytes[j] !== QUESTION) {
      throw this.notWellFormedAt(j, 'invalid processing instruction');
    }
    for (;;) {
      if (j + 1 >= end) this.needMore();
      if (bytes[j] === QUESTION && bytes[j + 1] === GT) break;
      j = this.otherCharacter(bytes, end, j);
    }
    this.deliverText(bytes, textStart, lt, false);
    return j + 2;
  }

  protected xmlDeclaration(bytes: Uint8Array, end: number, lt: number, j: number): number {
    for (;;) {
      if (j + 1 >= end) this.needMore();
      if (bytes[j] === QUESTION && bytes[j + 1] === GT) break;
      if (++j - lt > MAX_DECLARATION_BYTES) break;
    }
    const declaration = this.window.string(lt, j + 2, NON_ASCII);
    const match = XML_DECLARATION.exec(declaration);
    if (match === null) throw this.notWellFormedAt(lt, 'malformed XML declaration');
    if (match[3] !== undefined) checkDeclaredEncoding(match[3]);
    return j + 2;
  }
}

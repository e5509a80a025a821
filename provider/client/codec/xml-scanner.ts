/**
 * Reads the XML of an XML-RPC document from bytes and checks, as it goes, that it is well-formed
 * XML 1.0: one root element, matching tags, attributes (read and checked, then ignored), the five
 * predefined entities and character references, CDATA, comments, processing instructions, an XML
 * declaration only at the very start, and only the characters XML allows. A DOCTYPE is refused
 * wherever it appears: XML-RPC never needs one, and without one no entity can be declared, so
 * entity expansion (billion laughs) and external entities cannot happen.
 *
 * It is built for the XML-RPC grammar rather than general XML: element names become codes
 * (elements.ts), a closing tag is compared byte by byte with the name of the open element, and
 * text is handed over as a range of bytes, so an `<int>` is read without making a string.
 *
 * Documents arrive in chunks. The scanner works in units (the text before a tag, and the tag) and
 * consumes a unit only once all of it is there; when a chunk ends inside one, it waits for the
 * byte sequence that can end it (`<`, `>`, `-->`, `]]>`, `?>`) before trying again, so a long
 * token arriving in many chunks is scanned a bounded number of times.
 *
 * Errors: `NotWellFormed` (with line:column) for broken XML and DOCTYPEs, `InvalidCharacter` for
 * characters XML 1.0 forbids (also as references), `UnsupportedEncoding` from the XML
 * declaration, and `ParseError` for our size limits on names and tags.
 *
 * In layers: xml-characters.ts (character data, names, errors, waiting), xml-markup.ts (comments,
 * CDATA, processing instructions, the declaration, DOCTYPE), xml-fast-path.ts (whole members),
 * and this file (units, tags, attributes).
 */

import { NotWellFormed, ParseError } from '../errors';
import * as elements from './elements';
import * as inputWindow from './input-window';
import * as characters from './xml-characters';
import { clip } from './messages';
import * as fastPath from './xml-fast-path';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { elementCode, nameBytes, NONE, PREFIXED_NIL } = elements;
const { NON_ASCII } = inputWindow;
const {
  describeByte,
  EPILOG,
  FORBIDDEN,
  GT,
  HIGH,
  isSpace,
  LT,
  MARKUP,
  NAME_CLASS,
  NEED_MORE,
  PROLOG,
  REFERENCE,
  ROOT,
  SLASH,
  TEXT_CLASS,
  UNTIL,
} = characters;

const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const EQUALS = 0x3d;
const QUESTION = 0x3f;
const LOWER_M = 0x6d;
const LOWER_V = 0x76;
// Limits far beyond any XML-RPC document; they bound the work a hostile one can cause.
const MAX_TAG_BYTES = 64 * 1024;
const MAX_ATTRIBUTES = 64;

export class XmlScanner extends fastPath.FastPathScanner {
  private selfClosing = false;

  /** Scans what `window` holds; call after each chunk is appended. */
  scan(): void {
    const window = this.window;
    if (this.waitingFor !== undefined) {
      const from = Math.max(this.waitFrom - window.offset(0), window.start);
      const found = window.bytes.indexOf(this.waitingFor, from);
      if (found < 0 || found + this.waitingFor.length > window.end) {
        this.waitFrom = window.offset(window.end - this.waitingFor.length + 1);
        return;
      }
      this.waitingFor = undefined;
    }
    try {
      while (window.start < window.end) window.start = this.unit(window.start);
    } catch (err) {
      if (err !== NEED_MORE) throw err;
    }
  }

  /** The document has ended: scans the rest and checks that the root element was closed. */
  finish(): void {
    this.final = true;
    this.waitingFor = undefined;
    this.scan();
    if (this.state === EPILOG) return;
    this.cursor = this.window.end;
    if (this.state === PROLOG) throw this.notWellFormed('the document has no root element');
    this.needMore();
  }

  private unit(start: number): number {
    const bytes = this.window.bytes;
    const end = this.window.end;
    let lt = start;
    if (bytes[start] !== LT) {
      this.until = UNTIL.lt;
      lt =
        this.state === ROOT ? this.scanText(bytes, start, end) : this.skipBlank(bytes, start, end);
      if (lt === end) return this.trailingText(bytes, start, end);
    } else {
      this.textFlags = 0;
    }
    this.until = UNTIL.gt;
    try {
      if (lt + 1 >= end) this.needMore();
      const next = bytes[lt + 1];
      if (lt === start) {
        const fast =
          next === LOWER_M && this.handler.expectsMember()
            ? this.fastMember(bytes, end, lt)
            : next === LOWER_V && this.handler.expectsItem()
              ? this.fastItem(bytes, end, lt)
              : -1;
        if (fast >= 0) return fast;
        this.until = UNTIL.gt;
      }
      switch (next) {
        case SLASH:
          return this.closeTag(bytes, end, start, lt);
        case BANG:
          return this.markupDeclaration(bytes, end, start, lt);
        case QUESTION:
          return this.processingInstruction(bytes, end, start, lt);
        default:
          return this.openTag(bytes, end, start, lt);
      }
    } catch (err) {
      // The text is complete: hand it over now so that it is not scanned again.
      if (err === NEED_MORE && lt > start) {
        this.deliverText(bytes, start, lt, false);
        this.window.start = lt;
      }
      throw err;
    }
  }

  /** Text at the very end of the document (no `<` follows). */
  private trailingText(bytes: Uint8Array, start: number, end: number): number {
    if (this.state === ROOT) this.needMore();
    this.deliverText(bytes, start, end, false);
    return end;
  }

  private openTag(bytes: Uint8Array, end: number, textStart: number, lt: number): number {
    const nameStart = lt + 1;
    const nameEnd = this.name(bytes, end, nameStart);
    const nameFlags = this.nameFlags;
    let j: number;
    const next = bytes[nameEnd];
    if (next === GT) {
      j = nameEnd + 1;
      this.selfClosing = false;
    } else if (next === SLASH) {
      j = this.expectGreater(bytes, end, nameEnd + 1);
      this.selfClosing = true;
    } else if (isSpace(next)) {
      j = this.attributes(bytes, end, nameEnd, lt);
    } else {
      throw this.notWellFormedAt(nameEnd, `unexpected ${describeByte(next)} in a tag`);
    }
    if (this.state === EPILOG) {
      throw this.notWellFormedAt(lt, 'a second element after the root element');
    }
    this.deliverText(bytes, textStart, lt, true);
    const code = elementCode(bytes, nameStart, nameEnd);
    const name =
      code === NONE || code === PREFIXED_NIL
        ? this.window.string(nameStart, nameEnd, nameFlags)
        : '';
    this.state = ROOT;
    this.cursor = j;
    this.handler.openElement(code, name);
    if (this.selfClosing) {
      this.handler.closeElement();
      if (this.open.length === 0) this.state = EPILOG;
    } else {
      this.open.push(code);
      if (code === PREFIXED_NIL) this.prefixedNames.push(name);
    }
    return j;
  }

  private closeTag(bytes: Uint8Array, end: number, textStart: number, lt: number): number {
    const open = this.open;
    if (open.length === 0) throw this.notWellFormedAt(lt, 'a closing tag outside the root element');
    const code = open[open.length - 1];
    let j = lt + 2;
    if (code === PREFIXED_NIL) {
      j = this.name(bytes, end, j);
      const expected = this.prefixedNames[this.prefixedNames.length - 1];
      if (this.window.string(lt + 2, j, this.nameFlags) !== expected) {
        throw this.mismatch(bytes, end, lt, expected);
      }
    } else {
      const name = nameBytes(code);
      for (let k = 0; k < name.length; k++, j++) {
        if (j >= end) this.needMore();
        if (bytes[j] !== name[k]) throw this.mismatch(bytes, end, lt, name.toString('latin1'));
      }
    }
    if (j >= end) this.needMore();
    if (bytes[j] !== GT) {
      if (NAME_CLASS[bytes[j]] !== 0) {
        throw this.mismatch(bytes, end, lt, this.closedName(code));
      }
      j = this.skipSpace(bytes, end, j);
      if (bytes[j] !== GT) throw this.notWellFormedAt(j, `unexpected ${describeByte(bytes[j])}`);
    }
    j++;
    this.deliverText(bytes, textStart, lt, true);
    this.cursor = j;
    this.handler.closeElement();
    open.pop();
    if (code === PREFIXED_NIL) this.prefixedNames.pop();
    if (open.length === 0) this.state = EPILOG;
    return j;
  }

  /** The error for a closing tag whose name is not that of the open element. */
  private mismatch(bytes: Uint8Array, end: number, lt: number, expected: string): NotWellFormed {
    let nameEnd = lt + 2;
    while (nameEnd < end && nameEnd - lt < 64 && NAME_CLASS[bytes[nameEnd]] !== 0) nameEnd++;
    const found = this.window.string(lt + 2, nameEnd, NON_ASCII);
    return this.notWellFormedAt(
      lt,
      `closing tag </${clip(found)}> does not match the open <${expected}>`,
    );
  }

  /** Reads attributes (checked, then ignored) up to the end of the tag; sets `selfClosing`. */
  private attributes(bytes: Uint8Array, end: number, j: number, lt: number): number {
    const names: string[] = [];
    for (;;) {
      const spaced = j;
      j = this.skipSpace(bytes, end, j);
      const next = bytes[j];
      if (next === GT) {
        this.selfClosing = false;
        return j + 1;
      }
      if (next === SLASH) {
        this.selfClosing = true;
        return this.expectGreater(bytes, end, j + 1);
      }
      if (j === spaced) throw this.notWellFormedAt(j, 'attributes must be separated by spaces');
      const nameStart = j;
      j = this.name(bytes, end, j);
      const name = this.window.string(nameStart, j, this.nameFlags);
      if (names.includes(name))
        throw this.notWellFormedAt(nameStart, `duplicate attribute ${clip(name)}`);
      if (names.push(name) > MAX_ATTRIBUTES) {
        throw new ParseError(
          -32700,
          `${this.where(nameStart)}more than ${MAX_ATTRIBUTES} attributes`,
        );
      }
      j = this.skipSpace(bytes, end, j);
      if (bytes[j] !== EQUALS)
        throw this.notWellFormedAt(j, `attribute ${clip(name)} has no value`);
      j = this.skipSpace(bytes, end, j + 1);
      const quote = bytes[j];
      if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) {
        throw this.notWellFormedAt(j, `the value of attribute ${clip(name)} is not quoted`);
      }
      j = this.attributeValue(bytes, end, j + 1, quote, lt);
    }
  }

  private attributeValue(
    bytes: Uint8Array,
    end: number,
    j: number,
    quote: number,
    lt: number,
  ): number {
    for (;;) {
      if (j >= end) this.needMore();
      if (j - lt > MAX_TAG_BYTES) {
        throw new ParseError(-32700, `${this.where(lt)}a tag longer than ${MAX_TAG_BYTES} bytes`);
      }
      const b = bytes[j];
      if (b === quote) return j + 1;
      switch (TEXT_CLASS[b]) {
        case MARKUP:
          throw this.notWellFormedAt(j, "'<' in an attribute value");
        case REFERENCE:
          j = this.reference(bytes, end, j);
          break;
        case HIGH:
          j = this.highByte(bytes, end, j);
          break;
        case FORBIDDEN:
          throw this.invalidCharacter(bytes, j);
        default:
          j++;
      }
    }
  }
}

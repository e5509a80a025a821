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
 */

import { InvalidCharacter, NotWellFormed, ParseError } from '../errors';
import { ByteTemplate } from './byte-template';
import { checkDeclaredEncoding } from './charset';
import * as elements from './elements';
import { type InputWindow, type Position } from './input-window';
import * as inputWindow from './input-window';
import type { MemberShape } from './member-shape';
import * as scalars from './scalars';
import * as references from './xml-references';

/** What the scanner reports, in document order (implemented by XmlRpcReader). */
export interface ContentHandler {
  /** `name` is given only for codes that do not say it: NONE and PREFIXED_NIL. */
  openElement(code: number, name: string): void;
  closeElement(): void;
  /** Text in `window.bytes[start, end)`, valid until the next open or close. */
  text(start: number, end: number, flags: number): void;
  /** Text as a string (CDATA, and text next to comments or across chunks). */
  appendText(text: string): void;
  /** Whether a `<member>` (resp. an array item) may come now, for the fast path. */
  expectsMember(): boolean;
  expectsItem(): boolean;
  /**
   * A whole member with a scalar value, from `<member>` at `prefixStart`: its name's text and its
   * value's. Valid during the call only.
   */
  scalarMember(prefixStart: number, name: ScalarText, value: ScalarText): void;
  /** A whole array item with a scalar value. */
  scalarItem(value: ScalarText): void;
  /** The member the struct had at this place last time (structs in a listing repeat). */
  memberShape(): MemberShape | undefined;
  /** A member that matched `shape`, with its value's text. */
  shapedMember(shape: MemberShape, value: ScalarText): void;
}

/** Text found by the fast path: `window.bytes[start, end)` with its flags, in a `type` element. */
export interface ScalarText {
  /** The element code (VALUE for an untyped value). */
  type: number;
  start: number;
  end: number;
  flags: number;
}

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { elementCode, nameBytes, NONE, PREFIXED_NIL, VALUE, NIL, INT, I4, I8, BOOLEAN, BASE64 } =
  elements;
const { DOUBLE, DATETIME, STRING, ELEMENT_NAMES, FIRST_TYPED, NAME } = elements;
const { isBlankBytes } = scalars;
const { ESCAPED, NON_ASCII } = inputWindow;
const { BAD_CHARACTER_REFERENCE, entityName, INCOMPLETE, scanReference, UNDEFINED_ENTITY } =
  references;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const AMPERSAND = 0x26;
const SINGLE_QUOTE = 0x27;
const DASH = 0x2d;
const SLASH = 0x2f;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

// Byte classes in character data.
const PLAIN = 0;
const MARKUP = 1; // <
const REFERENCE = 2; // &
const CARRIAGE_RETURN = 3;
const GREATER = 4; // > (not allowed after ]])
const HIGH = 5; // part of a non-ASCII character
const FORBIDDEN = 6; // a control character XML does not allow

const TEXT_CLASS = new Uint8Array(256);
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
const NAME_CLASS = new Uint8Array(256);
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
const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>$/;

// Limits far beyond any XML-RPC document; they bound the work a hostile one can cause.
const MAX_NAME_BYTES = 1024;
const MAX_TAG_BYTES = 64 * 1024;
const MAX_ATTRIBUTES = 64;
const MAX_DECLARATION_BYTES = 1024;

// Where the scanner is in the document.
const PROLOG = 0;
const ROOT = 1;
const EPILOG = 2;

/** What can end the unit a chunk ended in: `<` after text, `>` after a tag, and so on. */
const UNTIL = {
  lt: Buffer.from('<'),
  gt: Buffer.from('>'),
  commentEnd: Buffer.from('-->'),
  cdataEnd: Buffer.from(']]>'),
  instructionEnd: Buffer.from('?>'),
};
const DOCTYPE = Buffer.from('DOCTYPE');
const CDATA_OPEN = Buffer.from('CDATA[');

// The fast path: byte templates of the usual compact layout (see `fastMember`).
const LOWER_M = 0x6d;
const LOWER_V = 0x76;
const MEMBER_START = ByteTemplate.of('<member><name>');
const NAME_END_VALUE_START = ByteTemplate.of('</name><value>');
const VALUE_START = ByteTemplate.of('<value>');
const VALUE_END = ByteTemplate.of('</value>');
const MEMBER_END = ByteTemplate.of('</member>');
/**
 * Per value type (the scalar codes, and VALUE for an untyped value): its start tag (`<nil/>` for
 * nil), its end tag, what ends a member after its text, and how much of that is its end tag.
 */
const OPEN_TAGS = perType((name, code) => (code === NIL ? '<nil/>' : `<${name}>`));
const CLOSE_TAGS = perType((name) => `</${name}>`);
const MEMBER_SUFFIXES = perType((name, code) =>
  code === NIL || code === VALUE ? '</value></member>' : `</${name}></value></member>`,
);
const CLOSE_LENGTHS = ELEMENT_NAMES.map((name, code) =>
  code === NIL || code === VALUE ? 0 : name.length + 3,
);

function perType(make: (name: string, code: number) => string): ByteTemplate[] {
  // Other codes never index these tables; they get a template no document can match.
  const unused = ByteTemplate.of('\0\0\0\0');
  return ELEMENT_NAMES.map((name, code) =>
    code >= FIRST_TYPED || code === VALUE ? ByteTemplate.of(make(name, code)) : unused,
  );
}

/** Thrown inside the scanner when the unit is not all there yet; never leaves it. */
const NEED_MORE = new Error('need more input');

export class XmlScanner implements Position {
  private state = PROLOG;
  /** Codes of the open elements, and the names of the open prefixed nils. */
  private readonly open: number[] = [];
  private readonly prefixedNames: string[] = [];
  private final = false;
  /** The end of what the current handler call is about, for its messages. */
  private cursor = 0;
  // Results of the scans that return a position.
  private textFlags = 0;
  private cdataFlags = 0;
  private nameFlags = 0;
  private selfClosing = false;
  // What the fast path read: a member's name, and a value.
  private readonly fastName: ScalarText = { type: NAME, start: 0, end: 0, flags: 0 };
  private readonly fastValue: ScalarText = { type: NONE, start: 0, end: 0, flags: 0 };
  // Waiting: what can end the unit, and from which document offset to look for it.
  private until: Buffer = UNTIL.lt;
  private waitingFor: Buffer | undefined;
  private waitFrom = 0;

  constructor(
    private readonly window: InputWindow,
    private readonly handler: ContentHandler,
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

  // -------------------------------------------------------------------------------------------
  // Units: the text up to the next `<`, then the markup there.

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

  // -------------------------------------------------------------------------------------------
  // The fast path. Most of a response is struct members and array items with a scalar value,
  // written without whitespace between tags. Such a member is matched as a whole against byte
  // templates and handed to the reader in one call. Anything else (whitespace, attributes, a
  // nested value, a different tag, the end of the input) returns -1 before anything was
  // reported, and the unit is scanned again tag by tag. Texts are scanned by `scanText`, after
  // the tags before them were matched, so a bad text fails as it would tag by tag.

  /** `<member><name>…</name><value>…</value></member>` at `lt`, or -1. */
  private fastMember(bytes: Uint8Array, end: number, lt: number): number {
    const view = this.window.view;
    const shape = this.handler.memberShape();
    if (shape !== undefined && shape.prefix.matches(view, lt, end)) {
      const start = lt + shape.prefix.length;
      const type = shape.type;
      let stop = start;
      this.textFlags = 0;
      if (type !== NIL) {
        this.until = UNTIL.lt;
        stop = this.scanText(bytes, start, end);
      }
      const suffix = MEMBER_SUFFIXES[type];
      if (suffix.matches(view, stop, end)) {
        this.cursor = stop + CLOSE_LENGTHS[type];
        const value = this.fastValue;
        value.type = type;
        value.start = start;
        value.end = stop;
        value.flags = this.textFlags;
        this.handler.shapedMember(shape, value);
        return stop + suffix.length;
      }
    }
    return this.newMember(bytes, view, end, lt);
  }

  /** A member unlike the last one at this place: read it, and the reader learns its shape. */
  private newMember(bytes: Uint8Array, view: DataView, end: number, lt: number): number {
    if (!MEMBER_START.matches(view, lt, end)) return -1;
    const name = this.fastName;
    name.start = lt + MEMBER_START.length;
    this.until = UNTIL.lt;
    name.end = this.scanText(bytes, name.start, end);
    name.flags = this.textFlags;
    if (!NAME_END_VALUE_START.matches(view, name.end, end)) return -1;
    const j = this.fastScalar(bytes, view, end, name.end + NAME_END_VALUE_START.length);
    if (j < 0 || !MEMBER_END.matches(view, j, end)) return -1;
    this.handler.scalarMember(lt, name, this.fastValue);
    return j + MEMBER_END.length;
  }

  /** `<value>…</value>` at `lt`, or -1. */
  private fastItem(bytes: Uint8Array, end: number, lt: number): number {
    const view = this.window.view;
    if (!VALUE_START.matches(view, lt, end)) return -1;
    const j = this.fastScalar(bytes, view, end, lt + VALUE_START.length);
    if (j < 0) return -1;
    this.handler.scalarItem(this.fastValue);
    return j;
  }

  /** The content of a `<value>` at `i` and its `</value>`: a scalar (or untyped) value, or -1. */
  private fastScalar(bytes: Uint8Array, view: DataView, end: number, i: number): number {
    let type = VALUE;
    let start = i;
    let stop: number;
    let j: number;
    this.until = UNTIL.lt;
    if (bytes[i] !== LT || bytes[i + 1] === SLASH) {
      stop = j = this.scanText(bytes, i, end);
    } else {
      type = typeAt(bytes, view, end, i);
      if (type === NONE) return -1;
      start = i + OPEN_TAGS[type].length;
      if (type === NIL) {
        stop = j = start;
        this.textFlags = 0;
      } else {
        stop = this.scanText(bytes, start, end);
        if (!CLOSE_TAGS[type].matches(view, stop, end)) return -1;
        j = stop + CLOSE_TAGS[type].length;
      }
    }
    if (!VALUE_END.matches(view, j, end)) return -1;
    const value = this.fastValue;
    value.type = type;
    value.start = start;
    value.end = stop;
    value.flags = this.textFlags;
    this.cursor = j;
    return j + VALUE_END.length;
  }

  /** Hands the text before a tag to the reader (as a range only when the tag is an element's). */
  private deliverText(bytes: Uint8Array, start: number, end: number, asRange: boolean): void {
    if (start === end) return;
    if (this.state !== ROOT) {
      if (isBlankBytes(bytes, start, end)) return;
      this.cursor = start;
      throw this.notWellFormed('text outside the root element');
    }
    if (asRange) this.handler.text(start, end, this.textFlags);
    else this.handler.appendText(this.window.text(start, end, this.textFlags));
  }

  /** Text at the very end of the document (no `<` follows). */
  private trailingText(bytes: Uint8Array, start: number, end: number): number {
    if (this.state === ROOT) this.needMore();
    this.deliverText(bytes, start, end, false);
    return end;
  }

  // -------------------------------------------------------------------------------------------
  // Tags

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

  private closedName(code: number): string {
    return code === PREFIXED_NIL
      ? this.prefixedNames[this.prefixedNames.length - 1]
      : nameBytes(code).toString('latin1');
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

  /** An XML name from `bytes[at]`; returns its end and sets `nameFlags`. */
  private name(bytes: Uint8Array, end: number, at: number): number {
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

  private checkHighBytes(bytes: Uint8Array, end: number, from: number, to: number): void {
    for (let i = from; i < to; i++) if (bytes[i] >= 0x80) this.highByte(bytes, end, i);
  }

  private skipSpace(bytes: Uint8Array, end: number, j: number): number {
    for (;;) {
      if (j >= end) this.needMore();
      if (!isSpace(bytes[j])) return j;
      j++;
    }
  }

  private expectGreater(bytes: Uint8Array, end: number, j: number): number {
    if (j >= end) this.needMore();
    if (bytes[j] !== GT) throw this.notWellFormedAt(j, `expected '>' after '/'`);
    return j + 1;
  }

  // -------------------------------------------------------------------------------------------
  // Character data

  /** The index of the `<` that ends the text from `i` (or `end` at the end of the document). */
  private scanText(bytes: Uint8Array, i: number, end: number): number {
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
  private skipBlank(bytes: Uint8Array, i: number, end: number): number {
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
  private reference(bytes: Uint8Array, end: number, at: number): number {
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
  private highByte(bytes: Uint8Array, end: number, i: number): number {
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

  // -------------------------------------------------------------------------------------------
  // Comments, CDATA, processing instructions, the XML declaration, DOCTYPE

  private markupDeclaration(bytes: Uint8Array, end: number, textStart: number, lt: number): number {
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
  private expect(bytes: Uint8Array, end: number, at: number, expected: Buffer, lt: number): void {
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

  private comment(bytes: Uint8Array, end: number, j: number): number {
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
  private cdata(bytes: Uint8Array, end: number, j: number): number {
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

  /** One byte of a comment, CDATA section or processing instruction: any XML character. */
  private otherCharacter(bytes: Uint8Array, end: number, j: number): number {
    const kind = TEXT_CLASS[bytes[j]];
    if (kind === FORBIDDEN) throw this.invalidCharacter(bytes, j);
    return kind === HIGH ? this.highByte(bytes, end, j) : j + 1;
  }

  private processingInstruction(
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

  private xmlDeclaration(bytes: Uint8Array, end: number, lt: number, j: number): number {
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

  // -------------------------------------------------------------------------------------------
  // Waiting and errors

  /** Stops the unit: it continues when more input comes, or is an error at the end. */
  private needMore(): never {
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

  private where(index: number): string {
    const { line, column } = this.window.position(index);
    return `${line}:${column}: `;
  }

  private notWellFormedAt(index: number, message: string): NotWellFormed {
    return new NotWellFormed(-32700, this.where(index) + message);
  }

  private notWellFormed(message: string): NotWellFormed {
    return this.notWellFormedAt(this.cursor, message);
  }

  private invalidCharacter(bytes: Uint8Array, index: number): InvalidCharacter {
    const code = bytes[index].toString(16).toUpperCase().padStart(4, '0');
    return new InvalidCharacter(-32702, `${this.where(index)}U+${code} is not allowed in XML 1.0`);
  }
}

/** The scalar type whose start tag (`<nil/>` for nil) is at `bytes[i]`, or NONE. */
function typeAt(bytes: Uint8Array, view: DataView, end: number, i: number): number {
  let type: number;
  switch (bytes[i + 1]) {
    case 0x73: // s
      type = STRING;
      break;
    case 0x69: // i
      type = bytes[i + 2] === 0x6e ? INT : bytes[i + 2] === 0x34 ? I4 : I8;
      break;
    case 0x62: // b
      type = bytes[i + 2] === 0x6f ? BOOLEAN : BASE64;
      break;
    case 0x64: // d
      type = bytes[i + 2] === 0x6f ? DOUBLE : DATETIME;
      break;
    case 0x6e: // n
      type = NIL;
      break;
    default:
      return NONE;
  }
  return OPEN_TAGS[type].matches(view, i, end) ? type : NONE;
}

function isSpace(b: number): boolean {
  return b === SPACE || b === LF || b === TAB || b === CR;
}

function describeByte(b: number): string {
  return b >= 0x21 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16)}`;
}

function clip(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

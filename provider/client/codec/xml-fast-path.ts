/**
 * The fast path of the XML scanner (xml-scanner.ts). Most of a response is struct members and
 * array items with a scalar value, written without whitespace between tags. Such a member is
 * matched as a whole against byte templates (first against the shape the struct had at that
 * place last time: member-shape.ts) and handed to the reader in one call. Anything else
 * (whitespace, attributes, a nested value, another tag, the end of the input) returns -1 before
 * anything was reported, and the unit is scanned again tag by tag. Texts are scanned by
 * `scanText`, after the tags before them were matched, so a bad text fails as it would tag by
 * tag.
 */

import { ByteTemplate } from './byte-template';
import type { ScalarText } from './content-handler';
import * as elements from './elements';
import * as characters from './xml-characters';
import * as markup from './xml-markup';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const { NONE, VALUE, NIL, INT, I4, I8, BOOLEAN, BASE64, DOUBLE, DATETIME, STRING, NAME } = elements;
const { ELEMENT_NAMES, FIRST_TYPED, templatesFor } = elements;
const { LT, SLASH, UNTIL } = characters;

const MEMBER_START = ByteTemplate.of('<member><name>');
const NAME_END_VALUE_START = ByteTemplate.of('</name><value>');
const VALUE_START = ByteTemplate.of('<value>');
const VALUE_END = ByteTemplate.of('</value>');
const MEMBER_END = ByteTemplate.of('</member>');
/**
 * Per value type (the scalar codes, and VALUE for an untyped value): its start tag (`<nil/>` for
 * nil), its end tag, what ends a member after its text, and how much of that is its end tag.
 */
const TYPES = ELEMENT_NAMES.map((_, code) => code).filter((c) => c === VALUE || c >= FIRST_TYPED);
const OPEN_TAGS = templatesFor(TYPES, (name, code) => (code === NIL ? '<nil/>' : `<${name}>`));
const CLOSE_TAGS = templatesFor(TYPES, (name) => `</${name}>`);
const MEMBER_SUFFIXES = templatesFor(TYPES, (name, code) =>
  code === NIL || code === VALUE ? '</value></member>' : `</${name}></value></member>`,
);
const CLOSE_LENGTHS = ELEMENT_NAMES.map((name, code) =>
  code === NIL || code === VALUE ? 0 : name.length + 3,
);

export class FastPathScanner extends markup.MarkupScanner {
  // What the fast path read: a member's name, and a value.
  private readonly fastName: ScalarText = { type: NAME, start: 0, end: 0, flags: 0 };
  private readonly fastValue: ScalarText = { type: NONE, start: 0, end: 0, flags: 0 };

  /** `<member><name>…</name><value>…</value></member>` at `lt`, or -1. */
  protected fastMember(bytes: Uint8Array, end: number, lt: number): number {
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
  protected fastItem(bytes: Uint8Array, end: number, lt: number): number {
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

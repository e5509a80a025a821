/**
 * Builds XML-RPC values from what the scanner reports (no DOM). The reader checks the structure
 * as it goes (which element may hold which, one value per member/param, the nesting limit) and
 * throws `ParseError` with the scanner's line:column at the first problem. Scalars are read from
 * the bytes of their text where they can be (integers, booleans, member names), so most of them
 * never exist as a string.
 *
 * Open structs/arrays live in parallel arrays indexed by nesting depth, so building a value costs
 * no allocation beyond the value itself.
 */

import * as elements from './elements';
import { MemberShape } from './member-shape';
import { clip } from './messages';
import * as scalarReader from './scalar-reader';
import type { ContentHandler, ScalarText } from './content-handler';
import type { DecodedResponse, Fault, XmlRpcValue } from './types';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call, too slow here.
const {
  ARRAY,
  DATA,
  ELEMENT_NAMES,
  FAULT,
  FIRST_TYPED,
  MEMBER,
  METHOD_CALL,
  METHOD_NAME,
  METHOD_RESPONSE,
  NAME,
  NONE,
  PARAM,
  PARAMS,
  STRUCT,
  VALUE,
} = elements;

export type DocumentKind = 'response' | 'call';

type Struct = { [key: string]: XmlRpcValue };

// Progress through one <member>.
const MEMBER_OPEN = 0;
const MEMBER_NAMED = 1;
const MEMBER_COMPLETE = 2;

/** Members beyond this position in a struct, or deeper, are not remembered across documents. */
const MAX_SHAPED_MEMBERS = 256;
const MAX_REMEMBERED_DEPTH = 16;

export class XmlRpcReader extends scalarReader.ScalarReader implements ContentHandler {
  /** Codes of the open elements, outermost first. */
  private readonly elements: number[] = [];

  /** Open structs and arrays; `depth` of them are in use. */
  private readonly containers: (Struct | XmlRpcValue[])[] = [];
  private readonly memberNames: string[] = [];
  private readonly memberStates: number[] = [];
  /** Per depth: member names of the previous struct there, and how far the current one is. */
  private readonly knownKeys: string[][] = [];
  private readonly memberCounts: number[] = [];
  /** Per depth and position: the shape of the member seen there last (member-shape.ts). */
  private readonly shapes: (MemberShape | undefined)[][] = [];
  private depth = 0;

  /** Whether the innermost open <value> already has its typed child, and that child's value. */
  private typed = false;
  private lastValue: XmlRpcValue = null;

  private params: XmlRpcValue[] = [];
  private paramHasValue = false;
  private bodySeen = false;
  private faultValue: XmlRpcValue | undefined;
  private methodName: string | undefined;

  private kind: DocumentKind = 'response';
  private maxDepth = 0;

  /** Starts a document. */
  start(kind: DocumentKind, maxDepth: number): void {
    this.kind = kind;
    this.maxDepth = maxDepth;
  }

  /**
   * Forgets the document (the reader is kept for the next one: see decode.ts), keeping what it
   * learnt about member names and shapes, within bounds.
   */
  clear(): void {
    this.elements.length = 0;
    this.clearText();
    this.containers.length = 0;
    this.memberNames.length = 0;
    this.memberStates.length = 0;
    this.memberCounts.length = 0;
    for (const learnt of [this.knownKeys, this.shapes]) {
      learnt.length = Math.min(learnt.length, MAX_REMEMBERED_DEPTH);
      for (const perDepth of learnt) {
        if (perDepth !== undefined) perDepth.length = Math.min(perDepth.length, MAX_SHAPED_MEMBERS);
      }
    }
    this.depth = 0;
    this.typed = false;
    this.lastValue = null;
    this.params = [];
    this.paramHasValue = false;
    this.bodySeen = false;
    this.faultValue = undefined;
    this.methodName = undefined;
  }

  openElement(code: number, name: string): void {
    const elements = this.elements;
    const parent = elements.length === 0 ? NONE : elements[elements.length - 1];
    if (!this.textIsBlank()) this.fail(`text before <${clip(nameOf(code, name))}>`);
    this.clearText();
    switch (code) {
      case VALUE:
        this.openValue(parent);
        break;
      case STRUCT:
      case ARRAY:
        this.openTyped(parent, code, name);
        if (this.depth >= this.maxDepth) {
          this.fail(`structs and arrays nest deeper than ${this.maxDepth}`);
        }
        this.containers[this.depth] = code === STRUCT ? {} : [];
        this.memberCounts[this.depth] = 0;
        this.depth++;
        break;
      case MEMBER:
        this.requireParent(parent, STRUCT, code);
        this.memberStates[this.depth - 1] = MEMBER_OPEN;
        break;
      case NAME:
        this.requireParent(parent, MEMBER, code);
        if (this.memberStates[this.depth - 1] !== MEMBER_OPEN) {
          this.fail('<member> has more than one <name>');
        }
        break;
      case DATA:
        this.requireParent(parent, ARRAY, code);
        break;
      case PARAM:
        this.requireParent(parent, PARAMS, code);
        this.paramHasValue = false;
        break;
      case NONE:
        this.fail(`unknown element <${clip(name)}>`);
        break;
      default:
        if (code >= FIRST_TYPED) this.openTyped(parent, code, name);
        else this.openEnvelope(code, parent);
    }
    elements.push(code);
  }

  closeElement(): void {
    const code = this.elements.pop() ?? NONE;
    if (code >= FIRST_TYPED) {
      this.produce(this.scalar(code));
      this.clearText();
      return;
    }
    switch (code) {
      case VALUE:
        if (!this.typed) this.deliver(this.currentText());
        else if (this.textIsBlank()) this.deliver(this.lastValue);
        else this.fail('text after the typed content of <value>');
        break;
      case NAME:
        this.memberNames[this.depth - 1] = this.memberName();
        this.memberStates[this.depth - 1] = MEMBER_NAMED;
        break;
      case STRUCT:
      case ARRAY:
        this.requireBlank();
        this.depth--;
        this.produce(this.containers[this.depth]);
        break;
      case MEMBER:
        this.requireBlank();
        if (this.memberStates[this.depth - 1] !== MEMBER_COMPLETE) {
          this.fail('<member> without <value>');
        }
        break;
      case PARAM:
        this.requireBlank();
        if (!this.paramHasValue) this.fail('<param> without <value>');
        break;
      case FAULT:
        this.requireBlank();
        if (this.faultValue === undefined) this.fail('<fault> without <value>');
        break;
      case METHOD_NAME: {
        const text = this.currentText().trim();
        if (text === '') this.fail('empty <methodName>');
        this.methodName = text;
        break;
      }
      default:
        this.requireBlank();
    }
    this.clearText();
  }

  /** Whether a `<member>` may come now (the fast path's precondition: see xml-scanner.ts). */
  expectsMember(): boolean {
    return this.elements[this.elements.length - 1] === STRUCT && this.textString === undefined;
  }

  /** Whether an array item may come now. */
  expectsItem(): boolean {
    return this.elements[this.elements.length - 1] === DATA && this.textString === undefined;
  }

  /**
   * A whole `<member><name>…</name><value><type>…</type></value></member>` with a scalar value
   * (`type` is VALUE for an untyped one), as the events of it would have built it.
   */
  scalarMember(prefixStart: number, name: ScalarText, value: ScalarText): void {
    const top = this.depth - 1;
    const index = this.memberCounts[top];
    this.setText(name.start, name.end, name.flags);
    const key = this.memberName();
    if (name.flags === 0 && index < MAX_SHAPED_MEMBERS) {
      const prefix = this.window.bytes.subarray(prefixStart, value.start);
      (this.shapes[top] ??= [])[index] = new MemberShape(key, prefix, value.type);
    }
    this.setMember(top, key, value);
  }

  memberShape(): MemberShape | undefined {
    const top = this.depth - 1;
    return this.shapes[top]?.[this.memberCounts[top]];
  }

  shapedMember(shape: MemberShape, value: ScalarText): void {
    const top = this.depth - 1;
    this.memberCounts[top]++;
    this.setMember(top, shape.key, value);
  }

  /** Sets member `key` of the open struct at `top` to a scalar value. */
  private setMember(top: number, key: string, value: ScalarText): void {
    setMember(this.containers[top] as Struct, key, this.scalarValue(value));
    this.memberStates[top] = MEMBER_COMPLETE;
  }

  /** A whole `<value><type>…</type></value>` with a scalar value, as an array item. */
  scalarItem(value: ScalarText): void {
    (this.containers[this.depth - 1] as XmlRpcValue[]).push(this.scalarValue(value));
  }

  private scalarValue({ type, start, end, flags }: ScalarText): XmlRpcValue {
    this.setText(start, end, flags);
    const value = type === VALUE ? this.currentText() : this.scalar(type);
    this.clearText();
    return value;
  }

  /**
   * Structs in a listing repeat their member names in order. Reusing the string of the previous
   * struct (already internalised by V8 as a property key) saves making a string and a
   * string-table lookup per member; comparing bytes is cheaper than both.
   */
  private memberName(): string {
    const top = this.depth - 1;
    const index = this.memberCounts[top]++;
    const known = (this.knownKeys[top] ??= []);
    const candidate = known[index];
    if (
      candidate !== undefined &&
      this.textString === undefined &&
      this.textFlags === 0 &&
      sameAscii(this.window.bytes, this.textStart, this.textEnd, candidate)
    ) {
      return candidate;
    }
    const name = this.currentText();
    known[index] = name;
    return name;
  }

  /** The decoded response; call after the parser has closed the document. */
  response(): DecodedResponse {
    if (this.faultValue !== undefined) {
      return { kind: 'fault', fault: this.toFault(this.faultValue) };
    }
    if (this.params.length !== 1) {
      this.fail(`a response needs exactly one <param>, found ${this.params.length}`, false);
    }
    return { kind: 'value', value: this.params[0] };
  }

  /** The decoded call; call after the parser has closed the document. */
  call(): { methodName: string; params: XmlRpcValue[] } {
    if (this.methodName === undefined) this.fail('<methodCall> without <methodName>', false);
    return { methodName: this.methodName, params: this.params };
  }

  private openValue(parent: number): void {
    if (parent === MEMBER) {
      if (this.memberStates[this.depth - 1] !== MEMBER_NAMED) {
        this.fail('<member> needs one <name> followed by one <value>');
      }
    } else if (parent === PARAM) {
      if (this.paramHasValue) this.fail('<param> has more than one <value>');
    } else if (parent === FAULT) {
      if (this.faultValue !== undefined) this.fail('<fault> has more than one <value>');
    } else if (parent !== DATA) {
      this.misplaced(VALUE);
    }
    this.typed = false;
  }

  /** A type element (int, string, struct, ...): the single child of a <value>. */
  private openTyped(parent: number, code: number, name: string): void {
    this.requireParent(parent, VALUE, code, name);
    if (this.typed) this.fail(`<value> has more than one child (<${clip(nameOf(code, name))}>)`);
  }

  /** methodResponse, methodCall, methodName, params, fault: the envelope around the values. */
  private openEnvelope(code: number, parent: number): void {
    const isResponse = this.kind === 'response';
    switch (code) {
      case METHOD_RESPONSE:
        if (parent !== NONE || !isResponse) this.misplaced(code);
        return;
      case METHOD_CALL:
        if (parent !== NONE || isResponse) this.misplaced(code);
        return;
      case METHOD_NAME:
        this.requireParent(parent, METHOD_CALL, code);
        if (this.methodName !== undefined || this.bodySeen) {
          this.fail('<methodName> must come once, first');
        }
        return;
      case PARAMS:
        // A bare <params> document is what Python's xmlrpc.client (and the real API's fixtures) accept.
        if (parent === NONE ? !isResponse : parent !== METHOD_RESPONSE && parent !== METHOD_CALL) {
          this.misplaced(code);
        }
        this.openBody(parent);
        return;
      case FAULT:
        this.requireParent(parent, METHOD_RESPONSE, code);
        this.openBody(parent);
        return;
    }
  }

  private openBody(parent: number): void {
    if (this.bodySeen) this.fail('more than one <params> or <fault>');
    if (parent === METHOD_CALL && this.methodName === undefined) {
      this.fail('<params> before <methodName>');
    }
    this.bodySeen = true;
  }

  private produce(value: XmlRpcValue): void {
    this.lastValue = value;
    this.typed = true;
  }

  /** Hands the value of a closed <value> to whatever holds it. */
  private deliver(value: XmlRpcValue): void {
    const holder = this.elements[this.elements.length - 1];
    if (holder === MEMBER) {
      const top = this.depth - 1;
      setMember(this.containers[top] as Struct, this.memberNames[top], value);
      this.memberStates[top] = MEMBER_COMPLETE;
    } else if (holder === DATA) {
      (this.containers[this.depth - 1] as XmlRpcValue[]).push(value);
    } else if (holder === PARAM) {
      this.params.push(value);
      this.paramHasValue = true;
    } else {
      this.faultValue = value;
    }
  }

  private toFault(value: XmlRpcValue): Fault {
    if (!isStruct(value)) this.fail('<fault> value is not a struct', false);
    const { faultCode, faultString } = value;
    if (typeof faultCode !== 'number' && typeof faultCode !== 'string') {
      this.fail('<fault> without an int or string faultCode', false);
    }
    if (faultString !== undefined && typeof faultString !== 'string') {
      this.fail('<fault> faultString is not a string', false);
    }
    return { faultCode, faultString: faultString ?? '' };
  }

  private requireParent(parent: number, expected: number, code: number, name = ''): void {
    if (parent !== expected) this.misplaced(code, name);
  }

  private misplaced(code: number, name = ''): never {
    return this.fail(`<${clip(nameOf(code, name))}> is not allowed here`);
  }
}

/** The element's name for messages: its own name when it has one (unknown, prefixed nil). */
function nameOf(code: number, name: string): string {
  return name === '' ? ELEMENT_NAMES[code] : name;
}

/** Whether `bytes[start, end)` are the (ASCII) characters of `text`. */
function sameAscii(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (text.length !== end - start) return false;
  for (let k = 0; k < text.length; k++) {
    if (text.charCodeAt(k) !== bytes[start + k]) return false;
  }
  return true;
}

function setMember(struct: Struct, key: string, value: XmlRpcValue): void {
  if (key === '__proto__') {
    // Plain assignment would replace the object's prototype instead of adding a member.
    Object.defineProperty(struct, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    struct[key] = value;
  }
}

function isStruct(value: XmlRpcValue): value is Struct {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

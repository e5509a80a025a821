/**
 * Builds XML-RPC values straight from parser events (no DOM). The parser calls `openElement`,
 * `closeElement` and `appendText`; the reader checks the structure as it goes (which element may
 * hold which, one value per member/param, the nesting limit) and throws `ParseError` with the
 * parser's line:column at the first problem.
 *
 * Open structs/arrays live in parallel arrays indexed by nesting depth, so building a value costs
 * no allocation beyond the value itself.
 */

import { ParseError } from '../errors';
import { parseIso8601 } from './iso8601';
import { isBlank, parseBase64, parseBoolean, parseDouble, parseInteger } from './scalars';
import type { DecodedResponse, Fault, XmlRpcValue } from './types';

export type DocumentKind = 'response' | 'call';

/** Where the parser is; saxes' parser object satisfies this. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

type Struct = { [key: string]: XmlRpcValue };

// Element codes. NONE is the parent of the root element.
const NONE = 0;
const METHOD_RESPONSE = 1;
const METHOD_CALL = 2;
const METHOD_NAME = 3;
const PARAMS = 4;
const PARAM = 5;
const FAULT = 6;
const VALUE = 7;
const STRUCT = 8;
const MEMBER = 9;
const NAME = 10;
const ARRAY = 11;
const DATA = 12;
const INT = 13;
const DOUBLE = 14;
const BOOLEAN = 15;
const STRING = 16;
const DATETIME = 17;
const BASE64 = 18;
const NIL = 19;

// Progress through one <member>.
const MEMBER_OPEN = 0;
const MEMBER_NAMED = 1;
const MEMBER_COMPLETE = 2;

/** Ordered by how often the element appears in real responses. */
function elementCode(name: string): number {
  switch (name) {
    case 'value':
      return VALUE;
    case 'member':
      return MEMBER;
    case 'name':
      return NAME;
    case 'string':
      return STRING;
    case 'int':
    case 'i4':
    case 'i8':
      return INT;
    case 'boolean':
      return BOOLEAN;
    case 'struct':
      return STRUCT;
    case 'double':
      return DOUBLE;
    case 'array':
      return ARRAY;
    case 'data':
      return DATA;
    case 'nil':
      return NIL;
    case 'dateTime.iso8601':
      return DATETIME;
    case 'base64':
      return BASE64;
    case 'param':
      return PARAM;
    case 'params':
      return PARAMS;
    case 'fault':
      return FAULT;
    case 'methodResponse':
      return METHOD_RESPONSE;
    case 'methodCall':
      return METHOD_CALL;
    case 'methodName':
      return METHOD_NAME;
    default:
      // Apache's extension namespace (<ex:nil/>) and friends.
      return name.endsWith(':nil') ? NIL : NONE;
  }
}

export class XmlRpcReader {
  /** Codes of the open elements, outermost first. */
  private readonly elements: number[] = [];
  private text = '';

  /** Open structs and arrays; `depth` of them are in use. */
  private readonly containers: (Struct | XmlRpcValue[])[] = [];
  private readonly memberNames: string[] = [];
  private readonly memberStates: number[] = [];
  /** Per depth: member names of the previous struct there, and how far the current one is. */
  private readonly knownKeys: string[][] = [];
  private readonly memberCounts: number[] = [];
  private depth = 0;

  /** Whether the innermost open <value> already has its typed child, and that child's value. */
  private typed = false;
  private lastValue: XmlRpcValue = null;

  private readonly params: XmlRpcValue[] = [];
  private paramHasValue = false;
  private bodySeen = false;
  private faultValue: XmlRpcValue | undefined;
  private methodName: string | undefined;

  constructor(
    private readonly kind: DocumentKind,
    private readonly maxDepth: number,
    private readonly position: Position,
  ) {}

  appendText(text: string): void {
    this.text = this.text === '' ? text : this.text + text;
  }

  openElement(name: string): void {
    const code = elementCode(name);
    const elements = this.elements;
    const parent = elements.length === 0 ? NONE : elements[elements.length - 1];
    if (this.text !== '' && !isBlank(this.text)) this.fail(`text before <${clip(name)}>`);
    switch (code) {
      case VALUE:
        this.openValue(parent);
        break;
      case STRUCT:
      case ARRAY:
        this.openTyped(parent, name);
        if (this.depth >= this.maxDepth) {
          this.fail(`structs and arrays nest deeper than ${this.maxDepth}`);
        }
        this.containers[this.depth] = code === STRUCT ? {} : [];
        this.memberCounts[this.depth] = 0;
        this.depth++;
        break;
      case MEMBER:
        this.requireParent(parent, STRUCT, name);
        this.memberStates[this.depth - 1] = MEMBER_OPEN;
        break;
      case NAME:
        this.requireParent(parent, MEMBER, name);
        if (this.memberStates[this.depth - 1] !== MEMBER_OPEN) {
          this.fail('<member> has more than one <name>');
        }
        break;
      case DATA:
        this.requireParent(parent, ARRAY, name);
        break;
      case PARAM:
        this.requireParent(parent, PARAMS, name);
        this.paramHasValue = false;
        break;
      case NONE:
        this.fail(`unknown element <${clip(name)}>`);
        break;
      default:
        if (code >= INT) this.openTyped(parent, name);
        else this.openEnvelope(code, parent, name);
    }
    elements.push(code);
    this.text = '';
  }

  closeElement(): void {
    const code = this.elements.pop() ?? NONE;
    const text = this.text;
    this.text = '';
    switch (code) {
      case VALUE:
        if (!this.typed) this.deliver(detach(text));
        else if (text === '' || isBlank(text)) this.deliver(this.lastValue);
        else this.fail('text after the typed content of <value>');
        break;
      case STRING:
        this.produce(detach(text));
        break;
      case INT:
        this.produce(parseInteger(text) ?? this.badText('integer', text));
        break;
      case BOOLEAN:
        this.produce(parseBoolean(text) ?? this.badText('boolean', text));
        break;
      case DOUBLE:
        this.produce(parseDouble(text) ?? this.badText('double', text));
        break;
      case DATETIME:
        this.produce(parseIso8601(text) ?? this.badText('dateTime.iso8601', text));
        break;
      case BASE64:
        this.produce(parseBase64(text) ?? this.badText('base64', text));
        break;
      case NIL:
        this.requireBlank(text);
        this.produce(null);
        break;
      case NAME:
        this.memberNames[this.depth - 1] = this.knownKey(text);
        this.memberStates[this.depth - 1] = MEMBER_NAMED;
        break;
      case STRUCT:
      case ARRAY:
        this.requireBlank(text);
        this.depth--;
        this.produce(this.containers[this.depth]);
        break;
      case MEMBER:
        this.requireBlank(text);
        if (this.memberStates[this.depth - 1] !== MEMBER_COMPLETE) {
          this.fail('<member> without <value>');
        }
        break;
      case PARAM:
        this.requireBlank(text);
        if (!this.paramHasValue) this.fail('<param> without <value>');
        break;
      case FAULT:
        this.requireBlank(text);
        if (this.faultValue === undefined) this.fail('<fault> without <value>');
        break;
      case METHOD_NAME:
        if (text.trim() === '') this.fail('empty <methodName>');
        this.methodName = detach(text.trim());
        break;
      default:
        this.requireBlank(text);
    }
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
      this.misplaced('value');
    }
    this.typed = false;
  }

  /** A type element (int, string, struct, ...): the single child of a <value>. */
  private openTyped(parent: number, name: string): void {
    this.requireParent(parent, VALUE, name);
    if (this.typed) this.fail(`<value> has more than one child (<${clip(name)}>)`);
  }

  /** methodResponse, methodCall, methodName, params, fault: the envelope around the values. */
  private openEnvelope(code: number, parent: number, name: string): void {
    const isResponse = this.kind === 'response';
    switch (code) {
      case METHOD_RESPONSE:
        if (parent !== NONE || !isResponse) this.misplaced(name);
        return;
      case METHOD_CALL:
        if (parent !== NONE || isResponse) this.misplaced(name);
        return;
      case METHOD_NAME:
        this.requireParent(parent, METHOD_CALL, name);
        if (this.methodName !== undefined || this.bodySeen) {
          this.fail('<methodName> must come once, first');
        }
        return;
      case PARAMS:
        // A bare <params> document is what Python's xmlrpc.client (and the real API's fixtures) accept.
        if (parent === NONE ? !isResponse : parent !== METHOD_RESPONSE && parent !== METHOD_CALL) {
          this.misplaced(name);
        }
        this.openBody(parent);
        return;
      case FAULT:
        this.requireParent(parent, METHOD_RESPONSE, name);
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

  /**
   * Structs in a listing repeat their member names in order. Reusing the string object of the
   * previous struct (already internalised by V8 as a property key) saves a string-table lookup
   * per member; comparing is cheaper than hashing.
   */
  private knownKey(name: string): string {
    const top = this.depth - 1;
    const index = this.memberCounts[top]++;
    const known = (this.knownKeys[top] ??= []);
    if (known[index] === name) return known[index];
    known[index] = name;
    return name;
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

  private requireParent(parent: number, expected: number, name: string): void {
    if (parent !== expected) this.misplaced(name);
  }

  private requireBlank(text: string): void {
    if (text !== '' && !isBlank(text)) this.fail(`unexpected text ${quote(text)}`);
  }

  private misplaced(name: string): never {
    return this.fail(`<${clip(name)}> is not allowed here`);
  }

  private badText(type: string, text: string): never {
    return this.fail(`invalid ${type} ${quote(text)}`);
  }

  private fail(message: string, withPosition = true): never {
    const where = withPosition ? `${this.position.line}:${this.position.column}: ` : '';
    throw new ParseError(-32700, `${where}${message}`);
  }
}

/**
 * A copy of `text` that does not point into the document. Parser text is usually a V8 slice of
 * the whole body, so one kept string would keep the whole body alive (measured: 10 strings
 * kept from 10 decodes of a 10k-row listing held 159 MB). V8 only slices from 13 characters on.
 */
function detach(text: string): string {
  return text.length >= 13 ? (' ' + text).slice(1) : text;
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

function clip(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

function quote(text: string): string {
  return JSON.stringify(clip(text));
}

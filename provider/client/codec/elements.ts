/**
 * The elements of XML-RPC, as small integer codes. The scanner turns a tag name (bytes) into a
 * code and checks a closing tag against the code of the open element; the reader works on codes.
 */

import { ByteTemplate } from './byte-template';

// NONE is an unknown element, and the parent of the root element.
export const NONE = 0;
export const METHOD_RESPONSE = 1;
export const METHOD_CALL = 2;
export const METHOD_NAME = 3;
export const PARAMS = 4;
export const PARAM = 5;
export const FAULT = 6;
export const VALUE = 7;
export const STRUCT = 8;
export const MEMBER = 9;
export const NAME = 10;
export const ARRAY = 11;
export const DATA = 12;
// From here on: the typed children of <value>.
export const INT = 13;
export const I4 = 14;
export const I8 = 15;
export const DOUBLE = 16;
export const BOOLEAN = 17;
export const STRING = 18;
export const DATETIME = 19;
export const BASE64 = 20;
export const NIL = 21;
/** `<ex:nil/>`, `<apache:nil/>`: any prefixed nil (Apache's extension namespace and friends). */
export const PREFIXED_NIL = 22;

export const FIRST_TYPED = INT;

export const ELEMENT_NAMES: readonly string[] = [
  '',
  'methodResponse',
  'methodCall',
  'methodName',
  'params',
  'param',
  'fault',
  'value',
  'struct',
  'member',
  'name',
  'array',
  'data',
  'int',
  'i4',
  'i8',
  'double',
  'boolean',
  'string',
  'dateTime.iso8601',
  'base64',
  'nil',
  'nil',
];

const NAME_BYTES = ELEMENT_NAMES.map((name) => Buffer.from(name, 'latin1'));

/** Per element code, a byte template made by `make` for the codes in `codes`. */
export function templatesFor(
  codes: readonly number[],
  make: (name: string, code: number) => string,
): ByteTemplate[] {
  // Other codes never index these tables; they get a template no document contains.
  return ELEMENT_NAMES.map((name, code) =>
    ByteTemplate.of(codes.includes(code) ? make(name, code) : '\0\0\0\0'),
  );
}

/** The code of the element whose (valid XML) name is `bytes[start, end)`. */
export function elementCode(bytes: Uint8Array, start: number, end: number): number {
  const candidate = candidateCode(bytes, start, end - start);
  if (candidate !== NONE && matches(bytes, start, NAME_BYTES[candidate])) return candidate;
  return isPrefixedNil(bytes, start, end) ? PREFIXED_NIL : NONE;
}

/** The name of an element, as bytes (what a closing tag is compared with). */
export function nameBytes(code: number): Buffer {
  return NAME_BYTES[code];
}

/** The one element a name can be, from its length and a letter or two; `matches` confirms. */
function candidateCode(bytes: Uint8Array, start: number, length: number): number {
  const first = bytes[start];
  switch (length) {
    case 2:
      return first === 0x69 ? (bytes[start + 1] === 0x34 ? I4 : I8) : NONE;
    case 3:
      return first === 0x69 ? INT : first === 0x6e ? NIL : NONE;
    case 4:
      return first === 0x6e ? NAME : first === 0x64 ? DATA : NONE;
    case 5:
      switch (first) {
        case 0x76:
          return VALUE;
        case 0x70:
          return PARAM;
        case 0x66:
          return FAULT;
        case 0x61:
          return ARRAY;
      }
      return NONE;
    case 6:
      switch (first) {
        case 0x6d:
          return MEMBER;
        case 0x73:
          return bytes[start + 3] === 0x69 ? STRING : STRUCT;
        case 0x70:
          return PARAMS;
        case 0x64:
          return DOUBLE;
        case 0x62:
          return BASE64;
      }
      return NONE;
    case 7:
      return BOOLEAN;
    case 10:
      return bytes[start + 6] === 0x43 ? METHOD_CALL : METHOD_NAME;
    case 14:
      return METHOD_RESPONSE;
    case 16:
      return DATETIME;
    default:
      return NONE;
  }
}

function matches(bytes: Uint8Array, at: number, name: Uint8Array): boolean {
  for (let k = 0; k < name.length; k++) {
    if (bytes[at + k] !== name[k]) return false;
  }
  return true;
}

/** `prefix:nil` with a non-empty prefix. */
function isPrefixedNil(bytes: Uint8Array, start: number, end: number): boolean {
  return (
    end - start > 4 &&
    bytes[end - 4] === 0x3a &&
    bytes[end - 3] === 0x6e &&
    bytes[end - 2] === 0x69 &&
    bytes[end - 1] === 0x6c
  );
}

/**
 * Character and entity references in XML text and attribute values (`&amp;`, `&#60;`, `&#x3C;`):
 * checked by the scanner as it reads, turned into characters when text is built. Only the five
 * predefined entities exist: XML-RPC has no DOCTYPE that could declare others.
 */

// What `scanReference` returns when the reference is not complete and good.
export const INCOMPLETE = -1;
/** Malformed, or naming a character XML 1.0 does not allow (`&#0;`, `&#xD800;`). */
export const BAD_CHARACTER_REFERENCE = -2;
export const UNDEFINED_ENTITY = -3;
export const MALFORMED_REFERENCE = -4;

const SEMICOLON = 0x3b;
const HASH = 0x23;
const LOWER_X = 0x78;
/** Longer names cannot be one of the five; stop reading there. */
const MAX_ENTITY_NAME = 64;

const PREDEFINED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** For the reference at `bytes[at]` (an `&`): the index just after its `;`, or a code above. */
export function scanReference(bytes: Uint8Array, at: number, end: number): number {
  let i = at + 1;
  if (i >= end) return INCOMPLETE;
  if (bytes[i] === HASH) {
    if (++i >= end) return INCOMPLETE;
    const hex = bytes[i] === LOWER_X;
    if (hex) i++;
    let codePoint = 0;
    const digitsStart = i;
    for (; ; i++) {
      if (i >= end) return INCOMPLETE;
      const digit = digitValue(bytes[i], hex);
      if (digit < 0) break;
      // Eight digits are beyond any code point in either base.
      if (i - digitsStart === 8) return BAD_CHARACTER_REFERENCE;
      codePoint = codePoint * (hex ? 16 : 10) + digit;
    }
    if (bytes[i] !== SEMICOLON || i === digitsStart || !isXmlChar(codePoint)) {
      return BAD_CHARACTER_REFERENCE;
    }
    return i + 1;
  }
  const nameStart = i;
  for (; ; i++) {
    if (i >= end) return INCOMPLETE;
    const b = bytes[i];
    if (b === SEMICOLON) break;
    if (!isAsciiLetterOrDigit(b) || i - nameStart === MAX_ENTITY_NAME) return MALFORMED_REFERENCE;
  }
  if (i === nameStart) return MALFORMED_REFERENCE;
  return PREDEFINED.has(entityName(bytes, at)) ? i + 1 : UNDEFINED_ENTITY;
}

/** The name in `&name;` starting at `bytes[at]`, for `PREDEFINED` and for messages. */
export function entityName(bytes: Uint8Array, at: number): string {
  let name = '';
  for (let i = at + 1; i < bytes.length && bytes[i] !== SEMICOLON && name.length < 64; i++) {
    name += String.fromCharCode(bytes[i]);
  }
  return name;
}

/** The character a reference checked by `scanReference` stands for. */
export function referenceText(bytes: Uint8Array, at: number): string {
  if (bytes[at + 1] !== HASH) return PREDEFINED.get(entityName(bytes, at)) ?? '';
  const hex = bytes[at + 2] === LOWER_X;
  let codePoint = 0;
  for (let i = at + (hex ? 3 : 2); bytes[i] !== SEMICOLON; i++) {
    codePoint = codePoint * (hex ? 16 : 10) + digitValue(bytes[i], hex);
  }
  return String.fromCodePoint(codePoint);
}

/** XML 1.0 `Char`. */
export function isXmlChar(codePoint: number): boolean {
  if (codePoint < 0x20) return codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d;
  if (codePoint <= 0xd7ff) return true;
  if (codePoint < 0xe000) return false;
  if (codePoint <= 0xfffd) return true;
  return codePoint >= 0x10000 && codePoint <= 0x10ffff;
}

function digitValue(b: number, hex: boolean): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (!hex) return -1;
  const lower = b | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

function isAsciiLetterOrDigit(b: number): boolean {
  const lower = b | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (b >= 0x30 && b <= 0x39);
}

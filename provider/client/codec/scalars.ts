/**
 * Readers for the text of scalar XML-RPC elements. Each returns undefined for text that is not a
 * valid value, so the caller can report it with a position. Surrounding XML whitespace is allowed.
 *
 * Integers (one rule for `<int>`, `<i4>` and `<i8>`): the value is a `number` when it is exact as
 * one (|v| <= 2^53 - 1) and a `bigint` otherwise. `<i4>` must fit in 32 bits; `<int>` and `<i8>`
 * in 64 bits (the real API writes 64-bit ids and byte counts in `<int>`). A value outside its
 * range is refused (the readers return null), never wrapped or rounded.
 *
 * Base64 is read strictly per RFC 4648 section 4: the standard alphabet (`+` and `/`; the
 * URL-safe `-` and `_` are refused), `=` padding to a multiple of four characters, and zero pad
 * bits (one encoding per byte string). XML whitespace anywhere is ignored: MIME and Python's
 * `xmlrpc.client` break base64 into lines.
 */

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Up to 15 digits the float accumulation below is exact. */
const EXACT_DIGITS = 15;
/** 2^63 has 19 digits: more significant digits than that are out of range. */
const INT64_DIGITS = 19;

/**
 * An integer in `bytes[start, end)`: undefined when it is not one, null when it is out of range;
 * `bits` is 32 for `<i4>`, 64 for `<int>` and `<i8>`.
 */
export function parseIntegerBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  bits: 32 | 64,
): number | bigint | undefined | null {
  while (start < end && isXmlSpace(bytes[start])) start++;
  while (end > start && isXmlSpace(bytes[end - 1])) end--;
  const sign = bytes[start];
  const negative = sign === 0x2d;
  const digitsStart = negative || sign === 0x2b ? start + 1 : start;
  if (digitsStart >= end) return undefined;
  let n = 0;
  let significant = digitsStart;
  for (let i = digitsStart; i < end; i++) {
    const digit = bytes[i] - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    if (n === 0 && digit === 0) significant = i + 1;
    n = n * 10 + digit;
  }
  const digits = end - significant;
  if (digits <= EXACT_DIGITS) {
    const value = negative ? (n === 0 ? 0 : -n) : n;
    return bits === 32 && (value < INT32_MIN || value > INT32_MAX) ? null : value;
  }
  if (bits === 32 || digits > INT64_DIGITS) return null;
  let text = negative ? '-' : '';
  for (let i = significant; i < end; i++) text += String.fromCharCode(bytes[i]);
  const big = BigInt(text);
  if (big < INT64_MIN || big > INT64_MAX) return null;
  return big >= -MAX_SAFE && big <= MAX_SAFE ? Number(big) : big;
}

/** `parseIntegerBytes` for text that was not plain in the document (entities, CDATA). */
export function parseInteger(text: string, bits: 32 | 64): number | bigint | undefined | null {
  const bytes = Buffer.from(text, 'utf8');
  return parseIntegerBytes(bytes, 0, bytes.length, bits);
}

/** `<double>`: decimal notation, with an exponent tolerated (JS and Python emit one). */
export function parseDouble(text: string): number | undefined {
  const trimmed = trimXmlSpace(text);
  let sawDigit = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) sawDigit = true;
    // Anything else Number() would accept (hex, "Infinity", "_") is not XML-RPC.
    else if (c !== 0x2e && c !== 0x2d && c !== 0x2b && c !== 0x65 && c !== 0x45) return undefined;
  }
  const n = Number(trimmed);
  return sawDigit && Number.isFinite(n) ? n : undefined;
}

/** `<boolean>`: 1/0 per the spec, true/false as some servers send. */
export function parseBoolean(text: string): boolean | undefined {
  switch (trimXmlSpace(text)) {
    case '1':
    case 'true':
      return true;
    case '0':
    case 'false':
      return false;
    default:
      return undefined;
  }
}

/** `<base64>`, strictly (see the top of this file). */
export function parseBase64(text: string): Buffer | undefined {
  const compact = text.replace(/[ \t\r\n]+/g, '');
  if (compact.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(compact, 'base64');
  // Node's decoder skips what it does not know and reads both alphabets; the canonical encoding
  // of what it read equals the text exactly when the text was strict standard base64.
  return bytes.toString('base64') === compact ? bytes : undefined;
}

export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!isXmlSpace(text.charCodeAt(i))) return false;
  }
  return true;
}

export function isBlankBytes(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (!isXmlSpace(bytes[i])) return false;
  }
  return true;
}

export function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

function trimXmlSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

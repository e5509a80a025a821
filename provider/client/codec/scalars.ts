/**
 * Readers for the text of scalar XML-RPC elements. Each returns undefined for text that is not a
 * valid value, so the caller can report it with a position. Surrounding XML whitespace is allowed.
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `<int>`, `<i4>`, `<i8>`: a number when it is a safe integer, otherwise an exact bigint. */
export function parseInteger(text: string): number | bigint | undefined {
  const trimmed = trimXmlSpace(text);
  const sign = trimmed.charCodeAt(0);
  const digitsStart = sign === 0x2d || sign === 0x2b ? 1 : 0;
  if (digitsStart === trimmed.length) return undefined;
  let n = 0;
  for (let i = digitsStart; i < trimmed.length; i++) {
    const digit = trimmed.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  // Up to 15 digits the float accumulation above is exact.
  if (trimmed.length - digitsStart <= 15) return sign === 0x2d ? (n === 0 ? 0 : -n) : n;
  const big = BigInt(trimmed);
  return big >= -MAX_SAFE && big <= MAX_SAFE ? Number(big) : big;
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

/** `<base64>`: whitespace (line breaks) is allowed; other characters outside the alphabet are not. */
export function parseBase64(text: string): Buffer | undefined {
  const buffer = Buffer.from(text, 'base64');
  // Node skips invalid characters silently; a length check catches them without a per-character loop.
  const significant = trimXmlSpace(text).replace(/\s+/g, '').replace(/=+$/, '');
  return Math.floor((significant.length * 3) / 4) === buffer.length ? buffer : undefined;
}

export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!isXmlSpace(text.charCodeAt(i))) return false;
  }
  return true;
}

function trimXmlSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

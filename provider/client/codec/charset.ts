/**
 * Which characters the bytes of a body stand for.
 *
 * The real service declares `encoding="iso-8859-1"` but sends UTF-8 bytes, so a body is read as
 * UTF-8 whatever the prolog says. Only when the bytes are not valid UTF-8 and the prolog names
 * Latin-1 are they read as Latin-1. Declared encodings outside UTF-8, ASCII and Latin-1 are
 * refused (`checkDeclaredEncoding`, called by the scanner on the XML declaration), and so are
 * UTF-16 bodies (byte order mark).
 */

import { isUtf8 } from 'node:buffer';
import { InvalidCharacter, ParseError, UnsupportedEncoding } from '../errors';

/** How many leading bytes `declaredEncoding` looks at. */
export const PROLOG_BYTES = 256;

const UTF8_NAMES = new Set(['utf-8', 'utf8']);
const ASCII_NAMES = new Set(['us-ascii', 'ascii']);
const LATIN1_NAMES = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'latin-1', 'l1']);
const DECLARED_ENCODING = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']{0,64})["']/;

/** The body as bytes: a string becomes UTF-8 (a lone surrogate cannot, and is refused). */
export function bodyBytes(body: string | Buffer, maxBytes: number): Buffer {
  if (typeof body === 'string') {
    // A UTF-16 unit is at least one UTF-8 byte, so the length alone often decides.
    if (body.length > maxBytes) throw tooLarge(maxBytes);
    // String.prototype.isWellFormed (Node 20) is newer than the ES2023 lib this project types against.
    if (!(body as string & { isWellFormed(): boolean }).isWellFormed()) {
      throw new InvalidCharacter(-32702, 'body has a lone surrogate (not a Unicode string)');
    }
    const bytes = Buffer.from(body, 'utf8');
    if (bytes.length > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (!Buffer.isBuffer(body)) throw new ParseError(-32700, 'body must be a string or a Buffer');
  if (body.length > maxBytes) throw tooLarge(maxBytes);
  return body;
}

export function tooLarge(maxBytes: number): ParseError {
  return new ParseError(-32700, `body is larger than the ${maxBytes}-byte limit`);
}

/** Refuses a body that starts with a UTF-16 byte order mark. */
export function refuseUtf16(start: Uint8Array): void {
  if (
    start.length >= 2 &&
    ((start[0] === 0xfe && start[1] === 0xff) || (start[0] === 0xff && start[1] === 0xfe))
  ) {
    throw new UnsupportedEncoding(
      -32701,
      'UTF-16 bodies are not supported (byte order mark found)',
    );
  }
}

/** The encoding named by the XML declaration in the first `PROLOG_BYTES` of a body, lower-cased. */
export function declaredEncoding(start: Buffer): string | undefined {
  const prolog = start.toString('latin1', 0, Math.min(start.length, PROLOG_BYTES));
  return DECLARED_ENCODING.exec(prolog)?.[1]?.toLowerCase();
}

export function isLatin1Name(name: string | undefined): boolean {
  return name !== undefined && LATIN1_NAMES.has(name);
}

/** Whether a whole body is read as Latin-1 (true) or UTF-8 (false); throws if it is neither. */
export function readsAsLatin1(body: Buffer): boolean {
  if (isUtf8(body)) return false;
  const declared = declaredEncoding(body);
  if (isLatin1Name(declared)) return true;
  throw notUtf8(declared);
}

export function notUtf8(declared: string | undefined): InvalidCharacter {
  return new InvalidCharacter(
    -32702,
    `body is not valid UTF-8 (declared encoding: ${declared ?? 'none'})`,
  );
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes without a UTF-8 byte order mark at their start (it is not part of the document). */
export function withoutBom(bytes: Buffer): Buffer {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]
    ? bytes.subarray(3)
    : bytes;
}

export function checkDeclaredEncoding(name: string): void {
  const lower = name.toLowerCase();
  if (UTF8_NAMES.has(lower) || ASCII_NAMES.has(lower) || LATIN1_NAMES.has(lower)) return;
  throw new UnsupportedEncoding(
    -32701,
    `unsupported encoding ${JSON.stringify(name.slice(0, 40))}`,
  );
}

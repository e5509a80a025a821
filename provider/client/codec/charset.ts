/**
 * Turns a response or request body into text for the XML parser.
 *
 * The real service declares `encoding="iso-8859-1"` but sends UTF-8 bytes, so a Buffer is read
 * as UTF-8 whatever the prolog says. Only when the bytes are not valid UTF-8 and the prolog
 * names Latin-1 are they read as Latin-1. Declared encodings outside UTF-8, ASCII and Latin-1
 * are refused (`checkDeclaredEncoding`, called from the parser's XML-declaration event).
 */

import { isAscii, isUtf8 } from 'node:buffer';
import { InvalidCharacter, ParseError, UnsupportedEncoding } from '../errors';

const UTF8_NAMES = new Set(['utf-8', 'utf8']);
const ASCII_NAMES = new Set(['us-ascii', 'ascii']);
const LATIN1_NAMES = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'latin-1', 'l1']);
const DECLARED_ENCODING = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']{0,64})["']/;

export function bodyToText(body: string | Buffer, maxBytes: number): string {
  if (typeof body === 'string') {
    // A UTF-16 unit is at least one UTF-8 byte and at most three, so byteLength is rarely needed.
    if (
      body.length > maxBytes ||
      (body.length * 3 > maxBytes && Buffer.byteLength(body) > maxBytes)
    ) {
      throw tooLarge(maxBytes);
    }
    return body;
  }
  if (!Buffer.isBuffer(body)) throw new ParseError(-32700, 'body must be a string or a Buffer');
  if (body.length > maxBytes) throw tooLarge(maxBytes);
  if (
    body.length >= 2 &&
    ((body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe))
  ) {
    throw new UnsupportedEncoding(
      -32701,
      'UTF-16 bodies are not supported (byte order mark found)',
    );
  }
  // Most bodies are pure ASCII, which the Latin-1 decoder copies fastest.
  if (isAscii(body)) return body.toString('latin1');
  if (isUtf8(body)) return body.toString('utf8');
  const declared = DECLARED_ENCODING.exec(body.toString('latin1', 0, 256))?.[1]?.toLowerCase();
  if (declared !== undefined && LATIN1_NAMES.has(declared)) return body.toString('latin1');
  throw new InvalidCharacter(
    -32702,
    `body is not valid UTF-8 (declared encoding: ${declared ?? 'none'})`,
  );
}

export function checkDeclaredEncoding(name: string | undefined): void {
  if (name === undefined) return;
  const lower = name.toLowerCase();
  if (UTF8_NAMES.has(lower) || ASCII_NAMES.has(lower) || LATIN1_NAMES.has(lower)) return;
  throw new UnsupportedEncoding(
    -32701,
    `unsupported encoding ${JSON.stringify(name.slice(0, 40))}`,
  );
}

function tooLarge(maxBytes: number): ParseError {
  return new ParseError(-32700, `body is larger than the ${maxBytes}-byte limit`);
}

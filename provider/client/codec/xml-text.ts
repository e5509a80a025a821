/**
 * Escaping of character data for the encoder. Besides `&`, `<` and `>`, a CR is written as a
 * character reference because XML parsers turn a literal CR into LF, which would change the
 * string on the other side.
 */

// eslint-disable-next-line no-control-regex -- these are exactly the characters to look for
const NEEDS_ATTENTION = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Thrown for a character that XML 1.0 cannot carry; the encoder turns it into a TypeError. */
export class UnencodableCharacter extends Error {
  constructor(
    readonly code: number,
    readonly index: number,
  ) {
    super(
      `U+${code.toString(16).toUpperCase().padStart(4, '0')} at index ${index} is not allowed in XML 1.0`,
    );
  }
}

/** Returns `text` ready to be placed between tags. Most strings take the first, regex-only path. */
export function escapeText(text: string): string {
  return NEEDS_ATTENTION.test(text) ? escapeSlowly(text) : text;
}

function escapeSlowly(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let entity: string;
    if (code === 0x26) entity = '&amp;';
    else if (code === 0x3c) entity = '&lt;';
    else if (code === 0x3e) entity = '&gt;';
    else if (code === 0x0d) entity = '&#13;';
    else {
      if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) i++;
      else if (!isXmlChar(code)) throw new UnencodableCharacter(code, i);
      continue;
    }
    out += text.slice(copiedUpTo, i) + entity;
    copiedUpTo = i + 1;
  }
  return out + text.slice(copiedUpTo);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** XML 1.0 `Char` for a single UTF-16 unit (surrogate pairs are handled by the caller). */
function isXmlChar(code: number): boolean {
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return code !== 0xfffe && code !== 0xffff;
}

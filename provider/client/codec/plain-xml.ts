/**
 * A fast path for the usual document: elements without attributes, and text without entities,
 * CDATA, comments, `]]>`, carriage returns or characters that need checking. For such a
 * document it feeds the reader the same events, in the same order, as saxes would (saxes costs
 * about 20 us of CPU for a small response, most of a small call's decode). Anything outside
 * that subset, and any error, makes it give up: the caller then parses with saxes, which also
 * gives the exact error, with its line and column, for a bad document.
 */

import { checkDeclaredEncoding } from './charset';
import type { XmlRpcReader } from './reader';

/** The XML declarations taken as they are; any other prolog goes to saxes. */
const DECLARATION = /^<\?xml version="1\.0"(?: encoding="([A-Za-z][A-Za-z0-9._-]*)")?\?>/;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Text saxes passes on unchanged: no markup, entity, CR (saxes turns it into LF) or odd char. */
// eslint-disable-next-line no-control-regex -- the control characters are the point
const PLAIN_TEXT = /^[^<&\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]*$/;
/** Outside the root only whitespace is allowed (saxes still reports it as text). */
const BLANK = /^[ \t\n]*$/;

/** Reads `text` into `reader`; false (the reader then to be discarded) if saxes must do it. */
export function readPlainXml(text: string, reader: XmlRpcReader): boolean {
  try {
    return readPlain(text, reader);
  } catch {
    return false;
  }
}

function readPlain(text: string, reader: XmlRpcReader): boolean {
  let i = 0;
  const declaration = DECLARATION.exec(text);
  if (declaration) {
    checkDeclaredEncoding(declaration[1]);
    i = declaration[0].length;
  }
  const open: string[] = [];
  let sawRoot = false;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chars = lt < 0 ? text.slice(i) : text.slice(i, lt);
    if (chars !== '') {
      if (!isPlainText(chars, open.length > 0)) return false;
      reader.appendText(chars);
    }
    if (lt < 0) break;
    const gt = text.indexOf('>', lt + 1);
    if (gt < 0) return false;
    const tag = text.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      if (open.pop() !== tag.slice(1)) return false;
      reader.closeElement();
    } else {
      if (sawRoot && open.length === 0) return false; // a second root element
      const selfClosing = tag.endsWith('/');
      const name = selfClosing ? tag.slice(0, -1) : tag;
      if (!PLAIN_NAME.test(name)) return false;
      sawRoot = true;
      reader.openElement(name);
      if (selfClosing) reader.closeElement();
      else open.push(name);
    }
    i = gt + 1;
  }
  return sawRoot && open.length === 0;
}

function isPlainText(chars: string, inRoot: boolean): boolean {
  return inRoot ? PLAIN_TEXT.test(chars) && !chars.includes(']]>') : BLANK.test(chars);
}

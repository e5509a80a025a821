/**
 * XML-RPC decoder on saxes (strict, well-formedness checking, streaming events; values are built
 * directly by `XmlRpcReader`). Whatever the input, the only errors thrown are `ParseError` and
 * its subclasses: `NotWellFormed` for broken XML or a DOCTYPE, `UnsupportedEncoding` for a
 * declared encoding we cannot read, `InvalidCharacter` for characters XML 1.0 forbids, and
 * `ParseError` itself for XML that is well-formed but not XML-RPC.
 *
 * DOCTYPEs are refused before parsing starts: XML-RPC never needs one, and refusing them rules
 * out entity-expansion attacks and external entities whatever the parser would do with them.
 */

import { SaxesParser } from 'saxes';
import { InvalidCharacter, NotWellFormed, ParseError } from '../errors';
import { bodyToText, checkDeclaredEncoding } from './charset';
import { readPlainXml } from './plain-xml';
import { XmlRpcReader, type DocumentKind, type Position } from './reader';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  type DecodeLimits,
  type DecodedResponse,
  type XmlRpcValue,
} from './types';

export function decodeMethodResponse(
  body: string | Buffer,
  limits?: DecodeLimits,
): DecodedResponse {
  const { maxDepth, maxBytes } = checkLimits(limits);
  return guarded(() => read(body, 'response', maxDepth, maxBytes, (r) => r.response()));
}

export function decodeMethodCall(
  body: string | Buffer,
  limits?: DecodeLimits,
): { methodName: string; params: XmlRpcValue[] } {
  const { maxDepth, maxBytes } = checkLimits(limits);
  return guarded(() => read(body, 'call', maxDepth, maxBytes, (r) => r.call()));
}

/** Parses `body` and returns what `finish` makes of the reader. */
function read<T>(
  body: string | Buffer,
  kind: DocumentKind,
  maxDepth: number,
  maxBytes: number,
  finish: (reader: XmlRpcReader) => T,
): T {
  const text = bodyToText(body, maxBytes);
  refuseDoctype(text);
  const fast = readFast(text, kind, maxDepth, finish);
  if (fast !== NOT_PLAIN) return fast;
  const session = idleSession ?? new ParserSession();
  idleSession = undefined;
  const reader = new XmlRpcReader(kind, maxDepth, session.position);
  session.parse(text, reader);
  // Only a session that finished cleanly is reused: after an error saxes is mid-document.
  idleSession = session;
  return finish(reader);
}

const NOT_PLAIN = Symbol('not plain XML');
/**
 * The fast path pays off where saxes' fixed cost per document dominates: small responses. A
 * large one is likely to contain an entity somewhere, and giving up half-way wastes the work.
 */
const FAST_PATH_MAX_CHARS = 64 * 1024;
/** The plain-XML fast path reports no positions: any error there is redone by saxes. */
const NO_POSITION: Position = { line: 0, column: 0 };

/** The value by the plain-XML fast path, or NOT_PLAIN when saxes must parse (see plain-xml.ts). */
function readFast<T>(
  text: string,
  kind: DocumentKind,
  maxDepth: number,
  finish: (reader: XmlRpcReader) => T,
): T | typeof NOT_PLAIN {
  if (text.length > FAST_PATH_MAX_CHARS) return NOT_PLAIN;
  const reader = new XmlRpcReader(kind, maxDepth, NO_POSITION);
  if (!readPlainXml(text, reader)) return NOT_PLAIN;
  try {
    return finish(reader);
  } catch {
    return NOT_PLAIN;
  }
}

/**
 * One saxes parser kept for reuse (saxes resets itself after `close()`). With a new parser per
 * decode, V8 drops the parser's hidden classes whenever a full GC runs between decodes and
 * deoptimises saxes' hot code; in a 25-decode run with GCs in between that settled at 4x slower.
 */
class ParserSession {
  private readonly parser = new SaxesParser({ xmlns: false });
  private reader: XmlRpcReader | undefined;

  constructor() {
    const parser = this.parser;
    parser.on('xmldecl', (decl) => checkDeclaredEncoding(decl.encoding));
    parser.on('doctype', () => {
      throw doctypeRefused();
    });
    parser.on('opentag', (tag) => this.reader?.openElement(tag.name));
    parser.on('closetag', () => this.reader?.closeElement());
    parser.on('text', (chars) => this.reader?.appendText(chars));
    parser.on('cdata', (chars) => this.reader?.appendText(chars));
    parser.on('error', (err) => {
      throw fromParserError(err);
    });
  }

  get position(): Position {
    return this.parser;
  }

  parse(text: string, reader: XmlRpcReader): void {
    this.reader = reader;
    try {
      this.parser.write(text).close();
    } finally {
      this.reader = undefined;
    }
  }
}

let idleSession: ParserSession | undefined;

/** Runs a decode step, turning anything that is not already a ParseError into one. */
function guarded<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof ParseError) throw err;
    // RangeError for a string too long for the engine, and anything else unforeseen.
    throw new ParseError(
      -32700,
      `cannot decode: ${clipMessage(String((err as Error)?.message ?? err))}`,
    );
  }
}

/** Bad limits are a programming error, not bad input, hence a TypeError. */
function checkLimits(limits: DecodeLimits | undefined): Required<DecodeLimits> {
  return {
    maxDepth: limit(limits?.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth'),
    maxBytes: limit(limits?.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes'),
  };
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} must be a non-negative integer`);
  }
  return value;
}

/** Looks through the prolog (XML declaration, comments, processing instructions) for a DOCTYPE. */
function refuseDoctype(text: string): void {
  let i = 0;
  for (;;) {
    i = text.indexOf('<', i);
    if (i < 0) return;
    let end: number;
    if (text.startsWith('<?', i)) end = text.indexOf('?>', i + 2) + 2;
    else if (text.startsWith('<!--', i)) end = text.indexOf('-->', i + 4) + 3;
    else if (text.startsWith('<!DOCTYPE', i)) throw doctypeRefused();
    else return;
    if (end < i) return; // unterminated: the parser will report it
    i = end;
  }
}

function doctypeRefused(): NotWellFormed {
  return new NotWellFormed(-32700, 'DOCTYPE declarations are not allowed in XML-RPC');
}

function fromParserError(err: Error): ParseError {
  const message = clipMessage(err.message);
  return /disallowed character\.|malformed character entity/.test(message)
    ? new InvalidCharacter(-32702, message)
    : new NotWellFormed(-32700, message);
}

function clipMessage(message: string): string {
  return message.length > 200 ? message.slice(0, 200) + '…' : message;
}

/**
 * XML-RPC decoding: a scanner built for the XML-RPC grammar reads the bytes (xml-scanner.ts) and
 * a reader builds the values (reader.ts). Whatever the input, the only errors thrown are
 * `ParseError` and its subclasses: `NotWellFormed` for broken XML or a DOCTYPE,
 * `UnsupportedEncoding` for an encoding we cannot read, `InvalidCharacter` for characters XML 1.0
 * forbids, and `ParseError` itself for XML that is well-formed but not XML-RPC.
 *
 * A body can be decoded whole (`decodeMethodResponse`) or as it arrives (`createResponseDecoder`),
 * which never holds the body twice: chunks are scanned as they come and dropped once consumed.
 */

import {
  bodyBytes,
  declaredEncoding,
  isLatin1Name,
  notUtf8,
  PROLOG_BYTES,
  readsAsLatin1,
  refuseUtf16,
  tooLarge,
} from './charset';
import { ParseError } from '../errors';
import { InputWindow } from './input-window';
import { XmlRpcReader, type DocumentKind } from './reader';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  type DecodeLimits,
  type DecodedResponse,
  type XmlRpcValue,
} from './types';
import { Utf8StreamCheck } from './utf8-stream-check';
import { XmlScanner } from './xml-scanner';

export interface MethodCall {
  methodName: string;
  params: XmlRpcValue[];
}

/** Decodes a body that arrives in chunks. After an error, every call throws that error. */
export interface StreamingDecoder<T> {
  /** The decoder may keep `chunk` until `end()`: it must not be changed afterwards. */
  write(chunk: Uint8Array): void;
  end(): T;
}

export function decodeMethodResponse(
  body: string | Buffer,
  limits?: DecodeLimits,
): DecodedResponse {
  const { maxDepth, maxBytes } = checkLimits(limits);
  return guarded(() =>
    decodeWhole(bodyBytes(body, maxBytes), 'response', maxDepth, (reader) => reader.response()),
  );
}

export function decodeMethodCall(body: string | Buffer, limits?: DecodeLimits): MethodCall {
  const { maxDepth, maxBytes } = checkLimits(limits);
  return guarded(() =>
    decodeWhole(bodyBytes(body, maxBytes), 'call', maxDepth, (reader) => reader.call()),
  );
}

export function createResponseDecoder(limits?: DecodeLimits): StreamingDecoder<DecodedResponse> {
  const { maxDepth, maxBytes } = checkLimits(limits);
  return new ChunkedDecoder('response', maxDepth, maxBytes, (reader) => reader.response());
}

/**
 * A reader fed by a scanner over one window. One is kept between documents: made afresh each
 * time, their hidden classes die in every full GC, and V8 then deoptimises the code that uses
 * them (measured: after a GC between decodes, each decode took 2.5x as long).
 */
class Parser {
  readonly window = new InputWindow();
  readonly reader = new XmlRpcReader(this.window);
  readonly scanner = new XmlScanner(this.window, this.reader);

  constructor() {
    this.reader.position = this.scanner;
  }

  clear(): void {
    this.window.clear(false);
    this.reader.clear();
    this.scanner.clear();
  }
}

let idleParser: Parser | undefined;

function takeParser(kind: DocumentKind, maxDepth: number, latin1: boolean): Parser {
  const parser = idleParser ?? new Parser();
  idleParser = undefined;
  parser.window.latin1 = latin1;
  parser.reader.start(kind, maxDepth);
  return parser;
}

function releaseParser(parser: Parser): void {
  parser.clear();
  idleParser = parser;
}

function decodeWhole<T>(
  body: Buffer,
  kind: DocumentKind,
  maxDepth: number,
  finish: (reader: XmlRpcReader) => T,
): T {
  refuseUtf16(body);
  const latin1 = readsAsLatin1(body);
  const parser = takeParser(kind, maxDepth, latin1);
  try {
    parser.window.append(latin1 ? body : withoutBom(body));
    parser.scanner.finish();
    return finish(parser.reader);
  } finally {
    releaseParser(parser);
  }
}

/**
 * The chunked form. The first `PROLOG_BYTES` are gathered to read the XML declaration. Bytes are
 * read as UTF-8, checked chunk by chunk; when they turn out not to be UTF-8 and the declaration
 * names Latin-1, the document is read again as Latin-1 (charset.ts), which is why chunks are
 * kept until the end when it does.
 */
class ChunkedDecoder<T> implements StreamingDecoder<T> {
  private received = 0;
  /** Chunks gathered until the prolog can be read; undefined once it has been. */
  private head: Buffer[] | undefined = [];
  private readonly utf8 = new Utf8StreamCheck();
  private declared: string | undefined;
  /** Every chunk so far, while a switch to Latin-1 may still be needed. */
  private kept: Buffer[] | undefined;
  /** Undefined once the document is decoded or has failed. */
  private parser: Parser | undefined;
  private failure: unknown;

  constructor(
    private readonly kind: DocumentKind,
    private readonly maxDepth: number,
    private readonly maxBytes: number,
    private readonly finish: (reader: XmlRpcReader) => T,
  ) {
    this.parser = takeParser(kind, maxDepth, false);
  }

  write(chunk: Uint8Array): void {
    this.run(() => {
      const bytes = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.received += bytes.length;
      if (this.received > this.maxBytes) throw tooLarge(this.maxBytes);
      if (this.head === undefined) return this.feed(bytes);
      this.head.push(bytes);
      if (this.received >= PROLOG_BYTES) this.readHead();
    });
  }

  end(): T {
    return this.run(() => {
      if (this.head !== undefined) this.readHead();
      if (!this.current.window.latin1 && !this.utf8.end()) this.notUtf8();
      this.current.scanner.finish();
      const result = this.finish(this.current.reader);
      this.done();
      return result;
    });
  }

  private get current(): Parser {
    if (this.parser === undefined) throw new TypeError('the decoder has already ended');
    return this.parser;
  }

  private run<R>(step: () => R): R {
    if (this.failure !== undefined) throw this.failure;
    try {
      return guarded(step);
    } catch (err) {
      this.failure = err;
      this.done();
      throw err;
    }
  }

  private done(): void {
    if (this.parser !== undefined) releaseParser(this.parser);
    this.parser = undefined;
    this.kept = undefined;
  }

  private readHead(): void {
    const head = Buffer.concat(this.head ?? []);
    this.head = undefined;
    refuseUtf16(head);
    this.declared = declaredEncoding(head);
    if (isLatin1Name(this.declared)) this.kept = [];
    this.feed(head);
  }

  private feed(chunk: Buffer): void {
    this.kept?.push(chunk);
    const { window, scanner } = this.current;
    if (!window.latin1 && !this.utf8.push(chunk)) return this.notUtf8();
    window.append(window.offset(window.end) === 0 ? withoutBom(chunk) : chunk);
    scanner.scan();
  }

  /** The bytes are not UTF-8: read everything again as Latin-1 if declared, else refuse. */
  private notUtf8(): void {
    const kept = this.kept;
    if (kept === undefined) throw notUtf8(this.declared);
    this.kept = undefined;
    releaseParser(this.current);
    this.parser = takeParser(this.kind, this.maxDepth, true);
    const { window, scanner } = this.parser;
    for (const chunk of kept) {
      window.append(chunk);
      scanner.scan();
    }
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A UTF-8 byte order mark is not part of the document. */
function withoutBom(bytes: Buffer): Buffer {
  return bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]
    ? bytes.subarray(3)
    : bytes;
}

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

function clipMessage(message: string): string {
  return message.length > 200 ? message.slice(0, 200) + '…' : message;
}

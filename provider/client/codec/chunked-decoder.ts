/**
 * Decoding a body as it arrives, chunk by chunk, never holding it whole (except as below).
 *
 * The first `PROLOG_BYTES` are gathered to read the XML declaration. Bytes are read as UTF-8,
 * checked chunk by chunk; when they turn out not to be UTF-8 and the declaration names Latin-1,
 * the document is read again as Latin-1 (charset.ts), which is why chunks are kept until the end
 * when it does. Problems are reported in the order they are met, where decoding a whole body
 * checks first that it is UTF-8: a body with more than one problem may fail with another
 * ParseError than when decoded whole; any other outcome is the same.
 */

import {
  declaredEncoding,
  isLatin1Name,
  notUtf8,
  PROLOG_BYTES,
  refuseUtf16,
  tooLarge,
  withoutBom,
} from './charset';
import { guarded } from './guarded';
import { releaseParser, takeParser, type Parser } from './parser-pool';
import type { DocumentKind, XmlRpcReader } from './reader';
import { Utf8StreamCheck } from './utf8-stream-check';

/** Decodes a body that arrives in chunks. After an error, every call throws that error. */
export interface StreamingDecoder<T> {
  /** The decoder may keep `chunk` until `end()`: it must not be changed afterwards. */
  write(chunk: Uint8Array): void;
  end(): T;
}

export class ChunkedDecoder<T> implements StreamingDecoder<T> {
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

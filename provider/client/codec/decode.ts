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

import { bodyBytes, readsAsLatin1, refuseUtf16, withoutBom } from './charset';
import { ChunkedDecoder, type StreamingDecoder } from './chunked-decoder';
import { guarded } from './guarded';
import { releaseParser, takeParser } from './parser-pool';
import type { DocumentKind, XmlRpcReader } from './reader';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  type DecodeLimits,
  type DecodedResponse,
  type XmlRpcValue,
} from './types';

export type { StreamingDecoder } from './chunked-decoder';

export interface MethodCall {
  methodName: string;
  params: XmlRpcValue[];
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

import {
  createResponseDecoder,
  decodeMethodResponse,
  type DecodedResponse,
  type XmlRpcValue,
} from '../codec';
import { SvcAPIError } from '../errors';
import {
  cappedChunks,
  decompressionOf,
  inflateBody,
  readWire,
  type BodySource,
  type Decompression,
} from './body-limit';
import { faultError, httpError, scrubbed, unsupportedEncoding } from './failures';

/**
 * The decode stage: an HTTP response to the value it carries, or to the error it means. A
 * successful plain body is decoded as it arrives; compressed bodies and HTTP errors are read
 * whole, both within the call's `maxResponseBytes`.
 */

export const TOTAL_ITEMS_HEADER = 'svc-total-items';

type HeaderValue = string | string[] | undefined;

/** What the decode stage needs of an undici response. */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, HeaderValue>;
  body: BodySource;
}

function header(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseTotalItems(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** How the body is decompressed; an unsupported Content-Encoding is a TransportError. */
function decompressionFor(
  encoding: string | undefined,
  status: number,
  secrets: readonly string[],
): Decompression {
  const how = decompressionOf(encoding);
  if (how) return how;
  throw unsupportedEncoding(encoding, status, secrets);
}

function decode(body: Buffer, secrets: readonly string[]): DecodedResponse {
  try {
    return decodeMethodResponse(body);
  } catch (err) {
    throw err instanceof SvcAPIError ? scrubbed(err, secrets) : err;
  }
}

/**
 * Decodes a body as it arrives, so that a large response is never held whole, let alone twice.
 * A body that is not XML-RPC stops being read (leaving the loop destroys the stream).
 */
async function decodeAsItArrives(
  body: AsyncIterable<Buffer>,
  secrets: readonly string[],
): Promise<DecodedResponse> {
  try {
    const decoder = createResponseDecoder();
    for await (const chunk of body) decoder.write(chunk);
    return decoder.end();
  } catch (err) {
    throw err instanceof SvcAPIError ? scrubbed(err, secrets) : err;
  }
}

/** An HTTP error status as its error: a 500 carrying a fault gives that fault (the API sends them so). */
function statusError(status: number, body: Buffer, secrets: readonly string[]): SvcAPIError {
  if (status === 500) {
    let fault: DecodedResponse | undefined;
    try {
      fault = decodeMethodResponse(body);
    } catch {
      // not XML-RPC: an ordinary HTTP error
    }
    if (fault?.kind === 'fault') return faultError(fault.fault, secrets);
  }
  return httpError(status, body, secrets);
}

/** The value of a response; rejects with the fault's error class, a TransportError or a ParseError. */
export async function readResponse(
  response: HttpResponse,
  maxBytes: number,
  secrets: readonly string[],
): Promise<XmlRpcValue> {
  const status = response.statusCode;
  const length = header(response.headers['content-length']);
  const how = decompressionFor(header(response.headers['content-encoding']), status, secrets);
  let decoded: DecodedResponse;
  if (status < 400 && how === 'identity') {
    // Decoded as it arrives, so a large response is never held whole; still capped.
    const chunks = cappedChunks(response.body, length, maxBytes, status);
    decoded = await decodeAsItArrives(chunks, secrets);
  } else {
    // Compressed bodies and HTTP errors are read whole (capped off the wire and inflated).
    const raw = await readWire(response.body, length, maxBytes, status);
    const body = await inflateBody(raw, how, maxBytes, status);
    if (status >= 400) throw statusError(status, body, secrets);
    decoded = decode(body, secrets);
  }
  if (decoded.kind === 'fault') throw faultError(decoded.fault, secrets);
  return decoded.value;
}

/** The `Svc-Total-Items` header of a response, when present and a number. */
export function totalItemsOf(response: HttpResponse): number | undefined {
  return parseTotalItems(header(response.headers[TOTAL_ITEMS_HEADER]));
}

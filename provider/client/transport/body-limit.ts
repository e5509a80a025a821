import { promisify } from 'node:util';
import { gunzip, gunzipSync, inflate, inflateSync, type ZlibOptions } from 'node:zlib';
import { ResponseTooLarge } from '../errors';

/**
 * The size limit on response bodies: at most `maxBytes` are read off the wire and at most
 * `maxBytes` come out of gunzip/inflate, so neither a huge answer nor a gzip bomb (a small body
 * that inflates to gigabytes) can grow the process past about that much. Exceeding it is a
 * `ResponseTooLarge` error, never retried (the same call would get the same answer).
 */

/** The default of the client's `maxResponseBytes` option: 64 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Bodies up to this size are inflated inline; bigger ones off the main thread. */
const SYNC_INFLATE_LIMIT = 64 * 1024;

/** What the transport reads a body from: undici's body (an async iterable of chunks). */
export interface BodySource extends AsyncIterable<Uint8Array> {
  arrayBuffer(): Promise<ArrayBuffer>;
  destroy(err?: Error): unknown;
}

export type Decompression = 'identity' | 'gzip' | 'deflate';

/** The decompression a Content-Encoding names, or undefined when it is not supported. */
export function decompressionOf(encoding: string | undefined): Decompression | undefined {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return 'identity';
  if (name === 'gzip' || name === 'x-gzip') return 'gzip';
  if (name === 'deflate') return 'deflate';
  return undefined;
}

export function checkMaxResponseBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new RangeError(`maxResponseBytes must be an integer >= 1, got ${String(value)}`);
  }
  return value as number;
}

function describe(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : `${bytes} bytes`;
}

function tooLarge(status: number, maxBytes: number, what: string): ResponseTooLarge {
  return new ResponseTooLarge(
    status,
    `The response ${what} more than the client's limit of ${describe(maxBytes)} ` +
      '(maxResponseBytes); ask for less (a mask, a filter, limit or iterCall) or raise the limit',
    maxBytes,
  );
}

/**
 * The raw body, at most `maxBytes` of it: a Content-Length above the limit fails before anything
 * is read; a body without one is counted as it arrives and the connection dropped past the limit.
 */
export async function readWire(
  body: BodySource,
  contentLength: string | undefined,
  maxBytes: number,
  status: number,
): Promise<Buffer> {
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared <= maxBytes) {
    // The HTTP framing holds the body to its Content-Length: read it in one piece.
    return Buffer.from(await body.arrayBuffer());
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of cappedChunks(body, contentLength, maxBytes, status)) {
    total += chunk.length;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * The body's chunks as they arrive, ending in `ResponseTooLarge` (the body destroyed) once more
 * than `maxBytes` came, or at once when the Content-Length announces more.
 */
export async function* cappedChunks(
  body: BodySource,
  contentLength: string | undefined,
  maxBytes: number,
  status: number,
): AsyncGenerator<Buffer> {
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(status, maxBytes, `announces ${declared} bytes,`);
  }
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw tooLarge(status, maxBytes, 'body is');
    }
    yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  }
}

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);

/** The decompressed body, at most `maxBytes` of it (zlib stops at the limit, it never overshoots). */
export async function inflateBody(
  raw: Buffer,
  how: Decompression,
  maxBytes: number,
  status: number,
): Promise<Buffer> {
  if (how === 'identity') return raw;
  const options: ZlibOptions = { maxOutputLength: maxBytes };
  const small = raw.length <= SYNC_INFLATE_LIMIT;
  try {
    if (how === 'gzip') return small ? gunzipSync(raw, options) : await gunzipAsync(raw, options);
    return small ? inflateSync(raw, options) : await inflateAsync(raw, options);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw tooLarge(status, maxBytes, `inflates (${how}) to`);
    }
    throw err;
  }
}

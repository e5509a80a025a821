import { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';
import { gunzip, gunzipSync, inflate, inflateSync } from 'node:zlib';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import {
  createResponseDecoder,
  decodeMethodResponse,
  type DecodedResponse,
  type Fault,
  type XmlRpcValue,
} from './codec';
import {
  SvcAPIError,
  SvcError,
  TransportError,
  faultToError,
  redact,
  type FaultCode,
} from './errors';

/**
 * HTTP for XML-RPC: one POST per call over a shared keep-alive undici Agent, with real timeouts
 * (connect, headers, body, and an overall deadline), gzip, and the mapping of what comes back
 * to a value or an error. Agents are created on first use, never at import time: this module is
 * loaded inside Pulumi dynamic providers.
 */

export interface HttpCall {
  url: string;
  body: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Strings to scrub from any error text built from what the server sent. */
  secrets: readonly string[];
}

export interface HttpResult {
  value: XmlRpcValue;
  status: number;
  /** The `Svc-Total-Items` response header, when present and a number. */
  totalItems: number | undefined;
}

/** Why a `TransportError` happened; kept in its `details[0]` for the retry policy. */
export interface TransportFailure {
  reason: 'connection' | 'timeout' | 'http';
  /** Whether any of the response (its status line) had arrived. */
  responseStarted: boolean;
  status?: number;
  /** The system or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  code?: string;
}

export function transportFailure(err: unknown): TransportFailure | undefined {
  if (!(err instanceof TransportError)) return undefined;
  const info = err.details[0] as TransportFailure | undefined;
  return info && typeof info === 'object' && 'reason' in info ? info : undefined;
}

export const TOTAL_ITEMS_HEADER = 'svc-total-items';
/** Bodies up to this size are gunzipped inline; bigger ones off the main thread. */
const SYNC_INFLATE_LIMIT = 64 * 1024;
const SNIPPET_CHARS = 200;
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

export function agentOptions(timeoutMs: number): Agent.Options {
  return {
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  };
}

const agents = new Map<number, Agent>();

/** The shared Agent for a timeout (connect timeouts are per Agent in undici). */
export function agentFor(timeoutMs: number): Agent {
  let agent = agents.get(timeoutMs);
  if (!agent) {
    agent = new Agent(agentOptions(timeoutMs));
    agents.set(timeoutMs, agent);
  }
  return agent;
}

/** Closes the pooled connections (tests and benchmarks; idle sockets never keep Node alive). */
export async function closeConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((agent) => agent.close()));
}

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

async function decompress(
  body: Buffer,
  encoding: string | undefined,
  status: number,
): Promise<Buffer> {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  const small = body.length <= SYNC_INFLATE_LIMIT;
  if (name === 'identity' || name === '') return body;
  if (name === 'gzip' || name === 'x-gzip') return small ? gunzipSync(body) : gunzipAsync(body);
  if (name === 'deflate') return small ? inflateSync(body) : inflateAsync(body);
  throw new TransportError(status, `Unsupported Content-Encoding '${name}' in the response`, {
    reason: 'http',
    responseStarted: true,
    status,
  } satisfies TransportFailure);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseTotalItems(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** The URL without user info, for messages. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** An error with every secret scrubbed from its text (API errors are rebuilt, same class). */
function scrubbed(err: SvcAPIError, secrets: readonly string[]): SvcAPIError {
  const clean = redact(err.faultString, secrets);
  if (clean === err.faultString) return err;
  const Cls = err.constructor as new (
    code: FaultCode,
    text: string,
    ...details: unknown[]
  ) => SvcAPIError;
  return new Cls(err.faultCode, clean, ...err.details);
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

function faultError(fault: Fault, secrets: readonly string[]): SvcAPIError {
  return faultToError(fault.faultCode, redact(String(fault.faultString), secrets));
}

function httpError(status: number, body: Buffer, call: HttpCall): TransportError {
  const text = body
    .toString('utf8', 0, SNIPPET_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  const snippet = redact(text.slice(0, SNIPPET_CHARS), call.secrets);
  const message =
    `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim() + (snippet ? `: ${snippet}` : '');
  return new TransportError(status, message, {
    reason: 'http',
    responseStarted: true,
    status,
  } satisfies TransportFailure);
}

function networkError(
  err: unknown,
  call: HttpCall,
  timedOut: boolean,
  responseStarted: boolean,
): TransportError {
  const code = (err as { code?: string } | undefined)?.code;
  const where = `POST ${displayUrl(call.url)}`;
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new TransportError(
      0,
      `Timed out after ${call.timeoutMs / 1000} s waiting for ${where}`,
      {
        reason: 'timeout',
        responseStarted,
        code,
      } satisfies TransportFailure,
    );
  }
  const message = redact((err as Error | undefined)?.message ?? String(err), call.secrets);
  return new TransportError(0, `${message}${code ? ` (${code})` : ''} during ${where}`, {
    reason: 'connection',
    responseStarted,
    code,
  } satisfies TransportFailure);
}

/**
 * POSTs one XML-RPC call. Resolves with the decoded value; rejects with the fault's error class,
 * `TransportError(status)` for HTTP errors (but a 500 carrying a fault gives that fault: the API
 * does send faults that way), `TransportError(0)` for connection problems and timeouts, or the
 * codec's `ParseError` for a body that is not XML-RPC.
 */
export async function postXmlRpc(call: HttpCall): Promise<HttpResult> {
  // The overall deadline. undici takes an EventEmitter as `signal`; it costs far less per call
  // than an AbortController (measured on Node 20 with undici 7: about 25 us of CPU per call less).
  const deadline = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.emit('abort');
  }, call.timeoutMs);
  let responseStarted = false;
  try {
    const response = await request(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      dispatcher: agentFor(call.timeoutMs),
      signal: deadline,
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    responseStarted = true;
    const status = response.statusCode;
    const encoding = header(response.headers['content-encoding']);
    let decoded: DecodedResponse;
    if (status < 400 && encoding === undefined) {
      decoded = await decodeAsItArrives(response.body, call.secrets);
    } else {
      // Compressed bodies and HTTP errors are read whole.
      const raw = Buffer.from(await response.body.arrayBuffer());
      const body = encoding === undefined ? raw : await decompress(raw, encoding, status);
      if (status >= 400) {
        if (status === 500) {
          let fault: DecodedResponse | undefined;
          try {
            fault = decodeMethodResponse(body);
          } catch {
            // not XML-RPC: an ordinary HTTP error
          }
          if (fault?.kind === 'fault') throw faultError(fault.fault, call.secrets);
        }
        throw httpError(status, body, call);
      }
      decoded = decode(body, call.secrets);
    }
    if (decoded.kind === 'fault') throw faultError(decoded.fault, call.secrets);
    return {
      value: decoded.value,
      status,
      totalItems: parseTotalItems(header(response.headers[TOTAL_ITEMS_HEADER])),
    };
  } catch (err) {
    if (err instanceof SvcError) throw err;
    throw networkError(err, call, timedOut, responseStarted);
  } finally {
    clearTimeout(timer);
  }
}

import { STATUS_CODES } from 'node:http';
import type { Fault } from '../codec';
import { SvcAPIError, TransportError, faultToError, type FaultCode } from '../errors';
import { redact, redactCode, redactSnippet } from '../redact';
import type { RpcCall } from './call';

/**
 * The errors the HTTP stage raises, each with credentials redacted from its text (a server or a
 * proxy may echo the request), and the reason a `TransportError` happened, for the retry policy.
 */

/** Why a `TransportError` happened; kept in its `details[0]` for the retry policy. */
export interface TransportFailure {
  reason: 'connection' | 'timeout' | 'http' | 'too-large';
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

/** How much of an HTTP error body goes into the message, after redaction. */
const SNIPPET_CHARS = 200;
/** How much of an HTTP error body is decoded and redacted to make that snippet. */
const SNIPPET_WINDOW_BYTES = 64 * 1024;
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

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

/** An error with credentials redacted from its code and text (rebuilt, same class, when needed). */
export function scrubbed(err: SvcAPIError, secrets: readonly string[]): SvcAPIError {
  const text = redact(err.faultString, secrets);
  const code = redactCode(err.faultCode, secrets);
  if (text === err.faultString && code === err.faultCode) return err;
  const Cls = err.constructor as new (
    code: FaultCode,
    text: string,
    ...details: unknown[]
  ) => SvcAPIError;
  return new Cls(code, text, ...err.details);
}

/** A fault as its error class, its code and string redacted (a server may echo the request). */
export function faultError(fault: Fault, secrets: readonly string[]): SvcAPIError {
  return faultToError(
    redactCode(fault.faultCode, secrets),
    redact(String(fault.faultString), secrets),
  );
}

export function unsupportedEncoding(
  encoding: string | undefined,
  status: number,
  secrets: readonly string[],
): TransportError {
  const shown = redactSnippet(String(encoding), secrets, SNIPPET_CHARS);
  return new TransportError(status, `Unsupported Content-Encoding '${shown}' in the response`, {
    reason: 'http',
    responseStarted: true,
    status,
  } satisfies TransportFailure);
}

/** `HTTP 502 Bad Gateway: <the start of the page>`, redacted before it is cut. */
export function httpError(
  status: number,
  body: Buffer,
  secrets: readonly string[],
): TransportError {
  const text = body.toString('utf8', 0, Math.min(body.length, SNIPPET_WINDOW_BYTES));
  const snippet = redactSnippet(text, secrets, SNIPPET_CHARS);
  const message =
    `HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trim() + (snippet ? `: ${snippet}` : '');
  return new TransportError(status, message, {
    reason: 'http',
    responseStarted: true,
    status,
  } satisfies TransportFailure);
}

/** A connection problem or a timeout, as `TransportError(0)`. */
export function networkError(
  err: unknown,
  call: RpcCall,
  timedOut: boolean,
  responseStarted: boolean,
): TransportError {
  const code = (err as { code?: string } | undefined)?.code;
  const where = `POST ${displayUrl(call.url)}`;
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new TransportError(
      0,
      redact(`Timed out after ${call.timeoutMs / 1000} s waiting for ${where}`, call.secrets),
      {
        reason: 'timeout',
        responseStarted,
        code,
      } satisfies TransportFailure,
    );
  }
  const cause = (err as Error | undefined)?.message ?? String(err);
  const message = redact(`${cause}${code ? ` (${code})` : ''} during ${where}`, call.secrets);
  return new TransportError(0, message, {
    reason: 'connection',
    responseStarted,
    code,
  } satisfies TransportFailure);
}

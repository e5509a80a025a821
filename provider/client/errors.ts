/**
 * The error classes of the Svc client (spec section 7). `SvcError` is the base of all of them;
 * every fault the API returns is a `SvcAPIError` (or a subclass chosen by its fault code).
 *
 * Messages never contain credentials: the classes only ever see fault codes and fault strings,
 * and the transport redacts credentials from both, and from anything else it wraps, before they
 * get here (see redact.ts).
 */

export type FaultCode = string | number;

export class SvcError extends Error {
  constructor(message = 'Svc client error') {
    super(message);
    this.name = new.target.name;
  }
}

export class SvcAPIError extends SvcError {
  readonly faultCode: FaultCode;
  readonly faultString: string;
  /** Extra positional arguments given to the constructor (spec: `(faultCode, faultString, *args)`). */
  readonly details: readonly unknown[];

  constructor(faultCode: FaultCode, faultString: string, ...details: unknown[]) {
    super(`${new.target.name}(${faultCode}): ${faultString}`);
    this.faultCode = faultCode;
    this.faultString = faultString;
    this.details = details;
  }

  /** Same as `faultString`; the reference client exposes both names. */
  get reason(): string {
    return this.faultString;
  }
}

export class ParseError extends SvcAPIError {}
export class ServerError extends SvcAPIError {}
export class NotWellFormed extends ParseError {}
export class UnsupportedEncoding extends ParseError {}
export class InvalidCharacter extends ParseError {}
export class SpecViolation extends ServerError {}
export class InternalError extends ServerError {}
export class MethodNotFound extends SvcAPIError {}
export class InvalidMethodParameters extends SvcAPIError {}
export class ApplicationError extends SvcAPIError {}
export class RemoteSystemError extends SvcAPIError {}
export class TransportError extends SvcAPIError {}

/**
 * The response body, or what it inflates to, is larger than the client's `maxResponseBytes`.
 * `faultCode` is the HTTP status; never retried (the same call would get the same answer).
 */
export class ResponseTooLarge extends TransportError {
  constructor(
    status: number,
    message: string,
    readonly maxBytes: number,
  ) {
    super(status, message, { reason: 'too-large', responseStarted: true, status });
  }
}

/** The DNS zone asked for by name does not exist on the account. */
export class DNSZoneNotFound extends SvcError {
  constructor(readonly zoneName?: string) {
    super(
      zoneName === undefined ? 'DNS zone not found' : `No DNS zone found matching: ${zoneName}`,
    );
  }
}

/** The call has no credentials: raised before anything is sent. */
export class Unauthenticated extends SvcError {
  constructor(
    message = 'Not authenticated: set username and apiKey (or SVC_USERNAME and SVC_API_KEY), or pass auth',
  ) {
    super(message);
  }
}

type FaultClass = new (
  faultCode: FaultCode,
  faultString: string,
  ...details: unknown[]
) => SvcAPIError;

/** XML-RPC specification fault codes (http://xmlrpc-epi.sourceforge.net/specs/rfc.fault_codes.php). */
const FAULT_CLASSES: ReadonlyMap<string, FaultClass> = new Map<string, FaultClass>([
  ['-32700', NotWellFormed],
  ['-32701', UnsupportedEncoding],
  ['-32702', InvalidCharacter],
  ['-32600', SpecViolation],
  ['-32601', MethodNotFound],
  ['-32602', InvalidMethodParameters],
  ['-32603', InternalError],
  ['-32500', ApplicationError],
  ['-32400', RemoteSystemError],
  ['-32300', TransportError],
]);

/**
 * The error for a fault sent by the server. Codes match whether the server sent them as strings
 * (the real API) or as integers (most XML-RPC servers); unknown codes give a plain `SvcAPIError`.
 */
export function faultToError(faultCode: FaultCode, faultString: string): SvcAPIError {
  const cls = FAULT_CLASSES.get(String(faultCode).trim()) ?? SvcAPIError;
  return new cls(faultCode, faultString);
}

/** Fault code the API sends when a caller exceeds its request rate. */
export const RATE_LIMIT_FAULT = 'Svc_Exception_WebService_RateLimitExceeded';
/** Fault code the API sends for an object that does not exist or belongs to another account. */
export const OBJECT_NOT_FOUND_FAULT = 'Svc_Exception_ObjectNotFound';

export function isRateLimited(err: unknown): boolean {
  return err instanceof SvcAPIError && err.faultCode === RATE_LIMIT_FAULT;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof SvcAPIError && err.faultCode === OBJECT_NOT_FOUND_FAULT;
}

/** Credential redaction (see redact.ts); exported here as well, where it has always been. */
export { redact } from './redact';

import { encodeMethodCall, type XmlRpcValue } from '../codec';

/**
 * The one value a call is, from the moment the client has built it until its answer is decoded:
 * every stage of the transport (encode, retry, debug, rate limit, HTTP) takes an `RpcCall` and
 * reads what it needs from it. A call is not changed by the stages, with one exception: the
 * encoded body is kept on it (`body`), so that a call the client reuses is encoded only once.
 */
export interface RpcCall {
  /** The remote service name, `Svc_Account`. */
  readonly service: string;
  readonly method: string;
  /** The remote method's positional arguments (sent after the headers struct). */
  readonly args: readonly unknown[];
  /** The XML-RPC headers struct, the first parameter of every call (auth, mask, filter...). */
  readonly headers: Readonly<Record<string, unknown>>;
  /** HTTP headers, lower-case names. */
  readonly httpHeaders: Readonly<Record<string, string>>;
  /** The service's URL (endpoint and service name). */
  readonly url: string;
  /** For each HTTP attempt: connect, headers, body and the overall deadline. */
  readonly timeoutMs: number;
  /** The most bytes read off the wire, and the most the body may inflate to (body-limit.ts). */
  readonly maxResponseBytes: number;
  /** Credentials to redact from any error or log text (redact.ts); one array per credential set. */
  readonly secrets: readonly string[];
  /** What the request hooks and the verbose log show of the call besides its arguments. */
  readonly shown: CallSummary;
  /** 1 for the first try; `withRetry` hands 2, 3... to the stages below it. */
  readonly attempt: number;
  /** The encoded XML-RPC body, once `encodedBody` has made it. */
  body?: string;
}

/** The caller's options a call is described by (never credentials: no headers, no auth). */
export interface CallSummary {
  readonly id?: unknown;
  readonly mask?: unknown;
  readonly filter?: unknown;
  readonly limit?: number;
  readonly offset?: number;
}

export interface RpcResult {
  value: XmlRpcValue;
  status: number;
  /** The `Svc-Total-Items` response header, when present and a number. */
  totalItems: number | undefined;
}

/** One stage of the transport; the wrappers (`withRetry`, `withDebug`...) take and return one. */
export type Transport = (call: RpcCall) => Promise<RpcResult>;

/** The call's XML-RPC body: the headers struct, then the arguments; encoded once per call value. */
export function encodedBody(call: RpcCall): string {
  return (call.body ??= encodeMethodCall(call.method, [{ headers: call.headers }, ...call.args]));
}

/**
 * The encode stage: encodes before anything else happens, so a value that cannot be encoded
 * fails before a hook sees the call, a retry is considered or a rate-limit slot is taken.
 */
export function withEncoding(next: Transport): Transport {
  return (call) => {
    encodedBody(call);
    return next(call);
  };
}

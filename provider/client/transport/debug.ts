import { TransportError } from '../errors';
import type { RpcCall, Transport } from './call';
import { withTiming, type Outcome } from './timing';

/**
 * The debug stage: what the request/response hooks see, and the one-line description the
 * `verbose` logger prints. Never credentials: the headers struct is not included, and the
 * arguments of login methods (which carry passwords) are masked.
 */

export interface RequestInfo {
  service: string;
  method: string;
  url: string;
  /** 1 for the first try, then 2, 3... on retries. */
  attempt: number;
  id?: unknown;
  mask?: unknown;
  filter?: unknown;
  limit?: number;
  offset?: number;
  args: readonly unknown[];
}

export interface ResponseInfo {
  service: string;
  method: string;
  attempt: number;
  /** HTTP status; absent when no response arrived or when the call ended in a fault. */
  status?: number;
  durationMs: number;
  totalItems?: number;
  error?: Error;
}

/** Methods whose positional arguments are credentials. */
const SECRET_ARG_METHODS = new Set([
  'getPortalLoginToken',
  'performExternalAuthentication',
  'refreshEncryptedToken',
  'getEncryptedSessionToken',
]);

export function loggableArgs(method: string, args: readonly unknown[]): readonly unknown[] {
  return SECRET_ARG_METHODS.has(method) ? args.map(() => '*************') : args;
}

export function requestInfo(call: RpcCall): RequestInfo {
  const { id, mask, filter, limit, offset } = call.shown;
  const info: RequestInfo = {
    service: call.service,
    method: call.method,
    url: call.url,
    attempt: call.attempt,
    args: loggableArgs(call.method, call.args),
  };
  return Object.assign(
    info,
    Object.fromEntries(
      Object.entries({ id, mask, filter, limit, offset }).filter(([, v]) => v !== undefined),
    ),
  );
}

/** The HTTP status a failed attempt had, when it got that far. */
function failedStatus(error: unknown): number | undefined {
  return error instanceof TransportError ? Number(error.faultCode) || undefined : undefined;
}

export function responseInfo(
  call: RpcCall,
  durationMs: number,
  { result, error }: Outcome,
): ResponseInfo {
  return {
    service: call.service,
    method: call.method,
    attempt: call.attempt,
    status: result ? result.status : failedStatus(error),
    durationMs,
    totalItems: result?.totalItems,
    error: result ? undefined : error instanceof Error ? error : new Error(String(error)),
  };
}

function show(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** `Svc_Account::getObject(id=1, mask='id,name', args=[...])`, whitespace in masks collapsed. */
export function describeRequest(info: RequestInfo): string {
  const parts: string[] = [];
  if (info.id !== undefined) parts.push(`id=${show(info.id)}`);
  if (typeof info.mask === 'string') parts.push(`mask='${info.mask.replace(/\s+/g, ' ').trim()}'`);
  else if (info.mask !== undefined) parts.push(`mask=${show(info.mask)}`);
  if (info.filter !== undefined) parts.push(`filter=${show(info.filter)}`);
  if (info.limit !== undefined) parts.push(`limit=${info.limit}`, `offset=${info.offset ?? 0}`);
  if (info.args.length > 0) parts.push(`args=${show(info.args)}`);
  return `${info.service}::${info.method}(${parts.join(', ')})`;
}

export function describeResponse(info: ResponseInfo): string {
  const outcome = info.error ? `${info.error.name}: ${info.error.message}` : 'ok';
  const total = info.totalItems === undefined ? '' : `, ${info.totalItems} items in total`;
  return `${info.service}::${info.method} -> HTTP ${info.status ?? '-'} in ${info.durationMs.toFixed(1)} ms (${outcome}${total})`;
}

export interface DebugHooks {
  /** Called before each HTTP attempt (never sees credentials). */
  onRequest?: (info: RequestInfo) => void;
  /** Called after each HTTP attempt, with its status, duration and error if any. */
  onResponse?: (info: ResponseInfo) => void;
  /** Prints one line per request and per response (the caller redacts them: see client.ts). */
  log?: (line: string) => void;
}

/** The hooks with the log's lines added; a hook is undefined when nothing listens. */
function withLog({ onRequest, onResponse, log }: DebugHooks): DebugHooks {
  if (!log) return { onRequest, onResponse };
  return {
    onRequest: (info) => {
      log(`-> ${describeRequest(info)}`);
      onRequest?.(info);
    },
    onResponse: (info) => {
      log(`<- ${describeResponse(info)}`);
      onResponse?.(info);
    },
  };
}

/**
 * `next` with each attempt reported to the hooks: `onRequest` before it, `onResponse` with its
 * outcome and duration (see timing.ts). Without hooks, `next` itself: nothing added per call.
 */
export function withDebug(next: Transport, hooks: DebugHooks): Transport {
  const { onRequest, onResponse } = withLog(hooks);
  const timed = onResponse
    ? withTiming(next, (call, durationMs, outcome) =>
        onResponse(responseInfo(call, durationMs, outcome)),
      )
    : next;
  if (!onRequest) return timed;
  return (call) => {
    onRequest(requestInfo(call));
    return timed(call);
  };
}

/**
 * The HTTP side: `POST /xmlrpc/v3.1/Svc_<Service>` (also `/xmlrpc/v3/`), body size limit (413),
 * gzip request bodies and gzip responses when the client accepts them, the `Svc-Total-Items`
 * header on lists, injected faults, and `/_emulator/*` admin routes for loopback callers only.
 * No request can crash the process: every path ends in a response or a closed socket.
 */
import * as http from 'node:http';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { ApiFault, FaultCodes } from './errors';
import type { FaultInjector } from './faults';
import { executeCall, prepareCall, type PreparedCall } from './rpc';
import type { Settings } from './services/context';
import type { StatsCounter } from './stats';
import type { Store } from './store';
import { decodeCall, encodeFault, encodeResponse } from './wire';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);
const GZIP_MIN_BYTES = 1024;
/** A too-large body is read and discarded up to this much so the client sees the 413. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;
const ROUTE = /^\/xmlrpc\/v3(?:\.1)?\/([^/]+)\/?$/;

export interface ServerDeps {
  store: Store;
  settings: Settings;
  faults: FaultInjector;
  stats: StatsCounter;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  log: (line: string) => void;
  logRequests: boolean;
  admin: (req: http.IncomingMessage, res: http.ServerResponse, path: string) => Promise<void>;
}

export function createHttpServer(deps: ServerDeps): http.Server {
  const server = http.createServer({
    requestTimeout: 120_000,
    headersTimeout: 30_000,
    keepAliveTimeout: 5_000,
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    route(deps, req, res).catch((err: unknown) => {
      deps.log(`svc-emulator: internal error: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  // Malformed HTTP: answer 400 and close, never throw.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  return server;
}

async function route(
  deps: ServerDeps,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/_emulator' || path.startsWith('/_emulator/')) {
    if (!isLoopback(req.socket.remoteAddress))
      return sendText(res, 403, 'The admin API answers loopback clients only.');
    return deps.admin(req, res, path);
  }
  const match = ROUTE.exec(path);
  if (!match)
    return sendText(res, 404, 'Not found. The API is at POST /xmlrpc/v3.1/Svc_<Service>.');
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendText(res, 405, 'Use POST with an XML-RPC methodCall body.');
  }
  await handleCall(deps, req, res, match[1]);
}

/** One API call: read and decode the body, apply injected faults, run it, answer. */
async function handleCall(
  deps: ServerDeps,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  serviceSegment: string,
): Promise<void> {
  const started = Date.now();
  deps.stats.requests += 1;
  const body = await readBody(req, deps.maxBodyBytes);
  if (body === 'too-large') {
    res.setHeader('Connection', 'close');
    const fault = new ApiFault(
      FaultCodes.specViolation,
      `Request entity too large: the limit is ${deps.maxBodyBytes} bytes.`,
    );
    return sendXml(req, res, 413, encodeFault(fault));
  }
  if (body === 'aborted') return;
  const exchange: Exchange = { deps, req, res, label: serviceSegment, started };
  let prepared: PreparedCall;
  try {
    prepared = await decodePrepared(exchange, body, serviceSegment);
  } catch (err) {
    return answerFault(exchange, asFault(err, deps));
  }
  const decision = deps.faults.decide(
    prepared.service,
    prepared.method,
    prepared.caller,
    Date.now(),
  );
  for (const kind of decision.kinds) deps.stats.bump(deps.stats.injected, kind);
  if (decision.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
  if (decision.instead) return answerInstead(exchange, decision.instead);
  deps.stats.bump(deps.stats.calls, `${prepared.service}.${prepared.method}`);
  await runCall(exchange, prepared, decision);
}

/** One request and its response, with what the log line says about it. */
interface Exchange {
  deps: ServerDeps;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /** `Svc_Service::method` once decoded, the path segment before. */
  label: string;
  started: number;
}

type Decision = ReturnType<FaultInjector['decide']>;

async function decodePrepared(
  exchange: Exchange,
  body: Buffer,
  serviceSegment: string,
): Promise<PreparedCall> {
  const { deps, req } = exchange;
  const raw = await decodeBody(req, body, deps.maxBodyBytes);
  const { method, params } = await decodeCall(raw, exchange.started + deps.requestTimeoutMs);
  const service = safeDecode(serviceSegment);
  exchange.label = `${service}::${method}`;
  if (!service.startsWith('Svc_'))
    throw new ApiFault(FaultCodes.methodNotFound, 'Service does not exist');
  return prepareCall(service.slice(4), method, params, req.socket.remoteAddress ?? '');
}

async function answerFault(exchange: Exchange, fault: ApiFault): Promise<void> {
  const { deps, req, res, label, started } = exchange;
  deps.stats.bump(deps.stats.faults, fault.faultCode);
  logCall(deps, label, `fault ${fault.faultCode}`, started);
  await sendXml(req, res, 200, encodeFault(fault));
}

/** An injected fault that replaces the call: it does not run. */
async function answerInstead(
  exchange: Exchange,
  instead: NonNullable<Decision['instead']>,
): Promise<void> {
  const { deps, req, res, label, started } = exchange;
  if (instead.kind === 'fault') return answerFault(exchange, instead.fault);
  if (instead.kind === 'drop') {
    // Reset before the call runs: nothing is applied and the client gets no answer.
    logCall(deps, label, 'injected reset', started);
    return void req.socket.resetAndDestroy();
  }
  logCall(deps, label, 'injected HTTP 500', started);
  sendText(res, 500, 'Internal Server Error');
}

/** Runs the call, then answers it, unless an injected fault loses or replaces the answer. */
async function runCall(
  exchange: Exchange,
  prepared: PreparedCall,
  decision: Decision,
): Promise<void> {
  const { deps, req, res, label, started } = exchange;
  let xml: string;
  let totalItems: number | undefined;
  try {
    const result = await executeCall(
      deps.store,
      deps.settings,
      prepared,
      req.headers.authorization,
    );
    xml = encodeResponse(result.value);
    totalItems =
      result.totalItems ?? (Array.isArray(result.value) ? result.value.length : undefined);
  } catch (err) {
    if (decision.loseResponse) return void req.socket.destroy();
    if (decision.statusAfterCommit !== null)
      return sendAfterCommit(deps, res, label, decision, started);
    return answerFault(exchange, asFault(err, deps));
  }
  if (decision.statusAfterCommit !== null) {
    // The call ran and any write is durable; the client hears a gateway error instead.
    return sendAfterCommit(deps, res, label, decision, started);
  }
  if (decision.loseResponse) {
    // The call ran and any write is durable; the client just never hears about it.
    logCall(deps, label, 'injected lost response', started);
    return void req.socket.destroy();
  }
  if (totalItems !== undefined) res.setHeader('Svc-Total-Items', String(totalItems));
  logCall(deps, label, 'ok', started);
  await sendXml(req, res, 200, xml);
}

function sendAfterCommit(
  deps: ServerDeps,
  res: http.ServerResponse,
  label: string,
  decision: { statusAfterCommit: number | null },
  started: number,
): void {
  const status = decision.statusAfterCommit ?? 502;
  logCall(deps, label, `injected HTTP ${status} after the call ran`, started);
  if (res.destroyed || res.socket?.destroyed) return; // the client gave up already
  sendText(res, status, http.STATUS_CODES[status] ?? 'Server Error');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape names no service
  }
}

function asFault(err: unknown, deps: ServerDeps): ApiFault {
  if (err instanceof ApiFault) return err;
  deps.log(`svc-emulator: unexpected error: ${(err as Error)?.stack ?? String(err)}`);
  return new ApiFault(FaultCodes.internal, 'Internal error.');
}

function logCall(deps: ServerDeps, label: string, outcome: string, started: number): void {
  if (deps.logRequests) deps.log(`${label} ${outcome} ${Date.now() - started}ms`);
}

/** The raw body, or why there is none. Bodies over the limit are drained (bounded) and dropped. */
function readBody(
  req: http.IncomingMessage,
  limit: number,
): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | 'too-large' | 'aborted') => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) settle('too-large');
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DISCARD_BYTES) return void req.destroy();
      if (settled) return; // discarding the rest of a too-large body
      if (size > limit) {
        chunks.length = 0;
        return settle('too-large');
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle(Buffer.concat(chunks)));
    req.on('error', () => settle('aborted'));
    req.on('close', () => {
      if (!req.complete) settle('aborted');
    });
  });
}

async function decodeBody(req: http.IncomingMessage, body: Buffer, limit: number): Promise<Buffer> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  if (encoding !== 'gzip') {
    throw new ApiFault(
      '-32701',
      `Unsupported content encoding '${encoding}'; send identity or gzip.`,
    );
  }
  try {
    return await gunzip(body, { maxOutputLength: limit });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ApiFault(
        FaultCodes.specViolation,
        `Request entity too large once decompressed: the limit is ${limit} bytes.`,
      );
    }
    throw new ApiFault(FaultCodes.notWellFormed, 'Parse error: the gzip request body is corrupt.');
  }
}

function acceptsGzip(req: http.IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (!header) return false;
  return String(header)
    .split(',')
    .some((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      if (name.trim() !== 'gzip') return false;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return !q || Number(q.slice(2)) > 0;
    });
}

async function sendXml(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  xml: string,
): Promise<void> {
  let payload = Buffer.from(xml, 'utf8');
  res.setHeader('Content-Type', 'text/xml; charset=utf-8');
  res.setHeader('Vary', 'Accept-Encoding');
  if (payload.length >= GZIP_MIN_BYTES && acceptsGzip(req)) {
    payload = await gzip(payload, { level: 4 });
    res.setHeader('Content-Encoding', 'gzip');
  }
  res.setHeader('Content-Length', payload.length);
  res.writeHead(status);
  res.end(payload);
}

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  const payload = Buffer.from(`${text}\n`, 'utf8');
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': payload.length,
  });
  res.end(payload);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * A loopback XML-RPC server for client tests: it records every request (URL, HTTP headers,
 * method name, the decoded `headers` struct and the remaining params) and answers with scripted
 * replies. Requests are decoded and replies encoded with the `xmlrpc` package, an implementation
 * independent of our codec, so the two check each other.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import Deserializer from 'xmlrpc/lib/deserializer';
import { serializeFault, serializeMethodResponse } from 'xmlrpc/lib/serializer';

export interface RecordedRequest {
  /** Path, e.g. `/xmlrpc/v3.1/Svc_Account`. */
  path: string;
  /** Lower-case names, as Node gives them. */
  httpHeaders: IncomingHttpHeaders;
  body: string;
  methodName: string;
  /** The `headers` member of the first param. */
  apiHeaders: Record<string, unknown>;
  /** The params after the headers struct (the remote method's positional arguments). */
  args: unknown[];
  /** Whether the reply went out gzipped. */
  gzipped?: boolean;
}

interface ReplyExtras {
  status?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Sent as `Svc-Total-Items`. */
  totalItems?: number;
  /** Gzip the body when the request accepts gzip. */
  gzip?: boolean;
  delayMs?: number;
}

export type Reply =
  | ({ value: unknown } & ReplyExtras)
  | ({ fault: { faultCode: string | number; faultString: string } } & ReplyExtras)
  | ({ rawBody: string | Buffer } & ReplyExtras)
  /** Close the connection without answering. */
  | { drop: true }
  /** Never answer. */
  | { hang: true };

export type Handler = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface RecordingServer {
  /** An endpoint URL for the client: `http://127.0.0.1:<port>/xmlrpc/v3.1/`. */
  url: string;
  requests: RecordedRequest[];
  /** Queue replies for the next requests; when the queue is empty the handler answers. */
  reply(...replies: Reply[]): void;
  /** The default answer (initially `{ value: true }`). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

function decodeCall(body: string): Promise<{ methodName: string; params: unknown[] }> {
  return new Promise((resolve, reject) => {
    const stream = new PassThrough();
    new Deserializer().deserializeMethodCall(stream, (err, methodName, params) =>
      err ? reject(err) : resolve({ methodName: methodName ?? '', params: params ?? [] }),
    );
    stream.end(body);
  });
}

function send(
  recorded: RecordedRequest,
  res: ServerResponse,
  reply: Exclude<Reply, { drop: true } | { hang: true }>,
  acceptsGzip: boolean,
) {
  let body: string | Buffer;
  if ('value' in reply) body = serializeMethodResponse(reply.value);
  else if ('fault' in reply) body = serializeFault(reply.fault);
  else body = reply.rawBody;
  const headers: Record<string, string | number> = { 'content-type': 'text/xml', ...reply.headers };
  if (reply.totalItems !== undefined) headers['Svc-Total-Items'] = reply.totalItems;
  if (reply.gzip && acceptsGzip) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
    recorded.gzipped = true;
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(body);
}

export async function startRecordingServer(handler?: Handler): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  let fallback: Handler = handler ?? (() => ({ value: true }));
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const { methodName, params } = await decodeCall(body);
        const [first, ...args] = params;
        const apiHeaders = ((first as { headers?: Record<string, unknown> } | undefined)?.headers ??
          {}) as Record<string, unknown>;
        const recorded: RecordedRequest = {
          path: req.url ?? '',
          httpHeaders: req.headers,
          body,
          methodName,
          apiHeaders,
          args,
        };
        const index = requests.push(recorded) - 1;
        const reply = queue.shift() ?? (await fallback(recorded, index));
        if ('drop' in reply) return req.socket.destroy();
        if ('hang' in reply) return;
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
        const acceptsGzip = String(req.headers['accept-encoding'] ?? '').includes('gzip');
        send(recorded, res, reply, acceptsGzip);
      })().catch((err: Error) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`recording server could not decode the request: ${err.message}`);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/xmlrpc/v3.1/`,
    requests,
    reply: (...replies) => queue.push(...replies),
    handle: (next) => {
      fallback = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

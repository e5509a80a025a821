/**
 * A loopback HTTP proxy that lets a client written for the real API's brand talk to the
 * emulator: in requests `SoftLayer_` becomes `Svc_` (URL, body, header names `SoftLayer-*`), in
 * responses `Svc_` becomes `SoftLayer_` (body, and `Svc-Total-Items` becomes
 * `SoftLayer-Total-Items`). Bodies are rewritten byte for byte outside ASCII (latin1 round trip),
 * so UTF-8 text passes unchanged. The client's gzip request is answered uncompressed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RenameProxy {
  /** `http://127.0.0.1:<port>/xmlrpc/v3.1/`, the endpoint to give the client. */
  endpoint: string;
  /** Requests forwarded so far. */
  requests(): number;
  close(): Promise<void>;
}

const rename = (body: Buffer, from: string, to: string) =>
  Buffer.from(body.toString('latin1').split(from).join(to), 'latin1');

/** Hop-by-hop headers and the ones the proxy sets itself. */
const SKIPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'accept-encoding',
  'host',
]);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Proxies to `target`, the emulator's base URL (`http://127.0.0.1:<port>`). */
export async function startRenameProxy(target: string): Promise<RenameProxy> {
  let forwarded = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = rename(await readBody(req), 'SoftLayer_', 'Svc_');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (SKIPPED.has(name) || value === undefined) continue;
      headers[name.replace(/^softlayer-/i, 'Svc-')] = Array.isArray(value)
        ? value.join(', ')
        : value;
    }
    forwarded += 1;
    const answer = await fetch(new URL((req.url ?? '/').replace(/SoftLayer_/g, 'Svc_'), target), {
      method: req.method,
      headers: { ...headers, 'accept-encoding': 'identity' },
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const reply = rename(Buffer.from(await answer.arrayBuffer()), 'Svc_', 'SoftLayer_');
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!SKIPPED.has(name)) out[name.replace(/^svc-/i, 'SoftLayer-')] = value;
    });
    res.writeHead(answer.status, { ...out, 'content-length': String(reply.length) });
    res.end(reply);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      // The emulator went away or dropped the connection: the client sees a dropped connection.
      if (!res.headersSent) res.destroy(err);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/xmlrpc/v3.1/`,
    requests: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback XML-RPC server in a child process that answers from pre-encoded bytes, so a
 * benchmark measures the client and not the server: `getVirtualGuests` pages through a fixed
 * listing of guests (honouring resultLimit, sending Svc-Total-Items), every other method gets
 * the same small `Account.getObject`-like struct. Replies are encoded once with the `xmlrpc`
 * package's serializer.
 *
 *   const server = await startCannedServer({ guests: 10_000 }); ... await server.close();
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serializeMethodResponse } from 'xmlrpc/lib/serializer';
import { buildGuestListing } from './guest-listing';

export interface CannedServer {
  /** Endpoint URL, `http://127.0.0.1:<port>/xmlrpc/v3.1/`. */
  url: string;
  /** Bytes of the fixed (non-listing) reply. */
  fixedReplyBytes: number;
  close(): Promise<void>;
}

export const FIXED_VALUE = { id: 1234, companyName: 'Acme Widgets' };

export function startCannedServer(options: { guests?: number } = {}): Promise<CannedServer> {
  const child = fork(__filename, ['--serve', String(options.guests ?? 10_000)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`canned server exited early (${code})`)));
    child.once('message', (message: { port: number; fixedReplyBytes: number }) => {
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${message.port}/xmlrpc/v3.1/`,
        fixedReplyBytes: message.fixedReplyBytes,
        close: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
  });
}

const PROLOG = '<?xml version="1.0"?><methodResponse><params><param>';
const EPILOG = '</param></params></methodResponse>';

function valueXml(value: unknown): string {
  const full = serializeMethodResponse(value);
  return full.slice(full.indexOf('<param>') + '<param>'.length, full.lastIndexOf('</param>'));
}

function serve(guestCount: number): void {
  const fixed = Buffer.from(PROLOG + valueXml(FIXED_VALUE) + EPILOG);
  const rows = buildGuestListing(guestCount).map(valueXml);
  const member = (name: string, body: string) =>
    Number(
      new RegExp(`<name>${name}</name>\\s*<value>\\s*<(?:int|i4|i8)>(\\d+)<`).exec(body)?.[1] ??
        NaN,
    );

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!body.includes('<methodName>getVirtualGuests</methodName>')) {
        res.writeHead(200, { 'content-type': 'text/xml', 'content-length': fixed.length });
        res.end(fixed);
        return;
      }
      const limit = member('limit', body);
      const offset = member('offset', body) || 0;
      const page = rows.slice(offset, Number.isNaN(limit) ? rows.length : offset + limit);
      const reply = Buffer.from(
        `${PROLOG}<value><array><data>${page.join('')}</data></array></value>${EPILOG}`,
      );
      res.writeHead(200, {
        'content-type': 'text/xml',
        'content-length': reply.length,
        'Svc-Total-Items': rows.length,
      });
      res.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port, fixedReplyBytes: fixed.length });
  });
  process.on('disconnect', () => process.exit(0));
}

if (require.main === module && process.argv[2] === '--serve') serve(Number(process.argv[3]));

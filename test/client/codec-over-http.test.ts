/**
 * Issue 17, the transport decodes a response as it arrives: a body sent in many small pieces
 * decodes to the value, and a body that is broken from its start fails the call then, without
 * waiting for the rest (the server here never finishes it).
 */

import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, test } from 'node:test';
import { serializeMethodResponse } from 'xmlrpc/lib/serializer';
import { Client, NotWellFormed, ParseError, TransportError } from '../../provider/client';
import { EMPTY_SETTINGS } from '../support/client-setup';

/** A server that answers every request with `respond`, and a client with a long timeout. */
async function serve(respond: (res: ServerResponse) => void): Promise<Client> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => respond(res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return new Client({
    username: 'u',
    apiKey: 'k',
    endpointUrl: `http://127.0.0.1:${port}/xmlrpc/v3.1/`,
    configFile: EMPTY_SETTINGS,
    retry: false,
    timeout: 20,
  });
}

/** Writes `body` in pieces of `size` bytes, one per turn of the event loop. */
function writeInPieces(res: ServerResponse, body: Buffer, size: number, end: boolean): void {
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= body.length) {
      if (end) res.end();
      return;
    }
    res.write(body.subarray(at, at + size));
    at += size;
    setImmediate(next);
  };
  res.writeHead(200, { 'content-type': 'text/xml' });
  next();
}

void test('a response sent in many small pieces decodes to its value', async () => {
  const guests = Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    hostname: `web-${i}`,
    notes: i % 7 === 0 ? 'a & b <c> — ü' : 'plain',
    datacenter: { name: 'dal10' },
  }));
  const body = Buffer.from(serializeMethodResponse(guests));
  const client = await serve((res) => writeInPieces(res, body, 1000, true));
  assert.deepStrictEqual(await client.Account.getVirtualGuests(), guests);
});

void test('a body broken from its start fails the call while the server is still sending', async () => {
  const start = Buffer.from(
    '<?xml version="1.0"?><methodResponse><params><param><value><struct>' +
      '<member><name>id</name><value><int>1</int></value></member>' +
      '<member><name>x</name><value><int>2</int></value></mem>' +
      ' '.repeat(4096),
  );
  // The server never ends the response: only decoding it as it arrives can fail the call.
  const client = await serve((res) => writeInPieces(res, start, 512, false));
  await assert.rejects(client.Account.getObject(), (err: Error) => {
    assert.ok(err instanceof NotWellFormed, `${err.name}: ${err.message}`);
    assert.match(err.message, /closing tag <\/mem> does not match the open <member>/);
    return true;
  });
});

void test('a body that is not XML-RPC at all fails as a ParseError, an unknown element named', async () => {
  const html = Buffer.from(`<html><body>${'maintenance '.repeat(500)}</body></html>`);
  const client = await serve((res) => writeInPieces(res, html, 256, false));
  await assert.rejects(client.Account.getObject(), (err: Error) => {
    assert.ok(err instanceof ParseError && !(err instanceof TransportError), String(err));
    assert.match(err.message, /unknown element <html>/);
    return true;
  });
});

/**
 * Response size limits against hostile loopback servers: a gzip bomb, an endless body, a huge
 * Content-Length. Each ends in a ResponseTooLarge error, with the process's memory bounded.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Client, DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge } from '../../provider/client';
import { EMPTY_SETTINGS, setup } from '../support/client-setup';
import { API_KEY, USERNAME } from '../support/test-credentials';

const MiB = 1024 * 1024;

/** `members` gzip members of `memberMiB` MiB of zeros each: gunzip reads them as one stream. */
function gzipBomb(memberMiB: number, members: number): Buffer {
  const member = gzipSync(Buffer.alloc(memberMiB * MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

/** The process's peak resident set so far, in bytes (it only ever grows). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  assert.fail('the call succeeded');
}

// First in the file, so the peak it measures is this test's own.
void test('a gzip bomb (1 MB that inflates to 1 GiB) ends in ResponseTooLarge with memory bounded', async () => {
  const bomb = gzipBomb(16, 64);
  assert.ok(bomb.length < 2 * MiB, `${bomb.length} bytes on the wire`);
  const { server } = await setup();
  const client = new Client({
    username: USERNAME,
    apiKey: API_KEY,
    endpointUrl: server.url,
    configFile: EMPTY_SETTINGS,
    retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 2 },
  });
  assert.equal(client.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES);
  server.handle(() => ({ rawBody: bomb, headers: { 'content-encoding': 'gzip' } }));
  const before = peakRss();
  const err = await failure(client.Account.getObject());
  const growth = peakRss() - before;
  assert.ok(err instanceof ResponseTooLarge, String(err));
  assert.match(err.message, /inflates \(gzip\) to more than the client's limit of 64 MiB/);
  assert.match(err.message, /maxResponseBytes/);
  assert.equal(err.maxBytes, 64 * MiB);
  assert.equal(server.requests.length, 1, 'not retried: the same call would get the same answer');
  // Inflating it all would take 1 GiB; the limit keeps the peak near 64 MiB.
  assert.ok(growth < 256 * MiB, `peak RSS grew by ${(growth / MiB).toFixed(0)} MiB`);
});

void test('a small bomb inflated inline is stopped at a lower limit too', async () => {
  const { server, client } = await setup({ maxResponseBytes: MiB });
  const bomb = gzipBomb(8, 1);
  assert.ok(bomb.length < 64 * 1024, 'small enough to be inflated inline');
  server.reply({ rawBody: bomb, headers: { 'content-encoding': 'gzip' } });
  const err = await failure(client.Account.getObject());
  assert.ok(err instanceof ResponseTooLarge, String(err));
  assert.match(err.message, /limit of 1 MiB/);
});

void test('answers within the limit are read as before, compressed or not', async () => {
  const { server, client } = await setup({ maxResponseBytes: MiB });
  const text = 'x'.repeat(900 * 1024);
  server.reply({ value: text, gzip: true }, { value: text });
  assert.equal(await client.Account.getObject(), text);
  assert.equal(await client.Account.getObject(), text);
  assert.equal(server.requests[0].gzipped, true);
});

void test('a Content-Length over the limit fails before the body is read', async () => {
  const { server, client } = await setup({ maxResponseBytes: MiB });
  server.reply({
    rawBody: Buffer.alloc(2 * MiB, 0x20),
    headers: { 'content-length': String(2 * MiB) },
  });
  const err = await failure(client.Account.getObject());
  assert.ok(err instanceof ResponseTooLarge, String(err));
  assert.match(err.message, /announces 2097152 bytes, more than the client's limit of 1 MiB/);
});

void test('an endless body without Content-Length is cut at the limit and the connection dropped', async () => {
  let sent = 0;
  let closed!: () => void;
  const serverClosed = new Promise<void>((resolve) => (closed = resolve));
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/xml' }); // chunked: no length announced
    res.on('close', closed);
    const pump = () => {
      while (!res.destroyed && sent < 1024 * MiB) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const client = new Client({
    username: USERNAME,
    apiKey: API_KEY,
    endpointUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/xmlrpc/v3.1/`,
    configFile: EMPTY_SETTINGS,
    retry: false,
    maxResponseBytes: 2 * MiB,
  });
  const err = await failure(client.Account.getObject());
  assert.ok(err instanceof ResponseTooLarge, String(err));
  assert.match(err.message, /body is more than the client's limit of 2 MiB/);
  await serverClosed;
  assert.ok(sent < 64 * MiB, `the server got to send ${(sent / MiB).toFixed(0)} MiB`);
});

void test('maxResponseBytes must be a positive integer', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, '10'] as never[]) {
    assert.throws(
      () => new Client({ configFile: EMPTY_SETTINGS, maxResponseBytes: bad }),
      /maxResponseBytes must be an integer >= 1/,
    );
  }
  assert.equal(new Client({ configFile: EMPTY_SETTINGS, maxResponseBytes: 5 }).maxResponseBytes, 5);
});

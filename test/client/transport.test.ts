import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  ApplicationError,
  Client,
  InternalError,
  MethodNotFound,
  NotWellFormed,
  ParseError,
  SvcAPIError,
  TransportError,
} from '../../provider/client';
import { transportFailure } from '../../provider/client/transport';
import { EMPTY_SETTINGS, setup } from '../support/client-setup';
import { startRecordingServer } from '../support/recording-server';

const VERSION = (
  JSON.parse(readFileSync(`${__dirname}/../../package.json`, 'utf8')) as { version: string }
).version;

void test('faults map to error classes whether the code is a string or an int', async () => {
  const { server, client } = await setup();
  server.reply(
    { fault: { faultCode: '-32601', faultString: 'Service does not exist' } },
    { fault: { faultCode: -32601, faultString: 'Method does not exist' } },
    { fault: { faultCode: -32500, faultString: 'boom' } },
    {
      fault: {
        faultCode: 'Svc_Exception_ObjectNotFound',
        faultString: "Unable to find object with id of '1'.",
      },
    },
  );
  const failures: SvcAPIError[] = [];
  for (let i = 0; i < 4; i++)
    await client.Account.getObject().catch((err: SvcAPIError) => failures.push(err));
  assert.ok(failures[0] instanceof MethodNotFound);
  assert.equal(failures[0].faultCode, '-32601');
  assert.equal(failures[0].faultString, 'Service does not exist');
  assert.ok(failures[1] instanceof MethodNotFound);
  assert.equal(failures[1].faultCode, -32601);
  assert.ok(failures[2] instanceof ApplicationError);
  assert.equal(failures[3].constructor, SvcAPIError);
  assert.equal(failures[3].faultCode, 'Svc_Exception_ObjectNotFound');
  assert.equal(
    failures[3].message,
    "SvcAPIError(Svc_Exception_ObjectNotFound): Unable to find object with id of '1'.",
  );
});

void test('an HTTP 500 whose body is a fault gives that fault; without one it is a TransportError(500)', async () => {
  const { server, client } = await setup();
  server.reply(
    { status: 500, fault: { faultCode: '-32603', faultString: 'Internal Error' } },
    { status: 500, rawBody: '<html>Internal Server Error</html>' },
  );
  await assert.rejects(client.Account.getObject(), InternalError);
  await assert.rejects(client.Account.getObject(), (err: TransportError) => {
    assert.ok(err instanceof TransportError);
    assert.equal(err.faultCode, 500);
    assert.match(
      err.faultString,
      /^HTTP 500 Internal Server Error: <html>Internal Server Error<\/html>$/,
    );
    return true;
  });
});

void test('HTTP errors are TransportError(status) with a short message', async () => {
  const { server, client } = await setup();
  server.reply(
    { status: 404, rawBody: 'no such path\n'.repeat(100) },
    { status: 503, rawBody: '' },
    {
      status: 404,
      fault: { faultCode: 'x', faultString: 'a fault on a 404 is still an HTTP error' },
    },
  );
  await assert.rejects(client.Account.getObject(), (err: TransportError) => {
    assert.ok(err instanceof TransportError);
    assert.equal(err.faultCode, 404);
    assert.match(
      err.message,
      /^TransportError\(404\): HTTP 404 Not Found: no such path no such path/,
    );
    assert.ok(err.message.length < 300, 'the body is cut short');
    assert.deepEqual(transportFailure(err), { reason: 'http', responseStarted: true, status: 404 });
    return true;
  });
  await assert.rejects(
    client.Account.getObject(),
    /TransportError\(503\): HTTP 503 Service Unavailable$/,
  );
  await assert.rejects(client.Account.getObject(), (err: Error) => err instanceof TransportError);
});

void test('a refused connection and a dropped connection are TransportError(0)', async () => {
  const closed = await startRecordingServer();
  await closed.close();
  const client = new Client({
    username: 'a',
    apiKey: 'k',
    endpointUrl: closed.url,
    configFile: EMPTY_SETTINGS,
    retry: false,
  });
  await assert.rejects(client.Account.getObject(), (err: TransportError) => {
    assert.ok(err instanceof TransportError);
    assert.equal(err.faultCode, 0);
    assert.match(
      err.message,
      /ECONNREFUSED.*POST http:\/\/127\.0\.0\.1:\d+\/xmlrpc\/v3\.1\/Svc_Account/,
    );
    assert.equal(transportFailure(err)?.reason, 'connection');
    return true;
  });
  const { server, client: other } = await setup();
  server.reply({ drop: true });
  await assert.rejects(other.Account.getObject(), (err: TransportError) => {
    assert.equal(err.faultCode, 0);
    assert.deepEqual(transportFailure(err), {
      reason: 'connection',
      responseStarted: false,
      code: 'UND_ERR_SOCKET',
    });
    return true;
  });
});

void test('a body that is not XML-RPC is the codec ParseError', async () => {
  const { server, client } = await setup();
  server.reply(
    { rawBody: '<html>hello</html>' },
    { rawBody: '<methodResponse><params><param><value><int>1' },
  );
  await assert.rejects(client.Account.getObject(), ParseError);
  await assert.rejects(client.Account.getObject(), NotWellFormed);
});

void test('the timeout really fires when the server never answers', async () => {
  const { server, client } = await setup({ timeout: 0.3 });
  server.reply({ hang: true }, { value: 1, delayMs: 1000 });
  const started = Date.now();
  await assert.rejects(client.Account.getObject(), (err: TransportError) => {
    assert.ok(err instanceof TransportError);
    assert.equal(err.faultCode, 0);
    assert.match(err.message, /Timed out after 0\.3 s/);
    assert.equal(transportFailure(err)?.reason, 'timeout');
    return true;
  });
  await assert.rejects(client.Account.getObject(), /Timed out/);
  assert.ok(
    Date.now() - started < 5000,
    'both timed out well before the server would have answered',
  );
});

void test('compress (default) asks for gzip and decodes it; compress: false asks for identity', async () => {
  const { server, client } = await setup();
  const big = Array.from({ length: 500 }, (_, i) => ({ id: i, hostname: `host-${i}` }));
  server.handle(() => ({ value: big, gzip: true }));
  assert.deepEqual(await client.Account.getVirtualGuests(), big);
  assert.deepEqual(await client.Account.getVirtualGuests({ compress: false }), big);
  assert.deepEqual(await client.Account.getVirtualGuests({ compress: true }), big);
  assert.deepEqual(
    server.requests.map((r) => r.httpHeaders['accept-encoding']),
    ['gzip', 'identity', 'gzip'],
  );
  assert.deepEqual(
    server.requests.map((r) => r.gzipped ?? false),
    [true, false, true],
  );
});

void test('HTTP headers: text/xml, the package User-Agent, rawHeaders for one call that may override them', async () => {
  const { server, client } = await setup();
  await client.Account.getObject({
    rawHeaders: { 'X-Request-Id': 'r-1', 'Accept-Encoding': 'gzip' },
    compress: false,
  });
  await client.Account.getObject();
  await client.Account.getObject({
    rawHeaders: { 'user-agent': 'mine/1', 'Content-Type': 'application/xml' },
  });
  const [first, second, third] = server.requests.map((r) => r.httpHeaders);
  assert.equal(first['x-request-id'], 'r-1');
  assert.equal(first['accept-encoding'], 'gzip');
  assert.equal(second['x-request-id'], undefined);
  assert.equal(second['content-type'], 'text/xml');
  assert.equal(second['user-agent'], `pulumi-svc/${VERSION}`);
  assert.equal(third['user-agent'], 'mine/1');
  assert.equal(third['content-type'], 'application/xml');
});

void test('a custom userAgent replaces the default', async () => {
  const { server, client } = await setup({ userAgent: 'deploy-bot/2' });
  await client.Account.getObject();
  assert.equal(server.requests[0].httpHeaders['user-agent'], 'deploy-bot/2');
});

void test('onRequest/onResponse see service::method, status and duration, never credentials', async () => {
  const requests: unknown[] = [];
  const responses: { status?: number; durationMs: number; error?: Error }[] = [];
  const { server, client } = await setup({
    onRequest: (info) => requests.push(info),
    onResponse: (info) => responses.push(info),
  });
  server.reply({ value: [1, 2], totalItems: 2 }, { status: 502, rawBody: 'bad gateway' });
  await client.Account.getVirtualGuests({ mask: 'id', limit: 2 });
  await client.Account.getObject().catch(() => undefined);
  assert.deepEqual(requests[0], {
    service: 'Svc_Account',
    method: 'getVirtualGuests',
    url: `${server.url}Svc_Account`,
    attempt: 1,
    args: [],
    mask: 'id',
    limit: 2,
  });
  assert.equal(responses[0].status, 200);
  assert.ok(responses[0].durationMs > 0);
  assert.equal(responses[1].status, 502);
  assert.ok(responses[1].error instanceof TransportError);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { SvcError } from '../../provider/client';
import { LegacyClient, Client as LegacyAlias } from '../../provider/client/legacy';
import { API_KEY, EMPTY_SETTINGS, USERNAME } from '../support/client-setup';
import { startRecordingServer } from '../support/recording-server';
import { after } from 'node:test';

// Listen before anything is constructed: each warning is emitted once per process.
const warnings: Error[] = [];
process.on('warning', (warning) => warnings.push(warning));

async function legacyServer() {
  const server = await startRecordingServer();
  after(() => server.close());
  return server;
}

void test('the old positional constructor binds a service; remote methods take positional args', async () => {
  const server = await legacyServer();
  const client = new LegacyClient('Svc_Account', null, USERNAME, API_KEY, server.url);
  server.reply({ value: { companyName: 'Acme' } });
  assert.deepEqual(await client.getObject(), { companyName: 'Acme' });
  const guests = new LegacyAlias('Virtual_Guest', 42, USERNAME, API_KEY, server.url);
  await guests.createObject({ hostname: 'web1' }, 'second');
  const [first, second] = server.requests;
  assert.equal(first.path, '/xmlrpc/v3.1/Svc_Account');
  assert.equal(first.methodName, 'getObject');
  assert.deepEqual(first.apiHeaders, { authenticate: { username: USERNAME, apiKey: API_KEY } });
  assert.equal(second.path, '/xmlrpc/v3.1/Svc_Virtual_Guest');
  assert.deepEqual(second.args, [{ hostname: 'web1' }, 'second']);
  assert.deepEqual(second.apiHeaders.Svc_Virtual_GuestInitParameters, { id: 42 });
  assert.equal(inspect(guests), "<'Svc_Virtual_Guest' Instance [ID: 42]>");
  assert.equal(inspect(client), "<'Svc_Account' Instance>");
  assert.ok(!inspect(client, { showHidden: true }).includes(API_KEY));
  assert.ok(!JSON.stringify(client).includes(API_KEY));
});

void test('mask, init parameter, result limit and headers persist across calls until removed', async () => {
  const server = await legacyServer();
  const client = new LegacyClient({
    serviceName: 'Account',
    username: USERNAME,
    apiKey: API_KEY,
    endpointUrl: server.url,
    configFile: EMPTY_SETTINGS,
  });
  client.setObjectMask('id, companyName');
  client.setInitParameter(7);
  client.setResultLimit(10);
  client.addHeader('Svc_Trace', { id: 't1' });
  client.addRawHeader('X-Request-Source', 'legacy');
  await client.getObject();
  await client.getObject();
  client.removeHeader('Svc_Trace');
  client.setResultLimit(10, 20);
  client.setObjectMask({ ipAddresses: {} });
  await client.getVirtualGuests();
  const [first, second, third] = server.requests;
  const expected = {
    authenticate: { username: USERNAME, apiKey: API_KEY },
    Svc_Trace: { id: 't1' },
    Svc_ObjectMask: { mask: 'mask[id, companyName]' },
    Svc_AccountInitParameters: { id: 7 },
    resultLimit: { limit: 10, offset: 0 },
  };
  assert.deepEqual(first.apiHeaders, expected);
  assert.deepEqual(second.apiHeaders, expected);
  assert.equal(first.httpHeaders['x-request-source'], 'legacy');
  assert.equal(third.httpHeaders['x-request-source'], 'legacy');
  assert.equal('Svc_Trace' in third.apiHeaders, false);
  assert.deepEqual(third.apiHeaders.resultLimit, { limit: 10, offset: 20 });
  assert.deepEqual(third.apiHeaders.Svc_AccountObjectMask, { mask: { ipAddresses: {} } });
  assert.throws(() => client.addHeader(' ', 1), /Please specify a header name/);
  assert.throws(() => client.setResultLimit(0), RangeError);
});

void test('setAuthentication changes the credentials of later calls (trimmed)', async () => {
  const server = await legacyServer();
  const client = new LegacyClient({
    serviceName: 'Account',
    username: 'old',
    apiKey: 'old-key',
    endpointUrl: server.url,
  });
  await client.getObject();
  client.setAuthentication(' new-user ', ' new-key\n');
  await client.getObject();
  assert.deepEqual(
    server.requests.map((r) => r.apiHeaders.authenticate),
    [
      { username: 'old', apiKey: 'old-key' },
      { username: 'new-user', apiKey: 'new-key' },
    ],
  );
});

void test('a service name is required', () => {
  assert.throws(
    () => new LegacyClient(''),
    (err: Error) => err instanceof SvcError && /service name/.test(err.message),
  );
});

void test('each deprecated method warns once per process, with its own code', async () => {
  const server = await legacyServer();
  const client = new LegacyClient('Account', null, USERNAME, API_KEY, server.url);
  for (let round = 0; round < 2; round++) {
    client.setObjectMask('id');
    client.setInitParameter(1);
    client.setResultLimit(5);
    client.addHeader('a', 1);
    client.removeHeader('a');
    client.addRawHeader('x-a', 'b');
    client.setAuthentication(USERNAME, API_KEY);
  }
  await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  const deprecations = warnings.filter((w) => w.name === 'DeprecationWarning');
  const codes = deprecations.map((w) => (w as Error & { code?: string }).code).sort();
  assert.deepEqual(codes, [
    'SVC_DEP_ADD_HEADER',
    'SVC_DEP_ADD_RAW_HEADER',
    'SVC_DEP_LEGACY_CLIENT',
    'SVC_DEP_REMOVE_HEADER',
    'SVC_DEP_SET_AUTHENTICATION',
    'SVC_DEP_SET_INIT_PARAMETER',
    'SVC_DEP_SET_OBJECT_MASK',
    'SVC_DEP_SET_RESULT_LIMIT',
  ]);
  const mask = deprecations.find(
    (w) => (w as Error & { code?: string }).code === 'SVC_DEP_SET_OBJECT_MASK',
  );
  assert.match(mask?.message ?? '', /pass \{ mask \} on each call/);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import {
  ApiKeyAuth,
  BasicHttpAuth,
  Client,
  SvcAPIError,
  TokenAuth,
  TransportError,
  Unauthenticated,
  type Auth,
} from '../../provider/client';
import { API_KEY, EMPTY_SETTINGS, USERNAME, setup, withEnv } from '../support/client-setup';
import { PASSWORD } from '../support/test-credentials';
import { startRecordingServer } from '../support/recording-server';
import { after } from 'node:test';

void test('TokenAuth sends a PortalLoginToken authenticate header', async () => {
  const { server, client } = await setup({
    username: undefined,
    apiKey: undefined,
    auth: new TokenAuth(1234, 'tok-abcdef'),
  });
  await client.Account.getObject();
  assert.deepEqual(server.requests[0].apiHeaders.authenticate, {
    complexType: 'PortalLoginToken',
    userId: 1234,
    authToken: 'tok-abcdef',
  });
});

void test('BasicHttpAuth authenticates at the HTTP layer only', async () => {
  const { server, client } = await setup({ auth: new BasicHttpAuth('bob', 'pw-123456') });
  await client.Account.getObject();
  const [request] = server.requests;
  assert.equal(
    request.httpHeaders.authorization,
    `Basic ${Buffer.from('bob:pw-123456').toString('base64')}`,
  );
  assert.equal('authenticate' in request.apiHeaders, false);
});

void test('any object with getHeaders() is an auth handler; getHttpHeaders() is optional', async () => {
  const custom: Auth = {
    getHeaders: () => ({
      authenticate: { username: 'svc-bot', apiKey: 'bot-key-9' },
      Svc_Extra: 'x',
    }),
    getHttpHeaders: () => ({ 'X-Svc-Tenant': 'blue' }),
  };
  const { server, client } = await setup({ auth: custom });
  await client.Account.getObject();
  assert.deepEqual(server.requests[0].apiHeaders, {
    authenticate: { username: 'svc-bot', apiKey: 'bot-key-9' },
    Svc_Extra: 'x',
  });
  assert.equal(server.requests[0].httpHeaders['x-svc-tenant'], 'blue');
});

void test('assigning username and apiKey changes the credentials of the next call (and replaces auth)', async () => {
  const { server, client } = await setup({ auth: new TokenAuth(1, 'old-token') });
  await client.Account.getObject();
  client.username = 'carol';
  client.apiKey = 'carol-key';
  await client.Account.getObject();
  client.auth = new ApiKeyAuth('dave', 'dave-key');
  await client.Account.getObject();
  assert.deepEqual(
    server.requests.map((r) => r.apiHeaders.authenticate),
    [
      { complexType: 'PortalLoginToken', userId: 1, authToken: 'old-token' },
      { username: 'carol', apiKey: 'carol-key' },
      { username: 'dave', apiKey: 'dave-key' },
    ],
  );
});

void test('a repeated call picks up new credentials (the prepared wire form is dropped)', async () => {
  const { server, client } = await setup();
  const getObject = () => client.Account.getObject({ mask: 'id', compress: false });
  await getObject();
  await getObject();
  client.apiKey = 'rotated-key';
  await getObject();
  client.username = 'erin';
  await getObject();
  client.auth = new TokenAuth(9, 'tok-9');
  await getObject();
  client.auth = undefined;
  await getObject();
  assert.deepEqual(
    server.requests.map((r) => r.apiHeaders.authenticate),
    [
      { username: USERNAME, apiKey: API_KEY },
      { username: USERNAME, apiKey: API_KEY },
      { username: USERNAME, apiKey: 'rotated-key' },
      { username: 'erin', apiKey: 'rotated-key' },
      { complexType: 'PortalLoginToken', userId: 9, authToken: 'tok-9' },
      { username: 'erin', apiKey: 'rotated-key' },
    ],
  );
  assert.ok(server.requests.every((r) => r.apiHeaders.Svc_ObjectMask !== undefined));
  assert.ok(server.requests.every((r) => r.httpHeaders['accept-encoding'] === 'identity'));
});

void test('authenticateWithPassword calls getPortalLoginToken without credentials and returns a TokenAuth', async () => {
  const { server, client } = await setup();
  server.reply(
    { value: { userId: 77, hash: 'h4sh-token' } },
    { value: { userId: 78, hash: 'h4sh-2' } },
  );
  const token = await client.authenticateWithPassword('alice', PASSWORD);
  const second = await client.authenticateWithPassword('alice', PASSWORD, 5, 'blue');
  assert.ok(token instanceof TokenAuth);
  assert.equal(token.userId, 77);
  assert.equal(token.authToken, 'h4sh-token');
  assert.ok(
    !JSON.stringify(token).includes('h4sh-token') && !inspect(token).includes('h4sh-token'),
  );
  const [login, loginWithQuestion] = server.requests;
  assert.equal(login.path, '/xmlrpc/v3.1/Svc_User_Customer');
  assert.equal(login.methodName, 'getPortalLoginToken');
  assert.deepEqual(login.args, ['alice', PASSWORD, null, null]);
  assert.deepEqual(login.apiHeaders, {});
  assert.deepEqual(loginWithQuestion.args, ['alice', PASSWORD, 5, 'blue']);

  const tokenClient = new Client({
    auth: second,
    endpointUrl: server.url,
    configFile: EMPTY_SETTINGS,
  });
  await tokenClient.Account.getObject();
  assert.deepEqual(server.requests[2].apiHeaders.authenticate, {
    complexType: 'PortalLoginToken',
    userId: 78,
    authToken: 'h4sh-2',
  });
  // This client keeps its own credentials.
  await client.Account.getObject();
  assert.deepEqual(server.requests[3].apiHeaders.authenticate, {
    username: USERNAME,
    apiKey: API_KEY,
  });
});

void test('a failed login is the API error, with the password kept out of it', async () => {
  const { server, client } = await setup();
  server.reply(
    {
      fault: {
        faultCode: 'Svc_Exception_Public',
        faultString: `Invalid username/password ${PASSWORD}`,
      },
    },
    { value: 'not a token' },
  );
  await assert.rejects(client.authenticateWithPassword('alice', PASSWORD), (err: SvcAPIError) => {
    assert.equal(err.faultCode, 'Svc_Exception_Public');
    assert.equal(err.faultString, 'Invalid username/password ****');
    return true;
  });
  await assert.rejects(
    client.authenticateWithPassword('alice', PASSWORD),
    /without a userId and hash/,
  );
});

void test('a call without any credentials is Unauthenticated before anything is sent', async () => {
  const server = await startRecordingServer();
  after(() => server.close());
  await withEnv({}, async () => {
    const anonymous = new Client({ endpointUrl: server.url, configFile: EMPTY_SETTINGS });
    await assert.rejects(anonymous.Account.getObject(), Unauthenticated);
    const halfway = new Client({
      username: 'alice',
      endpointUrl: server.url,
      configFile: EMPTY_SETTINGS,
    });
    await assert.rejects(halfway.Account.getObject(), /apiKey missing/);
    assert.throws(
      () => anonymous.iterCall('Account', 'getVirtualGuests', { chunk: 0 }),
      RangeError,
    );
    await assert.rejects(anonymous.iterCall('Account', 'getVirtualGuests').next(), Unauthenticated);
    assert.equal(server.requests.length, 0);
    // The login method is the exception: it is how credentials are obtained.
    server.reply({ value: { userId: 1, hash: 'x-token' } });
    await anonymous.call('User_Customer', 'getPortalLoginToken', { args: ['a', 'b', null, null] });
    assert.equal(server.requests.length, 1);
  });
});

void test('the API key never shows in inspect, JSON, enumeration, errors or the verbose log', async () => {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    const { server, client } = await setup({ verbose: true });
    for (const text of [
      inspect(client),
      inspect(client, { showHidden: true }),
      JSON.stringify(client),
    ]) {
      assert.ok(!text.includes(API_KEY), text);
    }
    assert.ok(!Object.keys(client).some((key) => String((client as never)[key]).includes(API_KEY)));
    assert.ok(!JSON.stringify({ ...client }).includes(API_KEY));
    const auth = new ApiKeyAuth('x', API_KEY);
    assert.ok(!inspect(auth, { showHidden: true }).includes(API_KEY));
    assert.ok(!JSON.stringify(auth).includes(API_KEY));
    assert.ok(!JSON.stringify(new TokenAuth(1, API_KEY)).includes(API_KEY));

    server.reply(
      { fault: { faultCode: 'Svc_Exception_Public', faultString: `Invalid API key ${API_KEY}` } },
      { status: 500, rawBody: `<html>bad request with key ${API_KEY}</html>` },
      { status: 200, rawBody: `<methodResponse><params><param><value>${API_KEY}` },
      { value: { userId: 1, hash: 'token-123456' } },
    );
    const errors: unknown[] = [];
    for (const call of [
      () => client.Account.getObject(),
      () => client.Account.getObject(),
      () => client.Account.getObject(),
    ]) {
      await call().catch((err: unknown) => errors.push(err));
    }
    await client.authenticateWithPassword('alice', PASSWORD);
    assert.equal(errors.length, 3);
    assert.ok(errors[1] instanceof TransportError);
    for (const err of errors) assert.ok(!inspect(err).includes(API_KEY), inspect(err));
    // The fault and the HTTP error quoted the key: it was there, and was replaced.
    assert.match((errors[0] as Error).message, /Invalid API key \*\*\*\*/);
    assert.match((errors[1] as Error).message, /bad request with key \*\*\*\*/);
    assert.ok(lines.length >= 8);
    assert.ok(lines.some((line) => line.includes('getPortalLoginToken(args=')));
    for (const line of lines) {
      assert.ok(!line.includes(API_KEY) && !line.includes(PASSWORD), line);
    }
  } finally {
    console.log = original;
  }
});

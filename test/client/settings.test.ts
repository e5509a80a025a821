import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { API_PUBLIC_ENDPOINT, Client, SvcError, resolveSettings } from '../../provider/client';
import { parseIni } from '../../provider/client/ini';
import { API_KEY, setup, withEnv } from '../support/client-setup';

const dir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
let files = 0;
function settingsFile(text: string): string {
  const file = join(dir, `settings-${files++}.ini`);
  writeFileSync(file, text);
  return file;
}

const FULL_FILE = settingsFile(
  '[svc]\nusername = file-user\napi_key = file-key\nendpoint_url = http://file.example/xmlrpc/v3.1/\ntimeout = 30\n',
);
const FULL_ENV = {
  SVC_USERNAME: 'env-user',
  SVC_API_KEY: 'env-key',
  SVC_ENDPOINT_URL: 'http://env.example/xmlrpc/v3.1/',
  SVC_TIMEOUT: '20',
};

void test('each setting comes from the argument, else the environment, else the settings file', () => {
  const explicit = {
    username: 'arg-user',
    apiKey: 'arg-key',
    endpointUrl: 'http://arg.example/',
    timeout: 10,
  };
  assert.deepEqual(resolveSettings({ ...explicit, configFile: FULL_FILE }, FULL_ENV), explicit);
  assert.deepEqual(resolveSettings({ configFile: FULL_FILE }, FULL_ENV), {
    username: 'env-user',
    apiKey: 'env-key',
    endpointUrl: 'http://env.example/xmlrpc/v3.1/',
    timeout: 20,
  });
  assert.deepEqual(resolveSettings({ configFile: FULL_FILE }, {}), {
    username: 'file-user',
    apiKey: 'file-key',
    endpointUrl: 'http://file.example/xmlrpc/v3.1/',
    timeout: 30,
  });
  // Mixed, per key; empty values do not hide later sources.
  assert.deepEqual(
    resolveSettings(
      { username: '', apiKey: 'arg-key', configFile: FULL_FILE },
      { SVC_USERNAME: '', SVC_TIMEOUT: '5' },
    ),
    {
      username: 'file-user',
      apiKey: 'arg-key',
      endpointUrl: 'http://file.example/xmlrpc/v3.1/',
      timeout: 5,
    },
  );
});

void test('defaults: the public endpoint, 120 s, no credentials; ~/.svc is read from the home directory', () => {
  const emptyHome = mkdtempSync(join(dir, 'home-'));
  assert.deepEqual(resolveSettings({}, {}, emptyHome), {
    username: undefined,
    apiKey: undefined,
    endpointUrl: API_PUBLIC_ENDPOINT,
    timeout: 120,
  });
  const home = mkdtempSync(join(dir, 'home-'));
  writeFileSync(join(home, '.svc'), '[svc]\nusername = home-user\n');
  assert.equal(resolveSettings({}, {}, home).username, 'home-user');
  assert.equal(resolveSettings({ configFile: '~/.svc' }, {}, home).username, 'home-user');
});

void test('a configFile that does not exist is an error naming it; a missing ~/.svc is not', () => {
  const missing = join(dir, 'nope.ini');
  assert.throws(
    () => resolveSettings({ configFile: missing }, {}),
    (err: Error) =>
      err instanceof SvcError && err.message.includes(missing) && /ENOENT/.test(err.message),
  );
});

void test('bad timeouts and endpoint URLs name where they came from', () => {
  assert.throws(
    () => resolveSettings({ configFile: FULL_FILE }, { SVC_TIMEOUT: 'soon' }),
    /Bad timeout from SVC_TIMEOUT/,
  );
  assert.throws(
    () => resolveSettings({ timeout: -1, configFile: FULL_FILE }, {}),
    /Bad timeout from the timeout argument/,
  );
  const file = settingsFile('[svc]\ntimeout = 0\n');
  assert.throws(
    () => resolveSettings({ configFile: file }, {}),
    new RegExp(`timeout in settings file ${file}`),
  );
  assert.throws(
    () => resolveSettings({ endpointUrl: 'ftp://x/', configFile: file }, {}),
    /expected http: or https:/,
  );
  assert.throws(
    () => resolveSettings({ configFile: FULL_FILE }, { SVC_ENDPOINT_URL: 'not a url' }),
    /SVC_ENDPOINT_URL/,
  );
});

void test('API keys keep ; and #, quotes are removed, comments and other sections are ignored', () => {
  const file = settingsFile(
    '\uFEFF# my settings\n; another comment\n[other]\nusername = nobody\n\n[svc]\n' +
      'USERNAME: quoted-user\napi_key = ab;cd#ef\nendpoint_url = "http://q.example/xmlrpc/v3.1/"\n',
  );
  assert.deepEqual(resolveSettings({ configFile: file }, {}), {
    username: 'quoted-user',
    apiKey: 'ab;cd#ef',
    endpointUrl: 'http://q.example/xmlrpc/v3.1/',
    timeout: 120,
  });
});

void test('a settings file that cannot be parsed names the file and line, never the line itself', () => {
  const cases: [string, number, RegExp][] = [
    ['[svc]\nusername = a\napi_key ' + API_KEY + '\n', 3, /expected '\[section\]', 'key = value'/],
    ['api_key = ' + API_KEY + '\n[svc]\n', 1, /before the first \[section\]/],
    ['[svc]\napi_key = 1\napi_key = ' + API_KEY + '\n', 3, /'api_key' appears twice/],
    ['[svc]\n[svc]\n', 2, /section \[svc\] appears twice/],
    ['[svc\napi_key = x\n', 1, /expected/],
    ['[]\n', 1, /empty section name/],
  ];
  for (const [text, line, problem] of cases) {
    const file = settingsFile(text);
    assert.throws(
      () => resolveSettings({ configFile: file }, {}),
      (err: Error) => {
        assert.ok(err instanceof SvcError);
        assert.ok(err.message.includes(`${file}, line ${line}:`), err.message);
        assert.match(err.message, problem);
        assert.ok(!err.message.includes(API_KEY));
        return true;
      },
    );
  }
  assert.deepEqual(
    [...parseIni('[a]\nk=v\n', 'x').entries()].map(([s, m]) => [s, [...m]]),
    [['a', [['k', 'v']]]],
  );
});

void test('the Client uses SVC_* from the environment and the settings file on the wire', async () => {
  const { server } = await setup();
  const file = settingsFile(`[svc]\nendpoint_url = ${server.url}\napi_key = file-key\n`);
  await withEnv({ SVC_USERNAME: 'env-user', SVC_API_KEY: 'env-key' }, async () => {
    const client = new Client({ configFile: file, retry: false });
    assert.equal(client.endpointUrl, server.url);
    await client.Account.getObject();
    const explicit = new Client({ apiKey: 'arg-key', configFile: file, retry: false });
    await explicit.Account.getObject();
  });
  assert.deepEqual(
    server.requests.map((r) => r.apiHeaders.authenticate),
    [
      { username: 'env-user', apiKey: 'env-key' },
      { username: 'env-user', apiKey: 'arg-key' },
    ],
  );
});

void test('a call rate comes from the same sources, else the defaults; a bad value names its source', () => {
  const file = settingsFile('[svc]\nmax_calls_per_second = 7\n');
  assert.equal(resolveSettings({ configFile: file }, {}).maxCallsPerSecond, 7);
  assert.equal(
    resolveSettings({ configFile: file }, { SVC_MAX_CALLS_PER_SECOND: '9' }).maxCallsPerSecond,
    9,
  );
  assert.equal(
    resolveSettings({ maxCallsPerSecond: 3, configFile: file }, {}).maxCallsPerSecond,
    3,
  );
  assert.equal(resolveSettings({ configFile: settingsFile('') }, {}).maxCallsPerSecond, undefined);
  assert.equal(
    resolveSettings({ configFile: settingsFile(''), defaults: { maxCallsPerSecond: 25 } }, {})
      .maxCallsPerSecond,
    25,
  );
  assert.throws(
    () => resolveSettings({ configFile: settingsFile('') }, { SVC_MAX_CALLS_PER_SECOND: 'fast' }),
    /Bad call rate from SVC_MAX_CALLS_PER_SECOND: expected a positive number of calls per second/,
  );
  assert.throws(
    () =>
      resolveSettings({ timeout: 'soon', argumentName: (key) => `stack config svc:${key}` }, {}),
    /Bad timeout from stack config svc:timeout/,
  );
});

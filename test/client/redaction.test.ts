/**
 * Credentials never show in an error or a log line, whatever a hostile or broken server echoes
 * back and wherever: an HTTP error page (long, so any cut lands somewhere inside it), the fault
 * code, the fault string, a response header. "Shows" means any run of 8 or more consecutive
 * characters of the credential, in any ASCII case.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { test } from 'node:test';
import fc from 'fast-check';
import { SvcAPIError, TokenAuth, TransportError } from '../../provider/client';
import { MIN_RUN, Redactor, redact, redactSnippet } from '../../provider/client/redact';
import { EMPTY_SETTINGS, setup } from '../support/client-setup';
import {
  API_KEY,
  LOGIN_TOKEN as TOKEN,
  PASSWORD,
  SECURITY_ANSWER as ANSWER,
} from '../support/test-credentials';
import { Client } from '../../provider/client';

/** The first run of MIN_RUN characters of `secret` found in `text` (ASCII case ignored), if any. */
function leakedRun(text: string, secret: string): string | undefined {
  const hay = text.toLowerCase();
  const needle = secret.toLowerCase();
  for (let i = 0; i + MIN_RUN <= needle.length; i++) {
    const run = needle.slice(i, i + MIN_RUN);
    if (hay.includes(run)) return run;
  }
  return undefined;
}

function assertClean(text: string, ...secrets: string[]): void {
  for (const secret of secrets) {
    const run = leakedRun(text, secret);
    assert.equal(run, undefined, `a run of a credential leaked: ...${run}... in ${text}`);
  }
}

/** Everything an error shows: message, inspect (stack included), and its API fields. */
function shown(err: unknown): string {
  const api = err instanceof SvcAPIError ? `${String(err.faultCode)} ${err.faultString}` : '';
  return `${inspect(err)} ${api} ${(err as Error).message}`;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.fail('the call succeeded');
}

void test('every run of 8+ characters of a credential is redacted, shorter pieces are not', () => {
  const r = new Redactor([API_KEY]);
  assert.equal(r.redact(`key=${API_KEY}.`), 'key=****.');
  assert.equal(r.redact(`head ${API_KEY.slice(0, 8)} tail`), 'head **** tail');
  assert.equal(r.redact(`x${API_KEY.slice(10, 17)}x`), `x${API_KEY.slice(10, 17)}x`, '7 chars');
  assert.equal(r.redact(API_KEY.toUpperCase()), '****', 'any ASCII case');
  // Two pieces next to each other become one marker; the text between pieces is kept.
  assert.equal(r.redact(`${API_KEY.slice(0, 20)} and ${API_KEY.slice(30, 50)}`), '**** and ****');
  assert.equal(redact(`p=${encodeURIComponent(PASSWORD)}`, [PASSWORD]), 'p=****');
  assert.equal(redact('a &lt;b&gt;&amp; c', ['<b>&']), 'a **** c', 'the XML-escaped form');
  assert.equal(redact('pin 4711 ok', ['4711']), 'pin **** ok', 'short credentials whole');
  assert.equal(redact('abc abc', ['abc']), 'abc abc', 'below 4 characters: nothing to match');
  assert.equal(redact('anything', [undefined, '']), 'anything');
});

void test('property: no 8-character window of a credential survives, wherever it is cut', () => {
  const secretArb = fc.string({ minLength: 8, maxLength: 80, unit: 'grapheme-ascii' });
  fc.assert(
    fc.property(
      secretArb,
      fc.string({ maxLength: 50 }),
      fc.string({ maxLength: 50 }),
      fc.nat(),
      fc.nat(),
      (secret, before, after, a, b) => {
        const from = a % (secret.length - MIN_RUN + 1);
        const to = from + MIN_RUN + (b % (secret.length - from - MIN_RUN + 1));
        const text = `${before}${secret.slice(from, to)}${after}`;
        assertClean(redact(text, [secret]), secret);
      },
    ),
    { seed: 11, numRuns: 500 },
  );
});

void test('a snippet is redacted before it is cut: no piece of a key at the cut', () => {
  for (let at = 150; at < 210; at += 3) {
    const page = `${'x'.repeat(at)}${API_KEY}${' '.repeat(5000)}`;
    const snippet = redactSnippet(page, [API_KEY], 200);
    assertClean(snippet, API_KEY);
    assert.ok(snippet.length <= 203, `${snippet.length} characters`);
  }
});

void test('a long proxy error page echoing the key (whole, cut and upper-cased) shows none of it', async () => {
  const { server, client } = await setup();
  const page =
    '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>\n' +
    `<h1>Bad Gateway</h1>\n<p>upstream said: ${'.'.repeat(60)} apiKey=${API_KEY}</p>\n` +
    `<pre>${API_KEY.slice(0, 26)}\n${API_KEY.toUpperCase()}\n${encodeURIComponent(API_KEY)}</pre>` +
    `<!-- ${'padding '.repeat(2000)} -->\n<p>${API_KEY}</p></body></html>`;
  server.reply({ status: 502, rawBody: page, headers: { 'content-type': 'text/html' } });
  const err = await failure(client.Account.getObject());
  assert.ok(err instanceof TransportError);
  assert.match((err as Error).message, /HTTP 502 Bad Gateway: <!DOCTYPE html>.*apiKey=\*\*\*\*/);
  assertClean(shown(err), API_KEY);
});

void test('a fault that echoes the key as its fault code and in its fault string shows none of it', async () => {
  const { server, client } = await setup();
  server.reply(
    { fault: { faultCode: API_KEY, faultString: `Invalid API key ${API_KEY.slice(3, 40)}` } },
    {
      status: 500,
      fault: { faultCode: `Svc_Exception_${API_KEY}`, faultString: API_KEY.toUpperCase() },
    },
  );
  const first = await failure(client.Account.getObject());
  assert.ok(first instanceof SvcAPIError);
  assert.equal(first.faultCode, '****');
  assert.equal(first.faultString, 'Invalid API key ****');
  assertClean(shown(first), API_KEY);
  const second = await failure(client.Account.getObject());
  assert.ok(second instanceof SvcAPIError);
  assert.equal(second.faultCode, 'Svc_Exception_****');
  assertClean(shown(second), API_KEY);
});

void test('a response header that echoes the key does not reach the error', async () => {
  const { server, client } = await setup();
  server.reply({
    value: true,
    headers: { 'content-encoding': `x-${API_KEY}`, 'x-echo-key': API_KEY },
  });
  const err = await failure(client.Account.getObject());
  assert.ok(err instanceof TransportError);
  assert.match((err as Error).message, /Unsupported Content-Encoding 'x-\*\*\*\*'/);
  assertClean(shown(err), API_KEY);
});

void test('a login token, a password and a security answer echoed back are redacted too', async () => {
  const { server, client } = await setup();
  server.reply({
    fault: {
      faultCode: `bad ${ANSWER}`,
      faultString: `user alice, password ${PASSWORD.slice(2)}, answer ${ANSWER.toUpperCase()}`,
    },
  });
  const login = await failure(client.authenticateWithPassword('alice', PASSWORD, 1, ANSWER));
  assertClean(shown(login), PASSWORD, ANSWER);

  const tokenClient = new Client({
    auth: new TokenAuth(78, TOKEN),
    endpointUrl: server.url,
    configFile: EMPTY_SETTINGS,
    retry: false,
  });
  server.reply({
    status: 403,
    rawBody: `<p>token ${TOKEN.slice(0, 30)}... rejected</p>`,
  });
  const denied = await failure(tokenClient.Account.getObject());
  assert.match((denied as Error).message, /token \*\*\*\*\.\.\. rejected/);
  assertClean(shown(denied), TOKEN);
});

void test('the verbose log redacts what the server echoed and what the call carried', async () => {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    const { server, client } = await setup({ verbose: true });
    server.reply({ fault: { faultCode: API_KEY, faultString: API_KEY.slice(5, 30) } });
    await failure(
      client.Account.getObject({ mask: `id,${API_KEY.slice(0, 12)}`, args: [API_KEY] }),
    );
  } finally {
    console.log = original;
  }
  assert.ok(lines.length >= 2, lines.join('\n'));
  for (const line of lines) assertClean(line, API_KEY);
});

/**
 * What the providers hand to the engine (log lines, check failures, errors) carries no piece of
 * the configured API key, even when the server or the inputs echo it.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { configure, providers } from '../../provider/dynamic/runtime';
import { MIN_RUN } from '../../provider/client/redact';
import { startRecordingServer, type RecordingServer } from '../support/recording-server';
import { API_KEY, USERNAME } from '../support/client-setup';
import { stackConfig } from '../support/provider-env';

function assertClean(text: string): void {
  const hay = text.toLowerCase();
  for (let i = 0; i + MIN_RUN <= API_KEY.length; i++) {
    const run = API_KEY.slice(i, i + MIN_RUN);
    assert.ok(!hay.includes(run), `a run of the key leaked (...${run}...): ${text}`);
  }
}

async function captured<T>(fn: () => Promise<T>): Promise<{ lines: string[]; error?: unknown }> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    await fn();
    return { lines };
  } catch (error) {
    return { lines, error };
  } finally {
    console.log = original;
  }
}

describe('provider output with a hostile server', () => {
  let server: RecordingServer;
  before(async () => {
    server = await startRecordingServer();
    await configure({
      config: stackConfig({
        'svc:endpointUrl': server.url,
        'svc:username': USERNAME,
        'svc:apiKey': API_KEY,
        'svc:timeout': '5',
      }),
    });
  });
  after(() => server?.close());

  it('check failures that quote an input holding the key are redacted', async () => {
    const result = await providers.DnsRecord.check(
      {},
      { zoneName: 'example.com', host: `bad ${API_KEY}`, type: 'A', data: API_KEY.slice(0, 20) },
    );
    const reasons = (result.failures ?? []).map((f) => f.reason);
    assert.ok(reasons.length >= 2, reasons.join('\n'));
    assert.ok(reasons.some((r) => r.includes('****')));
    for (const reason of reasons) assertClean(reason);
  });

  it('errors built from what the server and the inputs said are redacted', async () => {
    server.reply({ value: [] });
    const notFound = await captured(() =>
      providers.DnsRecord.create({
        zoneName: `${API_KEY.slice(0, 40)}.example.com`,
        host: 'www',
        type: 'A',
        data: '10.0.0.1',
        ttl: 900,
      }),
    );
    assert.match(
      String((notFound.error as Error)?.message),
      /No DNS zone found matching: \*\*\*\*/,
    );
    assertClean(inspect(notFound.error));

    server.reply({
      status: 500,
      fault: { faultCode: API_KEY, faultString: `rejected ${API_KEY.toUpperCase()}` },
    });
    const fault = await captured(() =>
      providers.DnsRecord.create({ zoneId: 5, host: 'www', type: 'A', data: '10.0.0.1', ttl: 900 }),
    );
    assert.ok(fault.error instanceof Error);
    assertClean(inspect(fault.error));
    for (const line of fault.lines) assertClean(line);
  });

  it('log lines are redacted', async () => {
    const { lines } = await captured(() =>
      providers.TicketUpdate.delete('7', { ticketId: `${API_KEY} (echoed)` }),
    );
    assert.equal(lines.length, 1);
    assert.match(lines[0], /TicketUpdate 7 on ticket \*\*\*\* \(echoed\)/);
    assertClean(lines[0]);
  });
});

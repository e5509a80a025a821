import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import { Client, isRateLimited } from '../../provider/client';
import { EMPTY_SETTINGS } from '../support/client-setup';

// A client with maxCallsPerSecond stays under an account-wide limit instead of bouncing off it:
// the emulator refuses past 10 calls/s (a token bucket per caller, as the API does), 30 calls go
// out at once, and with the client's limit at 8/s none is refused. Without it, some are.
let emulator: EmulatorHandle;
before(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
  emulator.setFaults({ rateLimitPerSecond: 10 });
});
after(() => emulator?.close());

const client = (maxCallsPerSecond?: number) =>
  new Client({
    configFile: EMPTY_SETTINGS,
    endpointUrl: emulator.url,
    username: emulator.credentials.username,
    apiKey: emulator.credentials.apiKey,
    retry: false,
    maxCallsPerSecond,
  });

const burst = (c: Client) =>
  Promise.allSettled(
    Array.from({ length: 30 }, () => c.call('Account', 'getObject', { mask: 'id' })),
  );

it('at 8 calls/s the client is never refused by a 10 calls/s account limit', async () => {
  const before = emulator.stats().faultsInjected['rate-limit'] ?? 0;
  const results = await burst(client(8));
  assert.deepEqual(
    results
      .filter((r) => r.status === 'rejected')
      .map((r) => String((r as PromiseRejectedResult).reason)),
    [],
  );
  assert.equal((emulator.stats().faultsInjected['rate-limit'] ?? 0) - before, 0);
});

it('without a client limit the same burst is refused in part (the test can tell)', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_100)); // let the account's bucket refill
  const results = await burst(client());
  const refused = results.filter((r) => r.status === 'rejected' && isRateLimited(r.reason));
  assert.ok(refused.length > 0, 'some calls were refused for the rate limit');
});

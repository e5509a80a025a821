import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, it } from 'node:test';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import { Client, isRateLimited } from '../../provider/client';
import { RATE_LIMIT_FAULT, SvcAPIError } from '../../provider/client/errors';
import type { RpcCall, Transport } from '../../provider/client/transport/call';
import { AdaptivePace, withRateLimit } from '../../provider/client/transport/rate-limit';
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

/** Lets the account's token bucket fill again between bursts. */
const refill = () => new Promise((resolve) => setTimeout(resolve, 1_100));

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
  await refill();
  const results = await burst(client());
  const refused = results.filter((r) => r.status === 'rejected' && isRateLimited(r.reason));
  assert.ok(refused.length > 0, 'some calls were refused for the rate limit');
});

/** One process per entry, each `count` calls at once at `perSecond`, with that temp directory. */
async function processes(tmpdirs: string[], count: number, perSecond: number) {
  const run = (tmp: string) =>
    promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/support/burst-process.ts', String(count)],
      {
        timeout: 60_000,
        env: {
          ...process.env,
          TMPDIR: tmp,
          SVC_ENDPOINT_URL: emulator.url,
          SVC_USERNAME: emulator.credentials.username,
          SVC_API_KEY: emulator.credentials.apiKey,
          SVC_MAX_CALLS_PER_SECOND: String(perSecond),
        },
      },
    ).then(({ stdout }) => JSON.parse(stdout) as { refused: number; failed: number });
  const results = await Promise.all(tmpdirs.map(run));
  return {
    refused: results.reduce((sum, r) => sum + r.refused, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
  };
}

// Ten stacks at once are ten provider processes: the limit is the account's, so the processes of
// one machine share it (the same endpoint and username take slots from one budget).
// 8 calls/s, not 9: the emulator runs in the test's own process, and on a loaded machine its late
// event loop takes calls sent evenly in bunches; 20% below the account's limit absorbs that.
it('three processes at 8 calls/s for one account share it: a 10 calls/s limit refuses none', async () => {
  await refill();
  const tmp = mkdtempSync(join(tmpdir(), 'svc-rate-'));
  const before = emulator.stats().faultsInjected['rate-limit'] ?? 0;
  assert.deepEqual(await processes([tmp, tmp, tmp], 15, 8), { refused: 0, failed: 0 });
  assert.equal((emulator.stats().faultsInjected['rate-limit'] ?? 0) - before, 0);
  const slotDirs = readdirSync(tmp).filter((name) => name.startsWith('svc-rate-slots'));
  assert.deepEqual(slotDirs, [], 'no slot file or directory is left behind');
});

it('the same processes unable to see each other (a temp directory each) are refused in part', async () => {
  await refill();
  const apart = await processes(
    [1, 2, 3].map(() => mkdtempSync(join(tmpdir(), 'svc-rate-'))),
    15,
    8,
  );
  assert.equal(apart.failed, 0);
  assert.ok(apart.refused > 0, 'some calls were refused for the rate limit');
});

it('a slot directory open to other users is not trusted: nothing is written in it, calls still go out', async () => {
  await refill();
  const tmp = mkdtempSync(join(tmpdir(), 'svc-rate-'));
  const planted = join(tmp, `svc-rate-slots-${process.getuid?.() ?? 'user'}`);
  mkdirSync(planted);
  chmodSync(planted, 0o777);
  // 8 calls/s for the reason the shared-slots test gives: the claim is where slots are kept.
  assert.deepEqual(await processes([tmp], 12, 8), { refused: 0, failed: 0 });
  assert.deepEqual(readdirSync(planted), [], 'no slot file in a directory others can write');
});

// Past one machine the slot files no longer share the account's budget; the API's rate-limit
// fault is then the only sign, and each process's pace follows it (AIMD, as the AWS SDKs' adaptive
// retry mode): a fault halves its share of the configured rate, answered calls creep it back.
it('the adaptive pace halves on a fault, never below 1/16, weighs each call at its share, and creeps back per slot', () => {
  const pace = new AdaptivePace();
  assert.equal(pace.slotsPerCall, 1, 'at the full rate a call takes its own slot');
  pace.throttled();
  assert.equal(pace.slotsPerCall, 2, 'at half the rate: its own and one left empty');
  for (let i = 0; i < 6; i++) pace.throttled();
  assert.equal(pace.currentShare, AdaptivePace.MIN_SHARE, 'halved down to the floor');
  assert.equal(pace.slotsPerCall, 16);
  for (let i = 0; i < 8; i++) pace.answered();
  assert.equal(pace.currentShare, AdaptivePace.MIN_SHARE + 8 * AdaptivePace.STEP, 'creeps back');
  assert.equal(pace.slotsPerCall, 3);
  pace.answered(3);
  assert.equal(pace.currentShare, AdaptivePace.MIN_SHARE + 11 * AdaptivePace.STEP, 'per slot held');
  for (let i = 0; i < 40; i++) pace.answered();
  assert.equal(pace.currentShare, 1, 'back to the full rate, never above');
  assert.equal(pace.slotsPerCall, 1);
});

it("a process slowed by a fault slows its machine: the slots it gave up are kept from the others' calls", async () => {
  // Two processes' rate-limit stages on one machine (one slot directory: the same endpoint,
  // username and rate), 10 calls/s: slots 100 ms apart.
  const account = {
    endpointUrl: `http://machine-${process.pid}-${Date.now()}.test`,
    username: 'u',
  };
  const sentAt: Record<string, number> = {};
  let refuse = true;
  const api =
    (name: string): Transport =>
    async (call) => {
      sentAt[`${name} ${call.method}`] = Date.now();
      if (name === 'a' && refuse) {
        refuse = false;
        throw new SvcAPIError(RATE_LIMIT_FAULT, 'Rate limit exceeded.');
      }
      return { value: null, status: 200, totalItems: undefined };
    };
  const a = withRateLimit(api('a'), 10, account);
  const b = withRateLimit(api('b'), 10, account);
  const call = (method: string) => ({ method }) as RpcCall;
  await assert.rejects(a(call('first')), (err) => err instanceof SvcAPIError);
  // At half its share, a's next call holds its slot and the one after it; b's call, right after,
  // goes one slot later than it would have (200 ms after a's, not 100).
  await a(call('second'));
  await b(call('third'));
  // Measured from a's first call, which starts the slots (a later send of a's second call, on a
  // busy machine, would shrink a gap measured from it): b goes at its slot, 300 ms on, or at
  // 200 ms had a not kept its slots.
  const gap = sentAt['b third'] - sentAt['a first'];
  assert.ok(gap >= 250, `b's call went ${gap} ms after a's first`);
});

it('a client at 30 calls/s against a 10 calls/s account slows itself down after the first faults', async () => {
  await refill();
  const c = new Client({
    configFile: EMPTY_SETTINGS,
    endpointUrl: emulator.url,
    username: emulator.credentials.username,
    apiKey: emulator.credentials.apiKey,
    maxCallsPerSecond: 30,
  });
  const before = emulator.stats().faultsInjected['rate-limit'] ?? 0;
  const workers = Array.from({ length: 6 }, async () => {
    for (let i = 0; i < 10; i++) await c.call('Account', 'getObject', { mask: 'id' });
  });
  await Promise.all(workers);
  const refused = (emulator.stats().faultsInjected['rate-limit'] ?? 0) - before;
  // Measured: 7 refused sends with the pace; 33 with a pace that never slows (the retries'
  // backoff alone spacing them).
  assert.ok(refused < 20, `${refused} sends refused for 60 calls`);
});

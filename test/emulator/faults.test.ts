/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { isLoopback } from '../../emulator/server';
import { optionsFromArgs } from '../../emulator/cli';
import { admin, buildHeaders, encodeCall, type EmulatorClient } from '../support/emulator-client';
import {
  createGuest,
  freshAccount,
  guestTemplate,
  sleep,
  useEmulator,
} from '../support/emulator-harness';

const h = useEmulator();

afterEach(() => {
  h.emu.setFaults(null);
});

/** 'ok', 'fault:<code>', 'http-<status>' or 'network' for one call. */
async function outcome(
  client: EmulatorClient,
  service = 'Account',
  method = 'getObject',
  args: unknown[] = [],
): Promise<string> {
  try {
    const res = await client.callRaw(service, method, { args, mask: 'id' });
    if (res.fault) return `fault:${String(res.fault.faultCode)}`;
    return res.status === 200 ? 'ok' : `http-${res.status}`;
  } catch {
    return 'network';
  }
}

describe('fault injection', () => {
  it('answers HTTP 500 at the configured rate, and stops when switched off', async () => {
    h.emu.setFaults({ http500Rate: 1 });
    assert.equal(await outcome(h.demo), 'http-500');
    h.emu.setFaults({ http500Rate: 0 });
    assert.equal(await outcome(h.demo), 'ok');
  });

  it('drops the connection without running the call', async () => {
    const client = await freshAccount(h.emu);
    h.emu.setFaults({ dropRate: 1 });
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [guestTemplate()]),
      'network',
    );
    h.emu.setFaults(null);
    assert.deepEqual(await client.call('Account', 'getVirtualGuests'), []);
  });

  it('loses the response of a call that was applied', async () => {
    const username = `lose${Date.now()}`;
    const client = await freshAccount(h.emu, username);
    h.emu.setFaults({ loseResponseRate: 1 });
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [
        guestTemplate({ hostname: 'ghost' }),
      ]),
      'network',
    );
    h.emu.setFaults(null);
    assert.deepEqual(
      h.emu.objects(username).virtualGuests.map((g) => g.hostname),
      ['ghost'],
    );
  });

  it('slow commit: the client gives up, the call runs later anyway', async () => {
    const username = `slow${Date.now()}`;
    const client = await freshAccount(h.emu, username);
    await admin(h.emu.adminUrl, 'POST', '/faults', {
      once: {
        service: 'Virtual_Guest',
        method: 'createObject',
        fault: 'slow-commit',
        delayMs: 800,
      },
    });
    const params = [
      { headers: buildHeaders('Virtual_Guest', {}, client.auth) },
      guestTemplate({ hostname: 'late' }),
    ];
    await assert.rejects(
      fetch(`${h.emu.url}/Svc_Virtual_Guest`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml' },
        body: encodeCall('createObject', params),
        signal: AbortSignal.timeout(100),
      }),
      /abort|timeout/i,
    );
    let hostnames: unknown[] = [];
    for (let i = 0; i < 100 && hostnames.length === 0; i += 1) {
      await sleep(50);
      hostnames = h.emu.objects(username).virtualGuests.map((g) => g.hostname);
    }
    assert.deepEqual(hostnames, ['late'], 'committed after the client had gone');
    assert.equal(h.emu.stats().faultsInjected['slow-commit'], 1);
  });

  it('5xx after commit: the call is applied and answered with a gateway error', async () => {
    const username = `after${Date.now()}`;
    const client = await freshAccount(h.emu, username);
    h.emu.setFaults({
      once: { method: 'createObject', fault: 'error-after-commit', status: 504 },
    });
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [guestTemplate({ hostname: 'a' })]),
      'http-504',
    );
    h.emu.setFaults({ errorAfterCommitRate: 1 });
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [guestTemplate({ hostname: 'b' })]),
      'http-502',
    );
    h.emu.setFaults(null);
    assert.deepEqual(
      h.emu.objects(username).virtualGuests.map((g) => g.hostname),
      ['a', 'b'],
    );
  });

  it('reset before commit (dropRate) applies nothing; slow commits at a rate are seeded', async () => {
    const username = `reset${Date.now()}`;
    const client = await freshAccount(h.emu, username);
    h.emu.setFaults({ once: { method: 'createObject', fault: 'drop' } });
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [guestTemplate()]),
      'network',
    );
    assert.deepEqual(h.emu.objects(username).virtualGuests, []);
    const state = h.emu.setFaults({ seed: 3, slowCommitRate: 0.5, slowCommitMs: 20 });
    assert.equal(state.slowCommitMs, 20);
    const before = h.emu.stats().faultsInjected['slow-commit'] ?? 0;
    for (let i = 0; i < 20; i += 1) assert.equal(await outcome(client), 'ok');
    const slowed = (h.emu.stats().faultsInjected['slow-commit'] ?? 0) - before;
    assert.ok(slowed > 0 && slowed < 20, `${slowed} of 20 calls committed late`);
  });

  it('targets exactly one upcoming call through the admin API', async () => {
    const username = `once${Date.now()}`;
    const client = await freshAccount(h.emu, username);
    const state = await admin<{ pending: unknown[] }>(h.emu.adminUrl, 'POST', '/faults', {
      once: { service: 'Virtual_Guest', method: 'createObject', fault: 'lose-response' },
    });
    assert.equal(state.pending.length, 1);
    assert.equal(await outcome(client), 'ok', 'other calls are not affected');
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [
        guestTemplate({ hostname: 'first' }),
      ]),
      'network',
    );
    assert.equal(
      await outcome(client, 'Virtual_Guest', 'createObject', [
        guestTemplate({ hostname: 'second' }),
      ]),
      'ok',
    );
    const objects = await admin<{ virtualGuests: { hostname: string }[] }>(
      h.emu.adminUrl,
      'GET',
      `/accounts/${username}/objects`,
    );
    assert.deepEqual(
      objects.virtualGuests.map((g) => g.hostname),
      ['first', 'second'],
    );
    assert.deepEqual(
      (await admin<{ pending: unknown[] }>(h.emu.adminUrl, 'GET', '/faults')).pending,
      [],
    );
  });

  it('injects a chosen API fault a given number of times', async () => {
    h.emu.setFaults({
      once: {
        service: 'Svc_Account',
        fault: 'api-fault',
        faultCode: 'Svc_Exception_Custom',
        faultString: 'boom',
        times: 2,
      },
    });
    assert.equal(await outcome(h.demo), 'fault:Svc_Exception_Custom');
    assert.equal(await outcome(h.demo), 'fault:Svc_Exception_Custom');
    assert.equal(await outcome(h.demo), 'ok');
  });

  it('adds latency', async () => {
    h.emu.setFaults({ latencyMs: { min: 150, max: 200 } });
    const started = Date.now();
    assert.equal(await outcome(h.demo), 'ok');
    const took = Date.now() - started;
    assert.ok(took >= 145 && took < 1000, `${took} ms`);
  });

  it('answers calls beyond the per-second limit with the rate-limit fault', async () => {
    h.emu.setFaults({ rateLimitPerSecond: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(h.demo)));
    const limited = results.filter(
      (r) => r === 'fault:Svc_Exception_WebService_RateLimitExceeded',
    ).length;
    assert.ok(limited >= 10 && limited <= 15, results.join(','));
    assert.equal(results.filter((r) => r === 'ok').length, 20 - limited);
    assert.equal(await outcome(h.other), 'ok', 'the limit is per caller');
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert.equal(await outcome(h.demo), 'ok', 'tokens refill over time');
  });

  it('repeats the same fault sequence for the same seed', async () => {
    const run = async (seed: number) => {
      h.emu.setFaults({ seed, http500Rate: 0.3, dropRate: 0.2 });
      const results: string[] = [];
      for (let i = 0; i < 40; i += 1) results.push(await outcome(h.demo));
      h.emu.setFaults(null);
      return results.join(',');
    };
    const a = await run(42);
    assert.match(a, /http-500/);
    assert.match(a, /network/);
    assert.equal(await run(42), a);
    assert.notEqual(await run(7), a);
  });

  it('rejects invalid fault settings', async () => {
    assert.throws(() => h.emu.setFaults({ http500Rate: 2 }), /0 to 1/);
    assert.throws(() => h.emu.setFaults({ errorAfterCommitStatus: 404 }), /500 to 599/);
    assert.throws(() => h.emu.setFaults({ slowCommitMs: 0 }), /1 to 600000/);
    const res = await fetch(`${h.emu.adminUrl}/faults`, {
      method: 'POST',
      body: JSON.stringify({ once: { fault: 'explode' } }),
    });
    assert.equal(res.status, 400);
    const notJson = await fetch(`${h.emu.adminUrl}/faults`, { method: 'POST', body: '{' });
    assert.equal(notJson.status, 400);
  });
});

describe('svc-emulator fault flags', () => {
  it('reads the commit-timing faults from the command line', () => {
    const options = optionsFromArgs([
      '--fault-drop-rate',
      '0.1',
      '--fault-slow-commit-rate',
      '0.2',
      '--fault-slow-commit',
      '4s',
      '--fault-5xx-after-commit-rate',
      '0.3',
      '--fault-5xx-after-commit-status',
      '503',
    ]);
    assert.notEqual(options, 'help');
    if (options === 'help') return;
    assert.deepEqual(options.faults, {
      dropRate: 0.1,
      slowCommitRate: 0.2,
      slowCommitMs: 4000,
      errorAfterCommitRate: 0.3,
      errorAfterCommitStatus: 503,
    });
    assert.throws(() => optionsFromArgs(['--fault-5xx-after-commit-status', '404']), /500 to 599/);
  });
});

describe('admin API', () => {
  it('counts requests, calls, faults and writes', async () => {
    const before = await admin<Record<string, any>>(h.emu.adminUrl, 'GET', '/stats');
    await h.demo.call('Account', 'getObject');
    await h.demo.callRaw('Account', 'nope');
    await createGuest(h.demo, { hostname: 'counted' });
    h.emu.setFaults({ once: { fault: 'http-500' } });
    await outcome(h.demo);
    const after = await admin<Record<string, any>>(h.emu.adminUrl, 'GET', '/stats');
    assert.equal(after.requests - before.requests, 4);
    assert.equal(
      (after.calls['Account.getObject'] ?? 0) - (before.calls['Account.getObject'] ?? 0),
      1,
    );
    assert.equal(
      (after.calls['Virtual_Guest.createObject'] ?? 0) -
        (before.calls['Virtual_Guest.createObject'] ?? 0),
      1,
    );
    assert.equal((after.faults['-32601'] ?? 0) - (before.faults['-32601'] ?? 0), 1);
    assert.equal(
      (after.faultsInjected['http-500'] ?? 0) - (before.faultsInjected['http-500'] ?? 0),
      1,
    );
    assert.equal(after.writes - before.writes, 1);
  });

  it('creates isolated accounts, lists them and fills them with guests', async () => {
    const created = await admin<{ username: string; apiKey: string; accountId: number }>(
      h.emu.adminUrl,
      'POST',
      '/accounts',
      {
        username: 'admin-made',
        companyName: 'Admin Made',
      },
    );
    assert.match(created.apiKey, /^[0-9a-f]{64}$/);
    const accounts = await admin<{ companyName: string; usernames: string[] }[]>(
      h.emu.adminUrl,
      'GET',
      '/accounts',
    );
    assert.deepEqual(accounts.find((a) => a.companyName === 'Admin Made')?.usernames, [
      'admin-made',
    ]);
    const dup = await fetch(`${h.emu.adminUrl}/accounts`, {
      method: 'POST',
      body: JSON.stringify({ username: 'admin-made' }),
    });
    assert.equal(dup.status, 400);
    assert.deepEqual(
      await admin(h.emu.adminUrl, 'POST', '/accounts/admin-made/populate', { virtualGuests: 25 }),
      { created: 25 },
    );
    const objects = await admin<{ virtualGuests: unknown[]; tickets: unknown[] }>(
      h.emu.adminUrl,
      'GET',
      '/accounts/admin-made/objects',
    );
    assert.equal(objects.virtualGuests.length, 25);
    assert.deepEqual(objects.tickets, []);
    assert.equal((await fetch(`${h.emu.adminUrl}/accounts/nobody/objects`)).status, 404);
  });

  it('changes the provisioning delay at run time', async () => {
    await admin(h.emu.adminUrl, 'POST', '/settings', { provisioningDelayMs: 60_000 });
    const guest = await createGuest(h.demo, { hostname: 'slowpoke' });
    await admin(h.emu.adminUrl, 'POST', '/settings', { provisioningDelayMs: 0 });
    const got = await h.demo.call<Record<string, unknown>>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'activeTransaction',
    });
    assert.ok(got.activeTransaction);
  });

  it('serves loopback callers only', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      assert.equal(isLoopback(address), true, address);
    for (const address of ['10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', 'fe80::1', undefined])
      assert.equal(isLoopback(address), false, String(address));
  });
});

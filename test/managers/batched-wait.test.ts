import assert from 'node:assert/strict';
import { after, before, it, type TestContext } from 'node:test';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { VirtualGuestManager, WaitTimeoutError } from '../../provider/managers';
import { BatchedWait } from '../../provider/managers/batched-wait';

// Guests provisioning together are awaited with one listing a round, not one read per guest.
type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let guests: VirtualGuestManager;
before(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 1_500 });
  const client = new Client({ ...emulator.credentials, endpointUrl: emulator.url });
  guests = new VirtualGuestManager(client);
});
after(() => emulator?.close());

const calls = (call: string) => emulator.stats().calls[call] ?? 0;
const order = (hostname: string) =>
  guests.createInstance({
    hostname,
    domain: 'batch.example.com',
    cpus: 1,
    memory: 1024,
    os: 'UBUNTU_LATEST',
    datacenter: 'dal10',
  });

it('six guests: every wait resolves ready, with one listing a round and no per-guest read', async () => {
  const ordered = await Promise.all(['b0', 'b1', 'b2', 'b3', 'b4', 'b5'].map(order));
  const [listings, reads] = [calls('Account.getVirtualGuests'), calls('Virtual_Guest.getObject')];
  const rounds = new Map<number, number>();
  const ready = await Promise.all(
    ordered.map((g) =>
      guests.waitForReady(g.id, {
        timeoutMs: 60_000,
        pollMs: 200,
        onProgress: () => rounds.set(g.id, (rounds.get(g.id) ?? 0) + 1),
      }),
    ),
  );
  assert.deepEqual(
    ready.map((g) => [g.id, Boolean(g.provisionDate && g.primaryIpAddress)]),
    ordered.map((g) => [g.id, true]),
  );
  const roundsSeen = Math.max(...rounds.values()) + 1; // the rounds that found it not ready, and the last
  const listed = calls('Account.getVirtualGuests') - listings;
  assert.equal(calls('Virtual_Guest.getObject') - reads, 0, 'no per-guest read');
  assert.ok(roundsSeen > 1, 'the guests were awaited over several rounds');
  assert.ok(listed <= roundsSeen + 1, `${listed} listings for ${roundsSeen} rounds of six guests`);
});

it('a guest the account does not have fails its own wait with the API error; a slow one times out', async () => {
  const slow = await order('slow');
  const results = await Promise.allSettled([
    guests.waitForReady(999_999, { timeoutMs: 60_000, pollMs: 100 }),
    guests.waitForReady(slow.id, { timeoutMs: 300, pollMs: 100 }),
  ]);
  assert.equal(results[0].status, 'rejected');
  assert.match(String((results[0] as PromiseRejectedResult).reason), /ObjectNotFound/);
  const timedOut = (results[1] as PromiseRejectedResult).reason as WaitTimeoutError;
  assert.ok(timedOut instanceof WaitTimeoutError);
  assert.equal(timedOut.guestId, slow.id);
});

it('lookups by tag started together share one listing, and each gets exactly its own guests', async () => {
  const tagged = await Promise.all(
    ['t0', 't1', 't2'].map((tag) =>
      guests.createInstance({
        hostname: `tagged-${tag}`,
        domain: 'batch.example.com',
        cpus: 1,
        memory: 1024,
        os: 'UBUNTU_LATEST',
        datacenter: 'dal10',
        tags: [`token-${tag}`, 'shared'],
      }),
    ),
  );
  const listings = calls('Account.getVirtualGuests');
  const tags = ['token-t0', 'token-t1', 'token-t2', 'token-none', 'token-t'];
  const found = await Promise.all(tags.map((tag) => guests.listTagged(tag)));
  assert.equal(calls('Account.getVirtualGuests') - listings, 1, 'one listing for five lookups');
  assert.deepEqual(
    found.map((list) => list.map((g) => g.id)),
    [[tagged[0].id], [tagged[1].id], [tagged[2].id], [], []],
  );
});

it('more lookups at once than one page holds are split: 45 tags, two listings', async () => {
  const listings = calls('Account.getVirtualGuests');
  const tags = Array.from({ length: 45 }, (_, i) => (i === 44 ? 'token-t1' : `token-none-${i}`));
  const found = await Promise.all(tags.map((tag) => guests.listTagged(tag)));
  assert.equal(calls('Account.getVirtualGuests') - listings, 2);
  assert.deepEqual(
    found.map((list) => list.length),
    tags.map((tag) => (tag === 'token-t1' ? 1 : 0)),
  );
});

/**
 * A wait on mocked timers (first pace 1 s) whose objects are ready from `readyAt(id)` on, with
 * the times of its listings.
 */
function clockedWait(readyAt: (id: number) => number) {
  const listedAt: number[] = [];
  const wait = new BatchedWait<{ id: number; ready: boolean }>(
    {
      list: async (ids) => {
        listedAt.push(Date.now());
        return ids.map((id) => ({ id, ready: Date.now() >= readyAt(id) }));
      },
      read: () => Promise.reject(new Error('every object is listed')),
      ready: (object) => object.ready,
      timeoutError: (id) => new Error(`timed out: ${id}`),
    },
    1_000,
  );
  return { wait, listedAt };
}

/**
 * Starts the wait of each object at its order time (`orderedAt[id]`, on the clock's steps) and runs
 * the mocked clock to `untilMs`; returns when each wait ended ready.
 */
async function runOrders(
  t: TestContext,
  wait: ReturnType<typeof clockedWait>['wait'],
  orderedAt: number[],
  stepMs: number,
  untilMs = 30_000,
) {
  const resolvedAt = new Map<number, number>();
  for (let now = 0; now < untilMs; now += stepMs) {
    for (const [id, at] of orderedAt.entries())
      if (at === now)
        void wait.wait(id, { timeoutMs: 60_000 }).then(() => resolvedAt.set(id, Date.now()));
    t.mock.timers.tick(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return resolvedAt;
}

it('once a round finds one object ready, the others are looked at one poll later, not at the grown pace', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // Two guests ordered together: one ready at 3 s, the other at 4.2 s.
  const readyAt = [3_000, 4_200];
  const { wait, listedAt } = clockedWait((id) => readyAt[id]);
  const resolvedAt = await runOrders(t, wait, [0, 0], 250, 12_000);
  // Rounds at 1 s, 2 s, 3.5 s (the pace grows x1.5 while nothing is ready); the second guest is
  // then found one poll after the first, at 4.5 s, where the grown pace would look at 5.75 s.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_500, 4_500]);
  assert.deepEqual(Object.fromEntries(resolvedAt), { 0: 3_500, 1: 4_500 });
});

it('guests ordered while others wait join the rounds at the pace reached, not at the first pace again', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // An up orders a guest every 500 ms for 4 s (9 guests); each is ready 6 s after its order.
  const orderedAt = Array.from({ length: 9 }, (_, i) => i * 500);
  const { wait, listedAt } = clockedWait((id) => orderedAt[id] + 6_000);
  const resolved = await runOrders(t, wait, orderedAt, 125, 20_000);
  assert.equal(resolved.size, 9, 'every wait ends ready');
  // The pace grows as if one guest waited (1, 1.5, 2.25, 3.375 s apart) until a round finds the
  // first seven ready at 9.125 s; the last two follow when they are expected (ordered 3.5 and 4 s,
  // ready within 6.125 s). Setting the pace back at each order would have listed the account
  // every second while the orders came.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_500, 5_750, 9_125, 10_125]);
});

it('guests that get ready one after another over seconds are not looked at every second until the last', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // Ten guests ordered at once, ready from 3 s on, one every 0.7 s (the last at 9.3 s).
  const readyAt = Array.from({ length: 10 }, (_, i) => 3_000 + i * 700);
  const { wait, listedAt } = clockedWait((id) => readyAt[id]);
  const resolvedAt = await runOrders(
    t,
    wait,
    readyAt.map(() => 0),
    125,
  );
  assert.equal(resolvedAt.size, 10);
  // Rounds at 1, 2, 3.5 s (the first found ready), then one poll later and growing again:
  // 4.5, 6, 8.25, 11.625 s. Set back at every round that finds one, the pace would have listed
  // the account every second from 3.5 s to 9.5 s.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_500, 4_500, 6_000, 8_250, 11_625]);
  // What that costs: the last guest is noticed 2.3 s after it is ready.
  assert.equal(resolvedAt.get(9)! - readyAt[9], 2_325);
});

it('once one is found ready, the others are looked at when they are expected ready: fewer rounds, the last noticed sooner', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // An up orders 20 guests over 6 s (one every 300 ms, as the rate limit lets them through);
  // each takes 5 s to provision, so they get ready from 5 s to 10.7 s.
  const orderedAt = Array.from({ length: 20 }, (_, i) => i * 300);
  const { wait, listedAt } = clockedWait((id) => orderedAt[id] + 5_000);
  const resolvedAt = await runOrders(t, wait, orderedAt, 50);
  assert.equal(resolvedAt.size, 20, 'every wait ends ready');
  // Rounds at 1, 2, 3.5, 5.75 s find the first three ready (the shortest of their waits: 5.15 s).
  // Each other guest is then expected 5.15 s after its order: one round when those expected
  // within half that of the next one are (8.45 s), one for the rest (10.85 s). The pace alone
  // (one poll after the first ready, growing x1.5) took 8 rounds: 6.75, 8.25, 10.5 and 13.9 s.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_500, 5_750, 8_450, 10_850]);
  assert.equal(resolvedAt.get(19)! - (orderedAt[19] + 5_000), 150, 'the last noticed 0.15 s late');
});

it('an object not ready when expected is looked at again at the pace, as before anything was ready', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // Two guests ordered at once, one ready at 2 s; the other one, ordered 1 s later, is slow (9 s).
  const readyAt = [2_000, 9_000];
  const { wait, listedAt } = clockedWait((id) => readyAt[id]);
  const resolvedAt = await runOrders(t, wait, [0, 1_000], 50);
  // Ready within 2 s, the second is expected at 3 s; not ready then, it is looked at at the pace,
  // growing x1.5 (4.5, 6.75, then 10.15 s on this 50 ms clock), never every second until it is.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_000, 4_500, 6_750, 10_150]);
  assert.deepEqual(Object.fromEntries(resolvedAt), { 0: 2_000, 1: 10_150 });
});

it('a group that starts waiting after another got ready is first looked at when it is expected ready', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // `up --parallel 2`: two guests ordered at 0 s, two more at 8 s once the first are done; each
  // is ready 5 s after its order.
  const orderedAt = [0, 0, 8_000, 8_000];
  const { wait, listedAt } = clockedWait((id) => orderedAt[id] + 5_000);
  const resolvedAt = await runOrders(t, wait, orderedAt, 250);
  // The first group: rounds at 1, 2, 3.5 and 5.75 s, ready within 5.75 s. The second is looked at
  // once, at 8 + 5.75 s, where starting the pace over would have listed at 9, 10, 11.5, 13.75 s.
  assert.deepEqual(listedAt, [1_000, 2_000, 3_500, 5_750, 13_750]);
  assert.deepEqual([...resolvedAt.values()], [5_750, 5_750, 13_750, 13_750]);
});

it('what was learnt never delays a look past the longest poll (15 s)', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  // A guest that took 40 s, then one that waits at 60 s and is ready at 61 s (an update of a
  // guest ordered a while ago): it is looked at 15 s into its wait, not 40-odd.
  const orderedAt = [0, 60_000];
  const readyAt = [40_000, 61_000];
  const { wait } = clockedWait((id) => readyAt[id]);
  const resolvedAt = await runOrders(t, wait, orderedAt, 250, 120_000);
  assert.equal(resolvedAt.get(1), 75_000);
});

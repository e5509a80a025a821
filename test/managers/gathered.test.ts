import assert from 'node:assert/strict';
import { it } from 'node:test';
import { gathered } from '../../provider/managers/gathered';

// Lookups gathered into one call; while a call is on its way, the next ones wait and join one.

it('lookups made while a listing is on its way join the next one: one call in flight', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const calls: { at: number; keys: string[] }[] = [];
  const answers: (() => void)[] = [];
  const lookup = gathered(
    (keys: string[]) => {
      calls.push({ at: Date.now(), keys });
      return new Promise<Map<string, string>>((resolve) =>
        answers.push(() => resolve(new Map(keys.map((k) => [k, `found ${k}`])))),
      );
    },
    () => 'none',
  );
  const results = new Map<string, string>();
  // The creates of a busy machine reach the provider over seconds; the first listing is queued
  // behind the rate limit and answers only at 2 s.
  const askedAt = new Map([
    [0, 'a'],
    [600, 'b'],
    [1_200, 'c'],
    [1_500, 'd'],
  ]);
  for (let now = 0; now <= 3_000; now += 50) {
    const key = askedAt.get(now);
    if (key) void lookup(key).then((found) => results.set(key, found));
    if (now === 2_000) answers[0]();
    if (now === 2_600) answers[1]?.();
    await new Promise((resolve) => setImmediate(resolve));
    t.mock.timers.tick(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
  // A window of its own per lookup would have sent three calls: a, b (at 1.1 s), then c and d.
  assert.deepEqual(calls, [
    { at: 500, keys: ['a'] },
    { at: 2_000, keys: ['b', 'c', 'd'] },
  ]);
  assert.deepEqual(Object.fromEntries(results), {
    a: 'found a',
    b: 'found b',
    c: 'found c',
    d: 'found d',
  });
});

it('a failed call fails its own lookups, and the next call still goes', async () => {
  let call = 0;
  const lookup = gathered(
    async (keys: string[]) => {
      if (++call === 1) throw new Error('listing refused');
      return new Map(keys.map((k) => [k, k.length]));
    },
    () => 0,
  );
  await assert.rejects(lookup('first'), /listing refused/);
  assert.equal(await lookup('second'), 6);
});

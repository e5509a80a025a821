import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { shrinkingPages } from '../../commands/pages';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

// The audit's read of a 10,000-guest account: pages of 1,000 that the API (the emulator's
// `largestPage`, as the real API does for a page too large) answers with `Internal Error`, so
// the page shrinks until it is served; every guest once, one page held at a time.
describe('shrinkingPages over a 10,000-guest account', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'empty', largestPage: 300 });
    const { username, apiKey } = emulator.credentials;
    client = new Client({ username, apiKey, endpointUrl: emulator.url });
    await emulator.populate(username, 10_000);
  });
  after(() => emulator?.close());

  it('shrinks the page on Internal Error, reads every guest once, and holds one page at a time', async () => {
    const calls = () => emulator.stats().calls['Account.getVirtualGuests'] ?? 0;
    const ids = new Set<number>();
    let largest = 0;
    const started = Date.now();
    for await (const page of shrinkingPages<{ id: number }>(client, 'Account', 'getVirtualGuests', {
      mask: 'id,hostname,tagReferences.tag.name,datacenter.name',
    })) {
      largest = Math.max(largest, page.length);
      for (const guest of page) ids.add(guest.id);
    }
    assert.equal(ids.size, 10_000);
    assert.equal(largest, 250, '1,000 -> 500 -> 250: the first size the API serves');
    // Two refused pages, then 40 pages of 250 and the short (empty) one that ends the list.
    assert.equal(calls(), 2 + 40 + 1);
    console.log(`read 10,000 guests in ${Date.now() - started} ms`);
  });

  it('an Internal Error that is not about the page size (one item refused) is raised', async () => {
    emulator.settings.largestPage = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of shrinkingPages(client, 'Account', 'getVirtualGuests', {
          mask: 'id',
        }));
      })(),
      /Internal Error/,
    );
    emulator.settings.largestPage = undefined;
  });
});

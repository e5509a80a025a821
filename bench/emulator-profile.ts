/**
 * Where the time of one filtered getVirtualGuests page goes inside the emulator (no HTTP):
 * filter + sort + mask projection versus XML-RPC serialization by the `xmlrpc` package.
 *   node --import tsx bench/emulator-profile.ts
 */
import { performance } from 'node:perf_hooks';
import { populateGuests } from '../emulator/populate';
import { parseMaskString } from '../emulator/query/mask';
import { applySeed } from '../emulator/seed';
import { list, type CallContext } from '../emulator/services/context';
import { TABLES } from '../emulator/services/registry';
import { Store } from '../emulator/store';
import { encodeResponse } from '../emulator/wire';
import { GUEST_FILTER, GUEST_MASK } from './support/guest-query';

async function main(): Promise<void> {
  const store = new Store(TABLES);
  await applySeed(store, 'empty');
  await populateGuests(store, 318001, 10_000);
  const filter = GUEST_FILTER;
  const ctx = {
    store,
    now: Date.now(),
    accountId: 318001,
    user: null,
    service: 'Account',
    method: 'getVirtualGuests',
    args: [],
    rawId: undefined,
    mask: parseMaskString(GUEST_MASK),
    filter,
    limit: 100,
    offset: 0,
    settings: { provisioningDelayMs: 0 },
  } as unknown as CallContext;
  const guests = store.by('guests', 'accountId', 318001);
  const times = { query: [] as number[], serialize: [] as number[] };
  for (let i = 0; i < 60; i += 1) {
    const t0 = performance.now();
    const result = list(ctx, 'Svc_Virtual_Guest', guests, ['virtualGuests']);
    const t1 = performance.now();
    encodeResponse(result.value);
    const t2 = performance.now();
    if (i >= 10) {
      times.query.push(t1 - t0);
      times.serialize.push(t2 - t1);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(2);
  console.log(
    `filter+sort+project over 10,000 guests: ${median(times.query)} ms; xmlrpc serialize of 100 rows: ${median(times.serialize)} ms`,
  );
  console.log(
    JSON.stringify({
      bench: 'emulator-profile',
      queryMs: Number(median(times.query)),
      serializeMs: Number(median(times.serialize)),
    }),
  );
}

void main();

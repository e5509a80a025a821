import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Handler, RecordedRequest } from '../support/recording-server';
import { setup } from '../support/client-setup';

/**
 * Serves `count` guests, honouring resultLimit but never sending more than `pageCap` at once;
 * sends Svc-Total-Items unless told not to.
 */
function guests(count: number, { totalHeader = true, pageCap = Infinity } = {}): Handler {
  return (request) => {
    const { limit = count, offset = 0 } = (request.apiHeaders.resultLimit ?? {}) as {
      limit?: number;
      offset?: number;
    };
    const items = [];
    const end = Math.min(count, offset + Math.min(limit, pageCap));
    for (let i = offset; i < end; i++) items.push({ id: i });
    return { value: items, ...(totalHeader ? { totalItems: count } : {}) };
  };
}

function pages(requests: RecordedRequest[]): [number, number][] {
  return requests.map((r) => {
    const { limit, offset } = r.apiHeaders.resultLimit as { limit: number; offset: number };
    return [limit, offset];
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

void test('chunk is the page size and limit the total: chunk=25 limit=30 asks (25,0) then (5,25)', async () => {
  const { server, client } = await setup({}, guests(1000));
  const items = await collect(
    client.iterCall('Account', 'getVirtualGuests', { chunk: 25, limit: 30 }),
  );
  assert.deepEqual(pages(server.requests), [
    [25, 0],
    [5, 25],
  ]);
  assert.deepEqual(
    items.map((g) => (g as { id: number }).id),
    Array.from({ length: 30 }, (_, i) => i),
  );
});

void test('a start offset shifts every page: offset=12 asks (25,12) then (5,37)', async () => {
  const { server, client } = await setup({}, guests(1000));
  const items = await collect(
    client.iterCall('Account', 'getVirtualGuests', { chunk: 25, limit: 30, offset: 12 }),
  );
  assert.deepEqual(pages(server.requests), [
    [25, 12],
    [5, 37],
  ]);
  assert.equal(items.length, 30);
});

void test('the default page is 100 and paging stops when the total from the header is reached', async () => {
  const { server, client } = await setup({}, guests(200));
  const items = await collect(client.Account.iterCall('getVirtualGuests'));
  assert.equal(items.length, 200);
  assert.deepEqual(pages(server.requests), [
    [100, 0],
    [100, 100],
  ]);
});

void test('a server that caps its pages below chunk: the header says more remain, so paging goes on', async () => {
  const { server, client } = await setup({}, guests(120, { pageCap: 50 }));
  const items = await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 100 }));
  assert.deepEqual(
    items.map((g) => (g as { id: number }).id),
    Array.from({ length: 120 }, (_, i) => i),
  );
  // Each page starts where the items received end.
  assert.deepEqual(pages(server.requests), [
    [100, 0],
    [100, 50],
    [100, 100],
  ]);
});

void test('a capped server with a limit: exactly limit items, no gaps', async () => {
  const { client } = await setup({}, guests(120, { pageCap: 50 }));
  const items = await collect(
    client.iterCall('Account', 'getVirtualGuests', { chunk: 100, limit: 110, offset: 5 }),
  );
  assert.deepEqual(
    items.map((g) => (g as { id: number }).id),
    Array.from({ length: 110 }, (_, i) => i + 5),
  );
});

void test('an empty page ends paging even when the header says more remain', async () => {
  const { server, client } = await setup({}, (request) => {
    const { offset } = request.apiHeaders.resultLimit as { offset: number };
    return { value: offset < 30 ? [{ id: offset }] : [], totalItems: 1000 };
  });
  const items = await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 10 }));
  assert.equal(items.length, 30);
  assert.equal(server.requests.length, 31);
});

void test('without the header paging stops at a short page', async () => {
  const { server, client } = await setup({}, guests(60, { totalHeader: false }));
  const items = await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 25 }));
  assert.equal(items.length, 60);
  assert.deepEqual(pages(server.requests), [
    [25, 0],
    [25, 25],
    [25, 50],
  ]);
});

void test('without the header an exact multiple ends with one empty page', async () => {
  const { server, client } = await setup({}, guests(50, { totalHeader: false }));
  assert.equal(
    (await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 25 }))).length,
    50,
  );
  assert.equal(server.requests.length, 3);
});

void test('a limit below the page size is a single request', async () => {
  const { server, client } = await setup({}, guests(1000));
  assert.equal(
    (await collect(client.iterCall('Account', 'getVirtualGuests', { limit: 10 }))).length,
    10,
  );
  assert.deepEqual(pages(server.requests), [[10, 0]]);
});

void test('pages are fetched as the consumer pulls: stopping early sends no more requests', async () => {
  const { server, client } = await setup({}, guests(1000));
  for await (const guest of client.iterCall('Account', 'getVirtualGuests', { chunk: 10 })) {
    if ((guest as { id: number }).id === 12) break;
  }
  assert.deepEqual(pages(server.requests), [
    [10, 0],
    [10, 10],
  ]);
});

void test('iter: true on a call returns the same paging iterator; filter and mask go on every page', async () => {
  const { server, client } = await setup({}, guests(30));
  const filter = { virtualGuests: { domain: { operation: 'example.com' } } };
  const iterator = client.Account.getVirtualGuests({ iter: true, chunk: 20, mask: 'id', filter });
  assert.equal(typeof iterator[Symbol.asyncIterator], 'function');
  assert.equal((await collect(iterator)).length, 30);
  assert.equal(server.requests.length, 2);
  for (const request of server.requests) {
    assert.deepEqual(request.apiHeaders.Svc_AccountObjectFilter, filter);
    assert.deepEqual(request.apiHeaders.Svc_ObjectMask, { mask: 'mask[id]' });
  }
});

void test('a server that ignores resultLimit and sends everything is read once, up to limit', async () => {
  const everything = Array.from({ length: 30 }, (_, id) => ({ id }));
  const { server, client } = await setup({}, () => ({ value: everything }));
  assert.equal(
    (await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 10 }))).length,
    30,
  );
  assert.equal(
    (await collect(client.iterCall('Account', 'getVirtualGuests', { chunk: 10, limit: 25 })))
      .length,
    25,
  );
  assert.equal(server.requests.length, 2);
});

void test('a result that is not a list is yielded once', async () => {
  const { server, client } = await setup({}, () => ({ value: { id: 5 } }));
  assert.deepEqual(await collect(client.iterCall('Account', 'getObject')), [{ id: 5 }]);
  assert.equal(server.requests.length, 1);
});

void test('chunk <= 0 and bad options throw at once, before any request', async () => {
  const { server, client } = await setup();
  assert.throws(() => client.iterCall('Account', 'getVirtualGuests', { chunk: 0 }), RangeError);
  assert.throws(
    () => client.iterCall('Account', 'getVirtualGuests', { chunk: -5 }),
    /chunk must be an integer >= 1/,
  );
  assert.throws(() => client.Account.getVirtualGuests({ iter: true, chunk: 0 }), RangeError);
  assert.throws(
    () => client.iterCall('Account', 'getVirtualGuests', { pageSize: 5 } as never),
    TypeError,
  );
  assert.equal(server.requests.length, 0);
});

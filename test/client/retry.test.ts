import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  RATE_LIMIT_FAULT,
  SvcAPIError,
  TransportError,
  isSafeToRepeat,
  type RetryInfo,
} from '../../provider/client';
import { setup } from '../support/client-setup';

/** Fast backoff so the tests do not sleep. */
function fastRetry(retries = 4) {
  const seen: RetryInfo[] = [];
  return {
    seen,
    retry: {
      retries,
      minTimeoutMs: 1,
      maxTimeoutMs: 5,
      onRetry: (info: RetryInfo) => seen.push(info),
    },
  };
}

const RATE_LIMITED = {
  fault: {
    faultCode: RATE_LIMIT_FAULT,
    faultString: 'Rate limit of 50 requests for every 1 second(s) exceeded',
  },
};

void test('a read is retried after a 503 and then succeeds; onRetry is told', async () => {
  const { seen, retry } = fastRetry();
  const { server, client } = await setup({ retry });
  server.reply({ status: 503, rawBody: 'busy' }, { value: { id: 1 } });
  assert.deepEqual(await client.Account.getObject(), { id: 1 });
  assert.equal(server.requests.length, 2);
  assert.equal(server.requests[0].body, server.requests[1].body);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].service, 'Svc_Account');
  assert.equal(seen[0].method, 'getObject');
  assert.equal(seen[0].attempt, 1);
  assert.equal(seen[0].retriesLeft, 4);
  assert.ok(seen[0].error instanceof TransportError);
});

void test('reads are retried after a dropped connection, a timeout, 429, 502, 504 and a 500 without a fault', async () => {
  const { seen, retry } = fastRetry(10);
  const { server, client } = await setup({ retry, timeout: 0.2 });
  server.reply(
    { drop: true },
    { hang: true },
    { status: 429, rawBody: '' },
    { status: 502, rawBody: '' },
    { status: 504, rawBody: '' },
    { status: 500, rawBody: 'oops' },
    { value: 'ok' },
  );
  assert.equal(await client.Virtual_Guest.getObject({ id: 1 }), 'ok');
  assert.equal(server.requests.length, 7);
  assert.equal(seen.length, 6);
});

void test('createObject is not retried after a dropped connection, nor after a 503', async () => {
  const { seen, retry } = fastRetry();
  const { server, client } = await setup({ retry });
  server.reply({ drop: true }, { status: 503, rawBody: '' }, { value: 'never reached' });
  await assert.rejects(
    client.Virtual_Guest.createObject({ args: [{ hostname: 'a' }] }),
    TransportError,
  );
  await assert.rejects(client.Virtual_Guest.createObject({ args: [{ hostname: 'a' }] }), /503/);
  assert.equal(server.requests.length, 2);
  assert.equal(seen.length, 0);
});

void test('the rate-limit fault is retried for any method, createObject included', async () => {
  const { seen, retry } = fastRetry();
  const { server, client } = await setup({ retry });
  server.reply(
    RATE_LIMITED,
    { value: { id: 9 } },
    { status: 500, ...RATE_LIMITED },
    { value: { id: 10 } },
  );
  assert.deepEqual(await client.Virtual_Guest.createObject({ args: [{ hostname: 'a' }] }), {
    id: 9,
  });
  assert.deepEqual(await client.Product_Order.placeOrder({ args: [{}] }), { id: 10 });
  assert.equal(server.requests.length, 4);
  assert.equal(seen.length, 2);
});

void test('other faults are not retried, even for reads', async () => {
  const { seen, retry } = fastRetry();
  const { server, client } = await setup({ retry });
  server.reply(
    { fault: { faultCode: 'Svc_Exception_ObjectNotFound', faultString: 'gone' } },
    { status: 500, fault: { faultCode: '-32603', faultString: 'Internal Error' } },
  );
  await assert.rejects(client.Virtual_Guest.getObject({ id: 1 }), SvcAPIError);
  await assert.rejects(client.Virtual_Guest.getObject({ id: 1 }), SvcAPIError);
  assert.equal(server.requests.length, 2);
  assert.equal(seen.length, 0);
});

void test('after the last retry the error comes through; retry: false makes one attempt', async () => {
  const { seen, retry } = fastRetry(2);
  const { server, client } = await setup({ retry });
  server.handle(() => ({ status: 503, rawBody: '' }));
  await assert.rejects(client.Account.getObject(), /503/);
  assert.equal(server.requests.length, 3);
  assert.deepEqual(
    seen.map((info) => info.retriesLeft),
    [2, 1],
  );
  const { server: single, client: once } = await setup({ retry: false });
  single.handle(() => ({ status: 503, rawBody: '' }));
  await assert.rejects(once.Account.getObject(), /503/);
  assert.equal(single.requests.length, 1);
});

void test('retry options are checked', async () => {
  await assert.rejects(
    async () => setup({ retry: { retries: -1 } }),
    /retry.retries must be a number >= 0/,
  );
});

void test('which methods are safe to repeat', () => {
  for (const method of [
    'getObject',
    'getVirtualGuests',
    'findByIpAddress',
    'listThings',
    'verifyOrder',
    'generateOrderTemplate',
    'isPingable',
    'countHosts',
    'get',
    'getPortalLoginToken',
  ]) {
    assert.equal(isSafeToRepeat(method), true, method);
  }
  for (const method of [
    'createObject',
    'createObjects',
    'placeOrder',
    'editObject',
    'editObjects',
    'deleteObject',
    'setTags',
    'addUpdate',
    'createStandardTicket',
    'cancelService',
    'powerOn',
    'powerOff',
    'setUserMetadata',
    'addNote',
    'rebootSoft',
    'reloadOperatingSystem',
    'isolate',
    'gettysburg',
  ]) {
    assert.equal(isSafeToRepeat(method), false, method);
  }
});

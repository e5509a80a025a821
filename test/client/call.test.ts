import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { Client, type CallOptions, type ClientOptions } from '../../provider/client';
import { USERNAME, API_KEY, setup } from '../support/client-setup';

void test('a call goes to <endpoint>/Svc_<Service> with the method name and auth in the headers struct', async () => {
  const { server, client } = await setup();
  server.reply({ value: { companyName: 'Acme' } });
  const account = await client.Account.getObject();
  assert.deepEqual(account, { companyName: 'Acme' });
  const [request] = server.requests;
  assert.equal(request.path, '/xmlrpc/v3.1/Svc_Account');
  assert.equal(request.methodName, 'getObject');
  assert.deepEqual(request.apiHeaders, { authenticate: { username: USERNAME, apiKey: API_KEY } });
  assert.deepEqual(request.args, []);
});

void test('every way of naming a service reaches the same URL, and the service objects are cached', async () => {
  const { server, client } = await setup();
  assert.equal(client.Virtual_Guest, client.service('Virtual_Guest'));
  assert.equal(client['Virtual_Guest'], client.service('Svc_Virtual_Guest'));
  await client.Virtual_Guest.getObject({ id: 1 });
  await client.service('Svc_Virtual_Guest').call('getObject', { id: 1 });
  await client.call('Virtual_Guest', 'getObject', { id: 1 });
  await client.call('Svc_Virtual_Guest', 'getObject', { id: 1 });
  assert.deepEqual(
    server.requests.map((r) => r.path),
    Array(4).fill('/xmlrpc/v3.1/Svc_Virtual_Guest'),
  );
  assert.equal(client.Account.name, 'Svc_Account');
});

void test('any method name works through the service proxy, with positional args in args', async () => {
  const { server, client } = await setup();
  const template = {
    hostname: 'web1',
    domain: 'example.com',
    startCpus: 1,
    hourlyBillingFlag: 'true',
  };
  await client.Virtual_Guest.createObject({ args: [template] });
  await client.Ticket.addUpdate({ id: 7, args: [{ entry: 'hello' }] });
  await client.Dns_Domain.someBrandNewMethod({ args: ['a', 2, null, [true]] });
  assert.deepEqual(
    server.requests.map((r) => [r.methodName, r.args]),
    [
      ['createObject', [template]],
      ['addUpdate', [{ entry: 'hello' }]],
      ['someBrandNewMethod', ['a', 2, null, [true]]],
    ],
  );
  assert.deepEqual(server.requests[1].apiHeaders.Svc_TicketInitParameters, { id: 7 });
});

void test('id, mask, filter, limit and offset become the headers the API reads', async () => {
  const { server, client } = await setup();
  const filter = { virtualGuests: { domain: { operation: '_= example.com' } } };
  await client.Account.getVirtualGuests({ mask: 'id, hostname', filter, limit: 10 });
  await client.Account.getVirtualGuests({ limit: 10, offset: 10 });
  await client.Virtual_Guest.getObject({ id: 42, mask: 'mask[id,datacenter.name]' });
  const [first, second, third] = server.requests.map((r) => r.apiHeaders);
  assert.deepEqual(first.Svc_ObjectMask, { mask: 'mask[id, hostname]' });
  assert.deepEqual(first.Svc_AccountObjectFilter, filter);
  assert.deepEqual(first.resultLimit, { limit: 10, offset: 0 });
  assert.deepEqual(second.resultLimit, { limit: 10, offset: 10 });
  assert.equal(second.Svc_ObjectMask, undefined);
  assert.deepEqual(third.Svc_Virtual_GuestInitParameters, { id: 42 });
  assert.deepEqual(third.Svc_ObjectMask, { mask: 'mask[id,datacenter.name]' });
});

void test('a struct mask goes under Svc_<Service>ObjectMask', async () => {
  const { server, client } = await setup();
  await client.Account.getObject({ mask: { ipAddresses: {} } });
  assert.deepEqual(server.requests[0].apiHeaders.Svc_AccountObjectMask, {
    mask: { ipAddresses: {} },
  });
  assert.equal(server.requests[0].apiHeaders.Svc_ObjectMask, undefined);
});

void test('per-call headers are merged for that call only and the caller object is not changed', async () => {
  const { server, client } = await setup();
  const headers = { Svc_Trace: { id: 'abc' } };
  await client.Account.getObject({ headers });
  await client.Account.getObject();
  assert.deepEqual(server.requests[0].apiHeaders.Svc_Trace, { id: 'abc' });
  assert.equal('Svc_Trace' in server.requests[1].apiHeaders, false);
  assert.deepEqual(headers, { Svc_Trace: { id: 'abc' } });
});

void test('per-call headers may replace authenticate (they are merged after auth)', async () => {
  const { server, client } = await setup();
  await client.Account.getObject({
    headers: { authenticate: { username: 'bob', apiKey: 'other' } },
  });
  assert.deepEqual(server.requests[0].apiHeaders.authenticate, {
    username: 'bob',
    apiKey: 'other',
  });
});

void test('an unknown option is a TypeError naming it, and nothing is sent', async () => {
  const { server, client } = await setup();
  await assert.rejects(
    client.Account.getObject({ mask: 'id', filters: {} } as CallOptions),
    (err: Error) => {
      assert.ok(err instanceof TypeError);
      assert.match(err.message, /Svc_Account::getObject: unknown option 'filters'/);
      return true;
    },
  );
  await assert.rejects(
    client.Account.getObject({ raw_headers: {} } as CallOptions),
    /unknown option 'raw_headers'/,
  );
  assert.equal(server.requests.length, 0);
});

void test('an unknown Client option is a TypeError naming it', () => {
  assert.throws(
    () => new Client({ api_key: 'x' } as unknown as ClientOptions),
    /Client: unknown option 'api_key'/,
  );
});

void test('option values are checked: offset needs limit, limit >= 1, chunk only when paging', async () => {
  const { server, client } = await setup();
  await assert.rejects(client.Account.getVirtualGuests({ offset: 10 }), (err: Error) => {
    assert.ok(err instanceof TypeError);
    assert.match(err.message, /offset needs limit/);
    return true;
  });
  await assert.rejects(client.Account.getVirtualGuests({ limit: 0 }), RangeError);
  await assert.rejects(client.Account.getVirtualGuests({ limit: 2.5 }), RangeError);
  await assert.rejects(
    client.Account.getVirtualGuests({ chunk: 10 }),
    /chunk is the page size of iterCall/,
  );
  await assert.rejects(
    client.Account.getObject({ args: 'x' } as unknown as CallOptions),
    /args must be an array/,
  );
  await assert.rejects(
    client.Account.getObject({ rawHeaders: { a: 1 } } as unknown as CallOptions),
    /rawHeaders must be/,
  );
  assert.equal(server.requests.length, 0);
});

void test('a list result is a plain array with a non-enumerable totalCount from Svc-Total-Items', async () => {
  const { server, client } = await setup();
  server.reply({ value: [{ id: 1 }, { id: 2 }], totalItems: 57 }, { value: [{ id: 3 }] });
  const withHeader = await client.Account.getVirtualGuests<
    { id: number }[] & { totalCount?: number }
  >();
  const without = await client.Account.getVirtualGuests<
    { id: number }[] & { totalCount?: number }
  >();
  assert.deepEqual(withHeader, [{ id: 1 }, { id: 2 }]);
  assert.equal(withHeader.totalCount, 57);
  assert.equal(without.totalCount, undefined);
  assert.ok(Array.isArray(withHeader));
  assert.deepEqual(Object.keys(withHeader), ['0', '1']);
  assert.equal(JSON.stringify(withHeader), '[{"id":1},{"id":2}]');
});

void test('the total-items header is read whatever its case', async () => {
  const { server, client } = await setup();
  server.reply({ value: [1], headers: { 'SVC-TOTAL-ITEMS': '9' } });
  const result = await client.Account.getTickets<number[] & { totalCount?: number }>();
  assert.equal(result.totalCount, 9);
});

void test('probing the client and services (await, inspect, JSON, symbols, constructor) sends nothing', async () => {
  const { server, client } = await setup();
  const service = await client.Account;
  assert.equal(service, client.Account);
  assert.equal(await client, client);
  const probe = service as unknown as Record<string | symbol, unknown>;
  for (const name of ['then', 'catch', 'inspect', 'asymmetricMatch', '_private', '$$typeof']) {
    assert.equal(probe[name], undefined, name);
  }
  assert.equal(typeof probe.constructor, 'function');
  assert.equal(probe[Symbol.iterator], undefined);
  assert.equal(inspect(service), 'Service(Svc_Account)');
  assert.equal(JSON.stringify(service), '{"service":"Svc_Account"}');
  assert.equal(String(service), 'Service(Svc_Account)');
  const clientProbe = client as unknown as Record<string, unknown>;
  assert.equal(clientProbe.then, undefined);
  assert.equal(clientProbe.account, undefined, 'lower-case names are not services');
  inspect(client);
  JSON.stringify(client);
  assert.equal(server.requests.length, 0);
});

void test('service.call, service.<method> and client.call are the same call', async () => {
  const { server, client } = await setup();
  await client.Account.call('getObject', { mask: 'id' });
  await client.Account.getObject({ mask: 'id' });
  await client.call('Account', 'getObject', { mask: 'id' });
  const [a, b, c] = server.requests;
  assert.equal(a.body, b.body);
  assert.equal(b.body, c.body);
});

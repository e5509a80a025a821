/**
 * The client against the emulator: two independent implementations of the wire format (the
 * emulator does not use the client's codec) agreeing on masks, filters, paging, token auth and
 * faults.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import {
  Client,
  MethodNotFound,
  RATE_LIMIT_FAULT,
  SvcAPIError,
  TokenAuth,
  nestedFilter,
  queryFilter,
  type ClientOptions,
  type ListResult,
  type RetryInfo,
} from '../../provider/client';
import { EMPTY_SETTINGS } from '../support/client-setup';

interface Guest {
  id: number;
  hostname: string;
  domain: string;
}

const GUESTS = 250;

void describe('client against the emulator', () => {
  let emulator: EmulatorHandle;
  let client: Client;
  const connect = (options: ClientOptions = {}) =>
    new Client({
      ...emulator.credentials,
      endpointUrl: emulator.url,
      configFile: EMPTY_SETTINGS,
      ...options,
    });

  before(async () => {
    emulator = await startEmulator({ provisioningDelayMs: 0 });
    await emulator.populate(emulator.credentials.username, GUESTS);
    client = connect();
  });
  after(() => emulator.close());

  void it('getObject honours both mask spellings', async () => {
    const bare = await client.Account.getObject({ mask: 'id,companyName' });
    const wrapped = await client.Account.getObject({ mask: 'mask[id,companyName]' });
    assert.deepEqual(bare, { id: 318001, companyName: 'Svc Demo Company' });
    assert.deepEqual(wrapped, bare);
    const withRelation = await client.Account.getObject<{ ipAddresses: unknown[] }>({
      mask: 'id, ipAddresses',
    });
    assert.ok(Array.isArray(withRelation.ipAddresses) && withRelation.ipAddresses.length > 0);
  });

  void it('getVirtualGuests with a filter and limit reports the total count', async () => {
    const filter = nestedFilter('virtualGuests.domain', queryFilter('pool3.example.net'));
    const page = await client.Account.getVirtualGuests<ListResult<Guest>>({
      mask: 'id,hostname,domain',
      filter,
      limit: 10,
    });
    assert.equal(page.length, 10);
    assert.equal(page.totalCount, GUESTS / 10);
    assert.ok(page.every((guest) => guest.domain === 'pool3.example.net'));
  });

  void it('iterCall pages through every guest exactly once', async () => {
    const seen = new Set<number>();
    let requests = 0;
    const counting = connect({ onRequest: () => requests++ });
    for await (const guest of counting.iterCall<Guest>('Account', 'getVirtualGuests', {
      chunk: 40,
      mask: 'id,hostname',
    })) {
      assert.ok(!seen.has(guest.id), `guest ${guest.id} twice`);
      seen.add(guest.id);
    }
    assert.equal(seen.size, GUESTS);
    assert.equal(requests, Math.ceil(GUESTS / 40));
    const filtered = counting.iterCall<Guest>('Account', 'getVirtualGuests', {
      chunk: 7,
      limit: 20,
      filter: nestedFilter('virtualGuests.domain', queryFilter('*pool1*')),
    });
    const domains = [];
    for await (const guest of filtered) domains.push(guest.domain);
    assert.equal(domains.length, 20);
    assert.ok(domains.every((domain) => domain === 'pool1.example.net'));
  });

  void it('authenticateWithPassword gives a token another client can use', async () => {
    const anonymous = new Client({ endpointUrl: emulator.url, configFile: EMPTY_SETTINGS });
    const { demo, demoOps } = emulator.accounts;
    const token = await anonymous.authenticateWithPassword(demo.username, demo.password!);
    assert.ok(token instanceof TokenAuth);
    assert.equal(token.userId, demo.userId);
    const viaToken = new Client({
      auth: token,
      endpointUrl: emulator.url,
      configFile: EMPTY_SETTINGS,
    });
    assert.deepEqual(await viaToken.Account.getObject({ mask: 'companyName' }), {
      companyName: demo.companyName,
    });

    const question = demoOps.securityQuestion!;
    const opsToken = await anonymous.authenticateWithPassword(
      demoOps.username,
      demoOps.password!,
      question.id,
      question.answer,
    );
    assert.equal(opsToken.userId, demoOps.userId);
    await assert.rejects(
      anonymous.authenticateWithPassword(demo.username, 'wrong-password'),
      SvcAPIError,
    );
  });

  void it('faults come back as the matching error classes', async () => {
    await assert.rejects(client.Virtual_Guest.getObject({ id: 999_999 }), (err: SvcAPIError) => {
      assert.equal(err.faultCode, 'Svc_Exception_ObjectNotFound');
      return true;
    });
    await assert.rejects(client.Virtual_Guest.noSuchMethod(), MethodNotFound);
    await assert.rejects(client.service('No_Such_Service').getObject(), MethodNotFound);
    const wrongKey = connect({ apiKey: 'not-the-key' });
    await assert.rejects(wrongKey.Account.getObject(), (err: SvcAPIError) => {
      assert.equal(err.faultCode, 'Svc_Exception_Public');
      assert.ok(!err.message.includes('not-the-key'));
      return true;
    });
  });

  void it('injected rate-limit faults and HTTP 500s are retried; a dropped create is not', async () => {
    const retries: RetryInfo[] = [];
    const retrying = connect({
      retry: { minTimeoutMs: 1, maxTimeoutMs: 5, onRetry: (info) => retries.push(info) },
    });
    emulator.setFaults({
      once: [
        { service: 'Account', method: 'getObject', fault: 'rate-limit' },
        { service: 'Account', method: 'getObject', fault: 'http-500' },
      ],
    });
    assert.deepEqual(await retrying.Account.getObject({ mask: 'id' }), { id: 318001 });
    assert.equal(retries.length, 2);
    assert.equal((retries[0].error as SvcAPIError).faultCode, RATE_LIMIT_FAULT);

    emulator.setFaults({
      once: { service: 'Ticket', method: 'createStandardTicket', fault: 'drop' },
    });
    const ticketsBefore = emulator.objects(emulator.credentials.username).tickets.length;
    assert.ok(ticketsBefore > 0);
    await assert.rejects(
      retrying.Ticket.createStandardTicket({
        args: [{ title: 'no retry', subjectId: 1001 }, 'body'],
      }),
      /TransportError/,
    );
    assert.equal(retries.length, 2, 'the create was not retried');
    assert.equal(emulator.objects(emulator.credentials.username).tickets.length, ticketsBefore);
    emulator.setFaults(null);
  });
});

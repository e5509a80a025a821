import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { dnsRecordProvider as dns } from '../../provider/kinds/dns-record/provider';
import { ticketUpdateProvider as tickets } from '../../provider/kinds/ticket-update/provider';
import type { DnsZone, Ticket, TicketUpdateRecord } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';

type Bag = Record<string, unknown>;

describe('DnsRecord and TicketUpdate providers against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv()));
  after(() => emulator?.close());

  const zone = async () =>
    (
      (await client.call('Dns_Domain', 'getByDomainName', {
        args: ['example.com'],
        mask: 'id,resourceRecords[id,host,type,data,ttl]',
      })) as DnsZone[]
    )[0];

  it('DnsRecord check names bad fields', async () => {
    const result = await dns.check(
      {},
      { zoneName: 'example.com', zoneId: 1, host: 'a b', type: 'A', data: '300.1.1.1', ttl: 5 },
    );
    const byField = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byField.zoneId, /set exactly one of zoneId and zoneName/);
    assert.match(byField.host, /host "a b" must be @, \* or a relative DNS name/);
    assert.match(byField.data, /must be an IPv4 address for an A record/);
    assert.match(byField.ttl, /ttl must be between 60 and 604800, got 5/);
    const type = await dns.check(
      {},
      { zoneName: 'example.com', host: 'www', type: 'BOGUS', data: 'x' },
    );
    assert.match(type.failures?.[0]?.reason ?? '', /type "BOGUS" is not a supported record type/);
  });

  it('DnsRecord create, diff, update, read and delete', async () => {
    const checked = (
      await dns.check({}, { zoneName: 'example.com', host: 'api', type: 'a', data: '10.0.0.5' })
    ).inputs as Bag;
    assert.equal(checked.type, 'A');
    assert.equal(checked.ttl, 900);
    const { id, outs } = await dns.create(checked);
    assert.ok(
      (await zone()).resourceRecords?.some(
        (r) => String(r.id) === id && r.host === 'api' && r.data === '10.0.0.5',
      ),
    );
    assert.deepEqual(
      await dns.diff(id, outs!, { ...checked, data: '10.0.0.6' }),
      { replaces: [], fields: [{ name: 'data', kind: 'update', replace: false }] },
      'an in-place change is left for the engine to diff, so replaceOnChanges applies',
    );
    assert.deepEqual(await dns.diff(id, outs!, checked), { changes: false });
    assert.deepEqual((await dns.diff(id, outs!, { ...checked, type: 'AAAA' })).replaces, ['type']);
    const updated = await dns.update(id, outs!, { ...checked, data: '10.0.0.6', ttl: 300 });
    assert.equal((updated.outs as Bag).data, '10.0.0.6');
    const read = await dns.read(id, updated.outs);
    assert.equal((read.props as Bag).ttl, 300);
    // Of the plugin schema's types (the type one of its RecordType enum), as SDKs decode them.
    for (const props of [outs, updated.outs, read.props])
      assert.deepEqual(outputProblems('DnsRecord', props as Bag), []);
    await dns.delete(id, updated.outs as Bag);
    assert.ok(!(await zone()).resourceRecords?.some((r) => String(r.id) === id));
    assert.deepEqual(await dns.read(id, updated.outs), {});
  });

  it('TicketUpdate adds an update, reads it back, replaces on a new entry, and delete only forgets it', async () => {
    const [ticket] = (await client.call('Account', 'getTickets', {
      mask: 'id',
      limit: 1,
    })) as Ticket[];
    const bad = await tickets.check({}, { ticketId: 0, entry: '' });
    assert.deepEqual((bad.failures ?? []).map((f) => f.property).sort(), ['entry', 'ticketId']);
    const inputs = { ticketId: ticket.id, entry: 'Rolled out build 42' };
    const { id, outs } = await tickets.create((await tickets.check({}, inputs)).inputs!);
    const updates = (await client.call('Ticket', 'getUpdates', {
      id: ticket.id,
    })) as TicketUpdateRecord[];
    assert.ok(updates.some((u) => String(u.id) === id && u.entry === 'Rolled out build 42'));
    assert.equal((await tickets.read(id, outs)).id, id);
    assert.deepEqual(outputProblems('TicketUpdate', outs as Bag), []);
    assert.deepEqual(
      (await tickets.diff(id, outs!, { ...inputs, entry: 'Rolled out build 43' })).replaces,
      ['entry'],
    );
    await tickets.delete(id, outs as Bag);
    const after = (await client.call('Ticket', 'getUpdates', {
      id: ticket.id,
    })) as TicketUpdateRecord[];
    assert.equal(after.length, updates.length, 'updates are never deleted');
  });
});

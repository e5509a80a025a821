import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { dnsZoneProvider as provider } from '../../provider/kinds/dns-zone/provider';
import type { DnsResourceRecord, DnsZone } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';

type Bag = Record<string, unknown>;

describe('DnsZone provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv()));
  after(() => emulator?.close());

  const records = async (zoneId: number) =>
    (
      (await client.call('Dns_Domain', 'getResourceRecords', {
        id: zoneId,
        mask: 'id,host,type,data,ttl',
      })) as DnsResourceRecord[]
    ).map((r) => `${r.host} ${r.type} ${r.data} ${r.ttl}`);

  const zoneNamed = async (name: string) =>
    ((await client.call('Dns_Domain', 'getByDomainName', { args: [name] })) as DnsZone[])[0];

  it('check names a bad name and each bad record field, and normalises the rest', async () => {
    const bad = await provider.check(
      {},
      {
        name: 'no_dots',
        forceDelete: 'yes',
        records: [{ host: 'www', type: 'A', data: '300.1.1.1' }, 'x'],
      },
    );
    const byField = Object.fromEntries((bad.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byField.name, /name "no_dots" must be a domain name/);
    assert.match(byField.forceDelete, /forceDelete must be true or false/);
    assert.match(
      byField['records[0].data'],
      /^records\[0\]\.data "300\.1\.1\.1" must be an IPv4 address/,
    );
    assert.match(byField['records[1]'], /must be an object/);
    assert.equal(byField['records[0].zoneName'], undefined, 'the zone name is reported once');
    const good = await provider.check(
      {},
      { name: 'Zone-One.Test.', records: [{ host: '@', type: 'mx', data: 'mx.zone-one.test.' }] },
    );
    assert.deepEqual(good.failures, []);
    assert.equal((good.inputs as Bag).name, 'zone-one.test');
    assert.deepEqual((good.inputs as Bag).records, [
      { host: '@', type: 'MX', data: 'mx.zone-one.test.', ttl: 900 },
    ]);
  });

  it('a zone the account already has fails in check with its id, unless adopted by that id', async () => {
    const seeded = await zoneNamed('example.com');
    const dup = await provider.check({}, { name: 'example.com' });
    assert.equal(dup.failures![0].property, 'name');
    assert.match(
      dup.failures![0].reason,
      new RegExp(
        `already has a zone named example.com \\(id ${seeded.id}\\).*adoptId: '${seeded.id}'`,
      ),
    );
    assert.deepEqual(
      (await provider.check({}, { name: 'example.com', adoptId: seeded.id })).failures,
      [],
    );
    const wrong = await provider.check({}, { name: 'new-one.test', adoptId: seeded.id });
    assert.match(wrong.failures![0].reason, /adoptId: the account has no zone new-one.test/);
  });

  it('creates the zone with its records, keeps them as declared in place, and deletes what it owns', async () => {
    const declared = {
      name: 'owned.test',
      records: [
        { host: 'www', type: 'A', data: '192.0.2.10' },
        { host: 'mail', type: 'A', data: '192.0.2.11', ttl: 300 },
      ],
    };
    const checked = (await provider.check({}, declared)).inputs!;
    const { id, outs } = await provider.create(checked);
    const zoneId = Number(id);
    assert.equal(outs!.zoneId, zoneId);
    assert.deepEqual(await records(zoneId), ['www a 192.0.2.10 900', 'mail a 192.0.2.11 300']);
    assert.equal((outs!.recordIds as number[]).length, 2);
    assert.deepEqual(outputProblems('DnsZone', outs!), [], "of the plugin schema's types");
    assert.deepEqual(
      (await provider.check(outs!, declared)).failures,
      [],
      'its own zone is no duplicate',
    );

    const changed = (
      await provider.check(outs!, {
        ...declared,
        records: [
          { host: 'mail', type: 'A', data: '192.0.2.11', ttl: 600 },
          { host: 'api', type: 'A', data: '192.0.2.12' },
        ],
      })
    ).inputs!;
    // An in-place change, as for every kind: no replace, and `changes` left to the engine's own
    // comparison of the inputs (which `ignoreChanges` and `--diff` work on).
    assert.deepEqual(await provider.diff(id, outs!, changed), {
      replaces: [],
      fields: [{ name: 'records', kind: 'update', replace: false }],
    });
    assert.deepEqual(await provider.diff(id, outs!, outs!), { changes: false });
    assert.deepEqual(
      (await provider.diff(id, outs!, { ...changed, name: 'moved.test' })).replaces,
      ['name'],
    );
    const mailId = (outs!.recordIds as number[])[1];
    const updated = (await provider.update(id, outs!, changed)).outs!;
    assert.deepEqual((await records(zoneId)).sort(), [
      'api a 192.0.2.12 900',
      'mail a 192.0.2.11 600',
    ]);
    assert.equal((updated.recordIds as number[])[0], mailId, 'the kept record keeps its id');

    // A record deleted behind Pulumi drops out on refresh; the next update makes it again.
    await client.call('Dns_Domain_ResourceRecord', 'deleteObject', {
      id: (updated.recordIds as number[])[1],
    });
    const read = (await provider.read(id, updated)).props as Bag;
    assert.deepEqual(read.records, [(changed.records as Bag[])[0]]);
    assert.deepEqual(await provider.diff(id, read, changed), {
      replaces: [],
      fields: [{ name: 'records', kind: 'update', replace: false }],
    });
    const repaired = (await provider.update(id, read, changed)).outs!;
    assert.deepEqual((await records(zoneId)).sort(), [
      'api a 192.0.2.12 900',
      'mail a 192.0.2.11 600',
    ]);

    await provider.delete(id, repaired);
    assert.equal(await zoneNamed('owned.test'), undefined);
    assert.deepEqual(await provider.read(id, repaired), {}, 'a deleted zone leaves the stack');
  });

  it('a lost createObject response: the zone is found by its name, not created twice', async () => {
    const checked = (
      await provider.check(
        {},
        { name: 'lost.test', records: [{ host: 'www', type: 'A', data: '192.0.2.40' }] },
      )
    ).inputs!;
    emulator.setFaults({
      once: { service: 'Dns_Domain', method: 'createObject', fault: 'lose-response' },
    });
    const { id, outs } = await provider.create(checked);
    const zone = await zoneNamed('lost.test');
    assert.equal(String(zone.id), id);
    assert.deepEqual(await records(zone.id), ['www a 192.0.2.40 900']);
    assert.equal((outs!.recordIds as number[]).length, 1);
    await provider.delete(id, outs!);
  });

  it('refuses to delete a zone holding records the stack does not own, unless forceDelete', async () => {
    const checked = (
      await provider.check(
        {},
        { name: 'shared.test', records: [{ host: 'www', type: 'A', data: '192.0.2.20' }] },
      )
    ).inputs!;
    const { id, outs } = await provider.create(checked);
    const foreign = (await client.call('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ domainId: Number(id), host: 'by-hand', type: 'A', data: '192.0.2.21', ttl: 60 }],
    })) as DnsResourceRecord;
    await assert.rejects(
      provider.delete(id, outs!),
      new RegExp(
        `DnsZone shared.test \\(id ${id}\\) still has 1 record\\(s\\) this stack does not own: by-hand A 192.0.2.21 \\(id ${foreign.id}\\).*forceDelete: true`,
      ),
    );
    assert.ok(await zoneNamed('shared.test'), 'the zone is still there');
    const forced = (
      await provider.check(outs!, {
        name: 'shared.test',
        records: checked.records,
        forceDelete: true,
      })
    ).inputs!;
    const diff = await provider.diff(id, outs!, forced);
    assert.deepEqual(
      diff,
      { replaces: [], fields: [{ name: 'forceDelete', kind: 'add', replace: false }] },
      'forceDelete changes in place',
    );
    const updated = (await provider.update(id, outs!, forced)).outs!;
    await provider.delete(id, updated);
    assert.equal(await zoneNamed('shared.test'), undefined);
  });

  it('an adopted zone keeps the records it did not declare, and its delete is refused for them', async () => {
    const zone = (await client.call('Dns_Domain', 'createObject', {
      args: [
        {
          name: 'adopted.test',
          resourceRecords: [
            { host: 'www', type: 'a', data: '192.0.2.30', ttl: 900 },
            { host: 'old', type: 'a', data: '192.0.2.31', ttl: 900 },
          ],
        },
      ],
    })) as DnsZone;
    const checked = (
      await provider.check(
        {},
        {
          name: 'adopted.test',
          adoptId: String(zone.id),
          records: [{ host: 'www', type: 'A', data: '192.0.2.30' }],
        },
      )
    ).inputs!;
    const { id, outs } = await provider.create(checked);
    assert.equal(id, String(zone.id));
    assert.deepEqual(
      (await records(zone.id)).sort(),
      ['old a 192.0.2.31 900', 'www a 192.0.2.30 900'],
      'the declared record was taken, not doubled',
    );
    await assert.rejects(
      provider.delete(id, outs!),
      /1 record\(s\) this stack does not own: old A 192\.0\.2\.31/,
    );
  });
});

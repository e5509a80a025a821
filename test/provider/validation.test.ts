/**
 * Wrong inputs get one clear failure per field from `check` (naming the field, the rule and what
 * was given, with its type), and lookups a ValidationError, before any call reaches the API.
 */
import type * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { dnsRecordProvider } from '../../provider/kinds/dns-record/provider';
import { ticketUpdateProvider } from '../../provider/kinds/ticket-update/provider';
import { LIMITS, ValidationError } from '../../provider/framework/failures';
import { virtualGuestProvider } from '../../provider/kinds/virtual-guest/provider';
import {
  getAccount,
  getDatacenters,
  getDnsZone,
  getIpAddresses,
  getTickets,
  getVirtualGuests,
} from '../../resources';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;

const guest: Bag = {
  resourceName: 'web',
  identity: 'proj/dev/web',
  domain: 'valid.example.com',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
};
const record: Bag = { zoneName: 'example.com', host: 'www', type: 'A', data: '10.0.0.1' };
const update: Bag = { ticketId: 1, entry: 'Rolled out' };

/** The failures of a check, as `property -> reason`; asserts there is at most one per field. */
async function failuresOf(
  check: (olds: Bag, news: Bag) => Promise<pulumi.dynamic.CheckResult>,
  news: Bag,
): Promise<Record<string, string>> {
  const { failures = [] } = await check({}, news);
  const properties = failures.map((f) => f.property);
  assert.equal(new Set(properties).size, properties.length, `one per field: ${properties}`);
  return Object.fromEntries(failures.map((f) => [f.property, f.reason]));
}

describe('input validation', () => {
  let emulator: Emulator;
  let calls = 0;
  const callsNow = () => Object.values(emulator.stats().calls).reduce((sum, n) => sum + n, 0);
  before(async () => {
    ({ emulator } = await providerEnv());
    setProgramConfig(emulator);
  });
  after(() => emulator?.close());
  beforeEach(() => (calls = callsNow()));
  const noCall = () => assert.equal(callsNow(), calls, 'no call reached the emulator');

  it('VirtualGuest: a string for a list is a clear failure, not a TypeError', async () => {
    const tags = await failuresOf(virtualGuestProvider.check, { ...guest, tags: 'web' });
    assert.deepEqual(Object.keys(tags), ['tags']);
    assert.equal(tags.tags, 'tags must be a list of strings, got "web" (a string)');
    const ssh = await failuresOf(virtualGuestProvider.check, { ...guest, sshKeyIds: '1,2' });
    assert.equal(
      ssh.sshKeyIds,
      'sshKeyIds must be a list of SSH key ids (integers), got "1,2" (a string)',
    );
    // Digit strings are ids (an SshKey's id output is a string); anything else is not.
    const item = await failuresOf(virtualGuestProvider.check, { ...guest, sshKeyIds: [1, 'two'] });
    assert.equal(
      item.sshKeyIds,
      'sshKeyIds[1] must be an integer id of at least 1, got "two" (a string)',
    );
    noCall();
  });

  it('VirtualGuest: NaN and Infinity are named as such, not "null"', async () => {
    const byField = await failuresOf(virtualGuestProvider.check, {
      ...guest,
      startCpus: Number.NaN,
      maxMemory: Number.POSITIVE_INFINITY,
      readyTimeoutMinutes: Number.NEGATIVE_INFINITY,
    });
    assert.equal(byField.startCpus, 'startCpus must be an integer, got NaN (a number)');
    assert.equal(byField.maxMemory, 'maxMemory must be an integer, got Infinity (a number)');
    assert.equal(
      byField.readyTimeoutMinutes,
      'readyTimeoutMinutes must be a number, got -Infinity (a number)',
    );
    for (const reason of Object.values(byField)) assert.doesNotMatch(reason, /null/);
    noCall();
  });

  it('VirtualGuest: a non-string hostname is reported once, with its type', async () => {
    for (const hostname of [42, ['web'], { name: 'web' }, true]) {
      const { failures = [] } = await virtualGuestProvider.check({}, { ...guest, hostname });
      assert.deepEqual(
        failures.map((f) => f.property),
        ['hostname'],
      );
      assert.match(
        failures[0].reason,
        /^hostname must be a string, got .*(number|array|object|boolean)/,
      );
    }
    noCall();
  });

  it('VirtualGuest: control characters in notes and userData fail check, not the order', async () => {
    const byField = await failuresOf(virtualGuestProvider.check, {
      ...guest,
      notes: 'line one\u0007bell',
      userData: '#cloud-config\n\u0000',
      hostname: 'we\u001bb',
    });
    assert.equal(
      byField.notes,
      'notes must not contain control characters (only tab, newline and carriage return are allowed), got U+0007 at position 8',
    );
    assert.match(
      byField.userData,
      /^userData must not contain control characters.*U\+0000 at position 14/,
    );
    assert.match(byField.hostname, /U\+001B at position 2/);
    noCall();
    // Tab, newline, carriage return and non-ASCII text are fine (this one goes on to the catalog).
    const fine = await failuresOf(virtualGuestProvider.check, {
      ...guest,
      notes: 'tab\there\r\nnext line, ünïcode ✓',
    });
    assert.deepEqual(fine, {});
  });

  it('VirtualGuest: sizes are limited (tags, tag length, ssh keys, notes, user data)', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `tag-${i}`);
    const byField = await failuresOf(virtualGuestProvider.check, {
      ...guest,
      tags: many,
      sshKeyIds: Array.from({ length: LIMITS.sshKeyIds + 1 }, (_, i) => i + 1),
      notes: 'n'.repeat(LIMITS.notes + 1),
      userData: 'u'.repeat(LIMITS.userData + 1),
    });
    assert.equal(byField.tags, `tags must have at most ${LIMITS.tags} items, got 100000`);
    assert.equal(
      byField.sshKeyIds,
      `sshKeyIds must have at most ${LIMITS.sshKeyIds} items, got ${LIMITS.sshKeyIds + 1}`,
    );
    assert.match(byField.notes, /notes must be at most 1000 characters, got 1001/);
    assert.match(byField.userData, /userData must be at most 16384 characters, got 16385/);
    const long = await failuresOf(virtualGuestProvider.check, {
      ...guest,
      tags: ['x'.repeat(LIMITS.tagLength + 1)],
    });
    assert.match(long.tags, /tags\[0\] "x+\.\.\." must be 1-128 letters/);
    noCall();
  });

  it('VirtualGuest: adoptId must be a guest id', async () => {
    for (const adoptId of ['12abc', 1.5, -3, '99999999999999999999', {}]) {
      const byField = await failuresOf(virtualGuestProvider.check, { ...guest, adoptId });
      assert.match(byField.adoptId, /^adoptId must be the numeric id of an existing guest, got /);
    }
    noCall();
  });

  it('DnsRecord: every wrong field once, with its type', async () => {
    const byField = await failuresOf(dnsRecordProvider.check, {
      ...record,
      zoneName: undefined,
      zoneId: '5',
      host: 7,
      type: 5,
      data: 'x\u0001',
      ttl: Number.NaN,
      mxPriority: 5,
    });
    assert.equal(byField.zoneId, 'zoneId must be an integer, got "5" (a string)');
    assert.equal(byField.host, 'host must be a string, got 7 (a number)');
    assert.equal(byField.type, 'type must be a string, got 5 (a number)');
    assert.match(byField.data, /data must not contain control characters.*U\+0001/);
    assert.equal(byField.ttl, 'ttl must be an integer, got NaN (a number)');
    assert.equal(byField.mxPriority, 'mxPriority applies to MX records only');
    const both = await failuresOf(dnsRecordProvider.check, { ...record, zoneId: 3 });
    assert.equal(both.zoneId, 'set exactly one of zoneId and zoneName, got both');
    noCall();
  });

  it('TicketUpdate: wrong types named', async () => {
    const byField = await failuresOf(ticketUpdateProvider.check, {
      ...update,
      ticketId: '12',
      entry: ['a'],
    });
    assert.equal(byField.ticketId, 'ticketId must be an integer, got "12" (a string)');
    assert.equal(byField.entry, 'entry must be a string, got an array of 1 item');
    const tooLong = await failuresOf(ticketUpdateProvider.check, {
      ...update,
      entry: 'e'.repeat(LIMITS.ticketEntry + 1),
    });
    assert.match(tooLong.entry, /at most 65536 characters/);
    noCall();
  });

  it('lookups reject bad arguments with a ValidationError naming each, before any call', async () => {
    const rejects = async (promise: Promise<unknown>, pattern: RegExp) => {
      await assert.rejects(promise, (err: unknown) => {
        assert.ok(err instanceof ValidationError, String(err));
        assert.match(err.message, pattern);
        return true;
      });
    };
    await rejects(getDnsZone({ name: 5 } as never), /^getDnsZone: name must be a string, got 5/);
    await rejects(getDnsZone(undefined as never), /getDnsZone: name is required/);
    await rejects(getDnsZone('example.com' as never), /must be an object with name, got "example/);
    await rejects(getDnsZone({ nme: 'example.com' } as never), /unknown argument 'nme'/);
    await rejects(getAccount({ mask: '' }), /mask must be a non-empty object mask/);
    await rejects(getAccount({ mask: 'id,[name' }), /mask must be an object mask/);
    await rejects(
      getVirtualGuests({ limit: 0, mask: 42 as never, filter: 'x' as never }),
      /filter must be an object filter.*; mask must be a string, got 42.*; limit must be between 1 and 10000, got 0/,
    );
    await rejects(
      getVirtualGuests({ filter: { virtualGuests: { domain: { operation: [1] } } } }),
      /filter\.virtualGuests\.domain\.operation must be a string or a finite number, got an array/,
    );
    await rejects(
      getVirtualGuests({ filter: { 'data center.name': { operation: 'dal10' } } }),
      /filter\["data center\.name"\]: the key must be a property path/,
    );
    await rejects(
      getVirtualGuests({ filter: { domain: { operaton: 'example.com' } } }),
      /filter\["domain"\] has the key "operaton": a condition takes operation and options/,
    );
    await rejects(
      getVirtualGuests({ filter: { '__proto__.x': { operation: 1 as never, options: 'x' } } }),
      /filter\.virtualGuests\.__proto__\.x\.options must be a list/,
    );
    assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype reached');
    await rejects(
      getVirtualGuests({ filter: { hardware: {} } }),
      /filter\["hardware"\] has no operation or options: .*an object filter that starts at virtualGuests/,
    );
    await rejects(
      getTickets({ createdBetween: { start: 'yesterday', end: new Date() } }),
      /createdBetween\.start must be a date .*got "yesterday" \(a string\)/,
    );
    await rejects(
      getTickets({ createdBetween: { start: '2025-02-01', end: '2025-01-01' } }),
      /createdBetween\.start must not be after createdBetween\.end/,
    );
    await rejects(getIpAddresses({ all: true }), /unknown argument 'all' \(it takes none\)/);
    await rejects(getDatacenters(7 as never), /must be an object \(there are none\), got 7/);
    noCall();
    // Good arguments still work.
    assert.ok((await getDatacenters()).length > 0);
    assert.ok(Array.isArray(await getVirtualGuests({ limit: 5, mask: 'id' })));
  });
});

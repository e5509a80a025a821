/**
 * Property: arbitrary JSON values (and NaN, Infinity, control characters, lone surrogates, huge
 * lists) in any input of any resource, or any argument of any lookup, never crash: `check`
 * returns failures (one per field, each naming its field) and never throws; a lookup rejects
 * with the project's ValidationError. Whatever the validators reject reaches no API call (the
 * emulator counts the calls it serves).
 */
import type * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcAPIError, SvcError } from '../../provider/client';
import { DNS_RECORD_FIELDS } from '../../provider/kinds/dns-record/fields';
import { dnsRecordProvider } from '../../provider/kinds/dns-record/provider';
import { dnsZoneProvider } from '../../provider/kinds/dns-zone/provider';
import { DNS_ZONE_FIELDS } from '../../provider/kinds/dns-zone/fields';
import { checkFields, withFieldDefaults, type Fields } from '../../provider/framework/fields';
import { sshKeyProvider } from '../../provider/kinds/ssh-key/provider';
import { SSH_KEY_FIELDS } from '../../provider/kinds/ssh-key/fields';
import { TICKET_UPDATE_FIELDS } from '../../provider/kinds/ticket-update/fields';
import { checkTable } from '../../provider/framework/kind-provider';
import { ticketUpdateProvider } from '../../provider/kinds/ticket-update/provider';
import { Failures, ValidationError } from '../../provider/framework/failures';
import { checkShape, withDefaults } from '../../provider/kinds/virtual-guest/inputs';
import { virtualGuestProvider } from '../../provider/kinds/virtual-guest/provider';
import {
  getAccount,
  getDatacenters,
  getDnsZone,
  getVirtualGuest,
  getIpAddresses,
  getTickets,
  getVirtualGuests,
} from '../../resources';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';
import { KEY_VECTORS } from '../support/ssh-keys';

type Bag = Record<string, unknown>;
type CheckFn = (olds: Bag, news: Bag) => Promise<pulumi.dynamic.CheckResult>;

const SEED = 20_251_123;

/** Arbitrary JSON, plus what JSON cannot hold but a program can pass. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    1e300,
    2 ** 53 + 2,
    null,
    '',
    'web',
    '1,2',
    ' ',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 200 }),
  fc.array(fc.oneof(fc.integer(), fc.double()), { maxLength: 120 }),
);

/** A valid base with some fields replaced, or a bag of arbitrary fields with no base at all. */
function bags(base: Bag): fc.Arbitrary<Bag> {
  const fields = fc.constantFrom(...Object.keys(base), 'extra');
  return fc.oneof(
    fc
      .dictionary(fields, anyValue, { minKeys: 1, maxKeys: 4 })
      .map((changes) => ({ ...base, ...changes })),
    fc.dictionary(fields, anyValue, { maxKeys: 8 }),
  );
}

const guestBase: Bag = {
  resourceName: 'web',
  identity: 'proj/dev/web',
  hostname: 'web-1',
  domain: 'prop.example.com',
  startCpus: 1,
  maxMemory: 1024,
  hourlyBillingFlag: true,
  localDiskFlag: true,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
  networkSpeed: 100,
  privateNetworkOnly: false,
  tags: ['web'],
  notes: 'notes',
  userData: '#!/bin/sh',
  sshKeyIds: [1],
  waitForReady: true,
  readyTimeoutMinutes: 5,
  adoptId: '1',
};
const recordBase: Bag = {
  zoneId: 1,
  zoneName: 'example.com',
  host: 'www',
  type: 'A',
  data: '10.0.0.1',
  ttl: 900,
  mxPriority: 10,
};
const updateBase: Bag = { ticketId: 1, entry: 'Rolled out' };
const sshKeyBase: Bag = { label: 'me', publicKey: KEY_VECTORS.ed25519.key, notes: 'laptop' };
const dnsZoneBase: Bag = {
  name: 'prop-zone.example',
  records: [{ host: 'www', type: 'A', data: '10.0.0.1', ttl: 900 }],
};

/** What a field table's own rules reject. */
const tableFailures = (fields: Fields) => (bag: Bag) => {
  const failures = new Failures();
  checkFields(fields, withFieldDefaults(fields, {}, bag), failures);
  return failures.list;
};

/** The failures the validators alone (no API) find: a non-empty list means no call may happen. */
const shapeFailures: Record<string, (bag: Bag) => readonly unknown[]> = {
  VirtualGuest: (bag) => {
    const failures = new Failures();
    checkShape(withDefaults({}, bag), failures);
    return failures.list;
  },
  DnsRecord: (bag) => checkTable(DNS_RECORD_FIELDS, {}, bag).failures.list,
  TicketUpdate: (bag) => checkTable(TICKET_UPDATE_FIELDS, {}, bag).failures.list,
  SshKey: tableFailures(SSH_KEY_FIELDS),
  DnsZone: tableFailures(DNS_ZONE_FIELDS),
};

describe('property: arbitrary inputs and arguments', () => {
  let emulator: Emulator;
  const calls = () => Object.values(emulator.stats().calls).reduce((sum, n) => sum + n, 0);
  before(async () => {
    ({ emulator } = await providerEnv(0));
    setProgramConfig(emulator);
  });
  after(() => emulator?.close());

  const resources: [string, CheckFn, Bag][] = [
    ['VirtualGuest', virtualGuestProvider.check, guestBase],
    ['DnsRecord', dnsRecordProvider.check, recordBase],
    ['TicketUpdate', ticketUpdateProvider.check, updateBase],
    ['SshKey', sshKeyProvider.check, sshKeyBase],
    ['DnsZone', dnsZoneProvider.check, dnsZoneBase],
  ];
  for (const [kind, check, base] of resources) {
    it(`${kind} check: failures, never an exception; invalid inputs reach no API call`, async () => {
      const original = console.log;
      console.log = () => undefined; // billing lines of the valid samples
      try {
        await fc.assert(
          fc.asyncProperty(bags(base), async (bag) => {
            const invalid = shapeFailures[kind](bag).length > 0;
            const before = calls();
            const result = await check({}, bag);
            const failures = result.failures ?? [];
            const properties = failures.map((f) => f.property);
            assert.equal(new Set(properties).size, properties.length, 'one failure per field');
            for (const { property, reason } of failures) {
              assert.equal(typeof reason, 'string');
              assert.ok(reason.includes(property), `the reason names ${property}: ${reason}`);
            }
            if (invalid) {
              assert.ok(failures.length > 0, 'what the validators reject, check rejects');
              assert.equal(calls(), before, 'no call for invalid inputs');
            }
          }),
          { seed: SEED, numRuns: 300 },
        );
      } finally {
        console.log = original;
      }
    });
  }

  const lookups: [string, (args: never) => Promise<unknown>, string[]][] = [
    ['getDnsZone', getDnsZone, ['name']],
    ['getAccount', getAccount, ['mask']],
    ['getVirtualGuests', getVirtualGuests, ['filter', 'mask', 'limit']],
    ['getTickets', getTickets, ['createdBetween']],
    ['getIpAddresses', getIpAddresses, []],
    ['getDatacenters', getDatacenters, []],
    ['getVirtualGuest', getVirtualGuest, ['id', 'hostname', 'domain', 'mostRecent']],
  ];
  for (const [name, lookup, argNames] of lookups) {
    it(`${name}: ValidationError before any call, or the server's answer to well-formed arguments`, async () => {
      const keys = fc.constantFrom(...argNames, 'other');
      const args = fc.oneof(anyValue, fc.dictionary(keys, anyValue, { maxKeys: 4 }));
      let rejected = 0;
      await fc.assert(
        fc.asyncProperty(args, async (value) => {
          const before = calls();
          try {
            await lookup(value as never);
          } catch (err) {
            if (err instanceof ValidationError) {
              rejected++;
              assert.ok(err.message.startsWith(`${name}: `), err.message);
              assert.equal(calls(), before, 'no call for invalid arguments');
              return;
            }
            // Accepted arguments the API itself refuses (an unknown mask property, no such zone).
            assert.ok(err instanceof SvcAPIError || err instanceof SvcError, String(err));
            assert.ok(calls() > before, `only after a call: ${String(err)}`);
          }
        }),
        { seed: SEED, numRuns: 150 },
      );
      assert.ok(rejected > 0, 'the samples included invalid arguments');
    });
  }
});

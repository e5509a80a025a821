import { isIPv4, isIPv6 } from 'node:net';
import { UNSET, types, readFrom, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import { isKnown, isUnknown } from '../../framework/unknown';
import { type Failures, LIMITS } from '../../framework/failures';
import type { DnsResourceRecord } from '../../managers';

/**
 * Every field of a DnsRecord, once (see framework/fields.ts): type upper-cased, default TTL, one
 * failure per wrong field, before any call.
 */

const onRecord = readFrom<DnsResourceRecord>();

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'PTR', 'SRV', 'SPF'] as const;
const HOST =
  /^(@|\*|(\*\.)?[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*)$/i;
export const DEFAULT_TTL = 900;
const DEFAULT_MX_PRIORITY = 10;

const given = (value: unknown) => value !== undefined && value !== null;

function checkData(type: string, data: unknown, failures: Failures): void {
  if (!failures.string('data', data, { required: true, maxLength: LIMITS.dnsData })) return;
  const value = data as string;
  if (type === 'A' && !isIPv4(value))
    failures.add('data', `data ${JSON.stringify(value)} must be an IPv4 address for an A record`);
  if (type === 'AAAA' && !isIPv6(value))
    failures.add(
      'data',
      `data ${JSON.stringify(value)} must be an IPv6 address for an AAAA record`,
    );
}

export const DNS_RECORD_FIELDS = {
  /**
   * The zone by id (e.g. `DnsZone.zoneId`), or by name with `zoneName` (exactly one of the two).
   */
  zoneId: {
    type: types.integer,
    input: 'optional',
    rule: rules.custom((failures, name, value, inputs) => {
      const hasName = given(inputs.zoneName);
      if (given(value) === hasName) {
        const which = hasName ? 'both' : 'neither';
        failures.add(name, `set exactly one of zoneId and zoneName, got ${which}`);
      }
      if (given(value)) failures.integer(name, value, { min: 1 });
    }, 'exactly one of zoneId and zoneName'),
    change: 'replace',
    // A program may name the zone by zoneName instead; an import gets its id.
    read: onRecord('domainId', (r) => r.domainId, { unsetFollowsApi: true }),
  },
  /** The zone by name. */
  zoneName: {
    type: types.string,
    input: 'optional',
    rule: rules.custom((failures, name, value) => {
      if (given(value)) failures.domain(name, value, true);
    }),
    change: 'replace',
  },
  /** Relative host name, `@` for the zone apex. */
  host: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({
      required: true,
      maxLength: 253,
      pattern: HOST,
      patternRule: '@, * or a relative DNS name',
    }),
    change: 'update',
    how: '`editObject`',
    read: onRecord('host', (r) => r.host),
  },
  /** The record type, in either case (`a` is `A`, as the API spells it); stored upper-cased. */
  type: {
    type: types.string,
    input: 'required',
    output: true,
    normalise: (value) =>
      typeof value === 'string' && !isUnknown(value) ? value.toUpperCase() : value,
    rule: rules.custom((failures, name, value, inputs) => {
      if (!failures.string(name, value, { required: true })) return;
      if (!failures.oneOf(name, value as string, RECORD_TYPES, 'a supported record type')) return;
      if (isKnown(inputs.data)) checkData(value as string, inputs.data, failures);
    }, RECORD_TYPES.join(', ')),
    oneOf: {
      name: 'RecordType',
      values: RECORD_TYPES,
      anyCase: true,
      meanings: {
        A: 'An IPv4 address.',
        AAAA: 'An IPv6 address.',
        CNAME: 'An alias: another host name.',
        MX: 'A mail server, with its `mxPriority`.',
        TXT: 'Text (verification tokens, policies).',
        NS: 'A name server of the zone or a delegated subdomain.',
        PTR: 'A reverse lookup: the host name of an address.',
        SRV: 'A service: its host and port.',
        SPF: 'A sender policy (SPF text).',
      },
    },
    change: 'replace',
    // The API keeps types in lower case.
    read: onRecord('type', (r) => r.type.toUpperCase()),
  },
  /** The answer: an address for A/AAAA, a name for CNAME/MX/NS/PTR, text for TXT/SPF. */
  data: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, maxLength: LIMITS.dnsData }),
    change: 'update',
    how: '`editObject`',
    read: onRecord('data', (r) => r.data),
  },
  /** Time to live, in seconds. */
  ttl: {
    type: types.integer,
    input: 'optional',
    output: true,
    default: DEFAULT_TTL,
    rule: rules.integer({ min: 60, max: 604_800 }),
    change: 'update',
    how: '`editObject`',
    read: onRecord('ttl', (r) => r.ttl),
  },
  /** Priority of an MX record. */
  mxPriority: {
    type: types.integer,
    input: 'optional',
    rule: rules.custom((failures, name, value, inputs) => {
      if (inputs.type === 'MX') {
        failures.integer(name, value ?? DEFAULT_MX_PRIORITY, { min: 0, max: 65_535 });
      } else if (given(value) && !isUnknown(inputs.type)) {
        failures.add(name, 'mxPriority applies to MX records only');
      }
    }, `0-65,535, MX records only (default ${DEFAULT_MX_PRIORITY})`),
    change: 'update',
    how: '`editObject`',
    read: onRecord(
      'mxPriority',
      (r) => (r.type.toUpperCase() === 'MX' ? (r.mxPriority ?? DEFAULT_MX_PRIORITY) : UNSET),
      { unsetFollowsApi: true },
    ),
  },
  /** The numeric id of the record. */
  recordId: { type: types.integer, output: true, read: onRecord('id', (r) => r.id) },
  /** The id of the zone it is in. */
  resolvedZoneId: {
    type: types.integer,
    output: true,
    read: onRecord('domainId', (r) => r.domainId),
  },
} satisfies Fields;

import type * as pulumi from '@pulumi/pulumi';
import { isIPv4, isIPv6 } from 'node:net';
import { isKnown, isUnknown } from './unknown';
import { Failures, LIMITS } from './validate';

/**
 * The inputs of a DnsRecord as `check` returns them (type upper-cased, default TTL) and the
 * checks that need no API call. One failure per wrong field, before any call.
 */

type Bag = Record<string, unknown>;

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

export function checkDnsRecord(news: Bag): pulumi.dynamic.CheckResult {
  const inputs: Bag = { ...news, ttl: news.ttl ?? DEFAULT_TTL };
  if (typeof inputs.type === 'string' && !isUnknown(inputs.type)) {
    inputs.type = inputs.type.toUpperCase();
  }
  const failures = new Failures();
  const hasId = given(inputs.zoneId);
  const hasName = given(inputs.zoneName);
  if (hasId === hasName) {
    failures.add(
      'zoneId',
      `set exactly one of zoneId and zoneName, got ${hasId ? 'both' : 'neither'}`,
    );
  }
  if (hasId) failures.integer('zoneId', inputs.zoneId, { min: 1 });
  if (hasName) failures.domain('zoneName', inputs.zoneName, true);
  failures.string('host', inputs.host, {
    required: true,
    maxLength: 253,
    pattern: HOST,
    patternRule: '@, * or a relative DNS name',
  });
  if (failures.string('type', inputs.type, { required: true })) {
    if (failures.oneOf('type', inputs.type as string, RECORD_TYPES, 'a supported record type')) {
      if (isKnown(inputs.data)) checkData(inputs.type as string, inputs.data, failures);
    }
  }
  failures.string('data', inputs.data, { required: true, maxLength: LIMITS.dnsData });
  failures.integer('ttl', inputs.ttl, { min: 60, max: 604_800 });
  if (inputs.type === 'MX') {
    failures.integer('mxPriority', inputs.mxPriority ?? DEFAULT_MX_PRIORITY, {
      min: 0,
      max: 65_535,
    });
  } else if (given(inputs.mxPriority) && !isUnknown(inputs.type)) {
    failures.add('mxPriority', 'mxPriority applies to MX records only');
  }
  return { inputs, failures: failures.list };
}

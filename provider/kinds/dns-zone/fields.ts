import type * as pulumi from '@pulumi/pulumi';
import type { DnsZone } from '../../managers';
import { valueType, types, readFrom, type Fields } from '../../framework/fields';
import { adoptIdField, rules } from '../../framework/field-rules';

/** Every field of a DnsZone, once (see framework/fields.ts). */

const onZone = readFrom<DnsZone>();

/** A record the zone owns: the fields and rules of `DnsRecord`, without the zone. */
export interface DnsZoneRecordArgs {
  /** Relative host name, `@` for the zone apex. */
  host: pulumi.Input<string>;
  /** A, AAAA, CNAME, MX, TXT, NS, PTR, SRV or SPF. */
  type: pulumi.Input<string>;
  data: pulumi.Input<string>;
  /** Seconds, default 900. */
  ttl?: pulumi.Input<number>;
  mxPriority?: pulumi.Input<number>;
}

export interface DnsZoneRecordOutput {
  host: string;
  type: string;
  data: string;
  ttl: number;
  mxPriority?: number;
}

export const DNS_ZONE_FIELDS = {
  /** The zone’s domain name, e.g. `example.com` (trimmed, lower-cased, no final dot). */
  name: {
    type: types.string,
    input: 'required',
    output: true,
    normalise: (name) =>
      typeof name === 'string' ? name.trim().toLowerCase().replace(/\.$/, '') : name,
    rule: rules.domain(true),
    change: 'replace',
    read: onZone('name', (zone) => zone.name),
  },
  /**
   * Records (`host`, `type`, `data`, `ttl`, `mxPriority`, checked like `DnsRecord`) the zone owns
   * and keeps as declared.
   */
  records: {
    type: valueType<DnsZoneRecordOutput[]>('record[]'),
    arg: valueType<DnsZoneRecordArgs[]>('record[]'),
    input: 'optional',
    output: true,
    default: [],
    change: 'update',
    how: 'records created, edited and deleted to match',
  },
  /**
   * Let destroying the zone delete records this stack does not own (default false: such a destroy
   * is refused and lists them). Takes effect once in the state: `pulumi up`, then destroy.
   */
  forceDelete: {
    type: types.boolean,
    input: 'optional',
    output: true,
    rule: rules.flag(),
    change: 'local',
  },
  /**
   * Take over the account’s existing zone with this id (without it, an existing zone of that name
   * fails in `check`).
   */
  adoptId: adoptIdField('a zone'),

  /** The numeric id, for `DnsRecord.zoneId` (the resource id is the same number as a string). */
  zoneId: {
    type: types.integer,
    output: true,
    read: onZone('id', (zone) => zone.id),
  },
  /** The zone’s serial number. */
  serial: {
    type: types.nullable(types.integer),
    output: true,
    read: onZone('serial', (zone) => zone.serial ?? null),
  },
  /** Ids of the records in `records`, in the same order. */
  recordIds: {
    type: types.list(types.integer),
    output: true,
  },
  /** Ids of the records the API adds to a new zone (SOA, NS): the zone's own, kept in the state only. */
  builtInRecordIds: {
    type: types.list(types.integer),
    internal: true,
  },
} satisfies Fields;

import { DnsManager, type DnsResourceRecord, type DnsZone } from '../../managers';
import {
  ID,
  INTEGER,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
} from '../../lookups/define';

const RECORD = objectType<DnsResourceRecord>({
  name: 'ResourceRecord',
  description: 'A record of a DNS zone, as the API stores it.',
  properties: {
    id: prop(ID, "The record's id.", { required: true }),
    domainId: prop(ID, "Its zone's id."),
    host: prop(STRING, 'Its host, `@` for the zone itself.'),
    type: prop(STRING, 'Its type: `A`, `AAAA`, `CNAME`, `MX`, `TXT`, `NS` or `SOA`.'),
    data: prop(STRING, 'Its data (an address, a host name, text).'),
    ttl: prop(INTEGER, 'Its time to live, in seconds.'),
    mxPriority: prop(INTEGER, "An MX record's priority."),
  },
});

const ZONE = objectType<DnsZone>({
  name: 'DnsZoneResult',
  description: 'A DNS zone with its records.',
  properties: {
    id: prop(ID, "The zone's id.", { required: true }),
    name: prop(STRING, 'Its name, e.g. `example.com`.', { required: true }),
    serial: prop(INTEGER, 'Its serial, raised by every change of a record.'),
    resourceRecords: prop(listOf(RECORD), 'Its records, the SOA and NS records included.'),
  },
});

/** The lookups of DnsZone (registered with the kind in kinds/index.ts). */
export const DNS_ZONE_LOOKUPS = defineLookups({
  getDnsZone: lookup({
    description:
      'A DNS zone of the account, with its records; rejects with `DNSZoneNotFound` when the account has none of that name.',
    inputs: { name: prop(STRING, "The zone's name, e.g. `example.com`.", { required: true }) },
    result: ZONE,
    example: {
      title: 'A zone and its records',
      name: 'zone',
      args: { name: 'example.com' },
      exports: ['id', 'resourceRecords'],
    },
    check: (a, failures) => failures.domain('name', a.name, true),
    call: (client, args) => new DnsManager(client).getZoneByName(args.name),
  }),
});

export type GetDnsZoneArgs = Parameters<typeof DNS_ZONE_LOOKUPS.getDnsZone.call>[1];

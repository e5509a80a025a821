import { DnsManager, type DnsZone } from '../../managers';
import { ANY, INTEGER, STRING, defineLookups } from '../../lookups/define';
import type { Client } from '../../client';

export interface GetDnsZoneArgs {
  name: string;
}

/** The lookups of DnsZone (registered with the kind in kinds/index.ts). */
export const DNS_ZONE_LOOKUPS = defineLookups({
  getDnsZone: {
    description: 'A DNS zone of the account, with its records.',
    inputs: { name: STRING },
    required: ['name'],
    outputs: { id: INTEGER, name: STRING, serial: INTEGER, resourceRecords: ANY },
    check: (a, failures) => failures.domain('name', a.name, true),
    /** The zone with its records; rejects with `DNSZoneNotFound` when the account has none. */
    call: (client: Client, args: GetDnsZoneArgs): Promise<DnsZone> =>
      new DnsManager(client).getZoneByName(args.name),
  },
});

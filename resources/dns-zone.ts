import { DNS_ZONE_FIELDS } from '../provider/kinds/dns-zone/fields';
import type { ArgsOf } from '../provider/framework/fields';
import { resourceClass, type ResourceClass } from './resource-class';

export type { DnsZoneRecordArgs, DnsZoneRecordOutput } from '../provider/kinds/dns-zone/fields';

/** The arguments of a DnsZone: see its field table (provider/kinds/dns-zone/fields.ts). */
export type DnsZoneArgs = ArgsOf<typeof DNS_ZONE_FIELDS>;

/**
 * A DNS zone (`Svc_Dns_Domain`). Add records with `records` or with
 * `new DnsRecord(..., { zoneId: zone.zoneId, ... })`.
 */
export const DnsZone: ResourceClass<typeof DNS_ZONE_FIELDS> = resourceClass(
  'DnsZone',
  DNS_ZONE_FIELDS,
);
export type DnsZone = InstanceType<typeof DnsZone>;

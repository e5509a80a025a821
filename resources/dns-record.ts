import { DNS_RECORD_FIELDS } from '../provider/kinds/dns-record/fields';
import type { ArgsOf } from '../provider/framework/fields';
import { resourceClass, type ResourceClass } from './resource-class';

/** The arguments of a DnsRecord: see its field table (provider/kinds/dns-record/fields.ts). */
export type DnsRecordArgs = ArgsOf<typeof DNS_RECORD_FIELDS>;

/** A resource record in a DNS zone (`Svc_Dns_Domain_ResourceRecord`). */
export const DnsRecord: ResourceClass<typeof DNS_RECORD_FIELDS> = resourceClass(
  'DnsRecord',
  DNS_RECORD_FIELDS,
);
export type DnsRecord = InstanceType<typeof DnsRecord>;

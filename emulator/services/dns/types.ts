/** Svc_Dns_Domain (a zone) and Svc_Dns_Domain_ResourceRecord (with the SOA record's timers). */
import { formatApiDate } from '../../dates';
import { defineType } from '../../schema';
import type { DnsDomainRec, DnsRecordRec } from './model';

const SOA_DEFAULTS = {
  ttl: 86400,
  expire: 604800,
  minimum: 3600,
  refresh: 3600,
  retry: 300,
} as const;

const SOA_RECORD_BASE = 360_000_000;

/** The zone's start-of-authority record, derived from the zone (not one of its stored records). */
export function soaRecord(
  d: DnsDomainRec,
): DnsRecordRec & typeof SOA_DEFAULTS & { responsiblePerson: string } {
  return {
    id: SOA_RECORD_BASE + d.id,
    accountId: d.accountId,
    domainId: d.id,
    host: '@',
    type: 'soa',
    data: 'ns1.svc-emulator.invalid.',
    responsiblePerson: `root.${d.name}.`,
    createDate: d.updateDate,
    ...SOA_DEFAULTS,
  };
}

defineType<DnsDomainRec>('Svc_Dns_Domain', {
  locals: {
    id: (d) => d.id,
    name: (d) => d.name,
    serial: (d) => d.serial,
    updateDate: (d) => formatApiDate(d.updateDate),
  },
  relations: {
    resourceRecords: {
      type: 'Svc_Dns_Domain_ResourceRecord',
      many: true,
      get: (d, ctx) => ctx.store.by('dnsRecords', 'domainId', d.id),
    },
    soaResourceRecord: { type: 'Svc_Dns_Domain_ResourceRecord_SoaType', get: soaRecord },
  },
  onDemand: {
    resourceRecordCount: (d, ctx) => ctx.store.countBy('dnsRecords', 'domainId', d.id),
    managedResourceFlag: () => false,
  },
});

defineType<DnsRecordRec>(
  ['Svc_Dns_Domain_ResourceRecord', 'Svc_Dns_Domain_ResourceRecord_SoaType'],
  {
    locals: {
      id: (r) => r.id,
      domainId: (r) => r.domainId,
      host: (r) => r.host,
      data: (r) => r.data,
      ttl: (r) => r.ttl,
      type: (r) => r.type,
      mxPriority: (r) => r.mxPriority,
      expire: (r) => r.expire,
      minimum: (r) => r.minimum,
      refresh: (r) => r.refresh,
      retry: (r) => r.retry,
      responsiblePerson: (r) => r.responsiblePerson,
    },
    relations: {
      domain: { type: 'Svc_Dns_Domain', get: (r, ctx) => ctx.store.get('dnsDomains', r.domainId) },
    },
  },
);

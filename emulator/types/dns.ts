/** Svc_Dns_Domain (a zone) and Svc_Dns_Domain_ResourceRecord. */
import { formatApiDate } from '../dates';
import type { DnsDomainRec, DnsRecordRec } from '../records';
import { defineType } from '../schema';

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
  },
  counts: { resourceRecordCount: (d, ctx) => ctx.store.countBy('dnsRecords', 'domainId', d.id) },
});

defineType<DnsRecordRec>('Svc_Dns_Domain_ResourceRecord', {
  locals: {
    id: (r) => r.id,
    domainId: (r) => r.domainId,
    host: (r) => r.host,
    data: (r) => r.data,
    ttl: (r) => r.ttl,
    type: (r) => r.type,
    mxPriority: (r) => r.mxPriority,
  },
  relations: {
    domain: { type: 'Svc_Dns_Domain', get: (r, ctx) => ctx.store.get('dnsDomains', r.domainId) },
  },
});

/**
 * DNS zones and their resource records. A zone's SOA record is derived from the zone (see
 * soaRecord), not stored; a record change bumps the zone's serial.
 */
import { table, type RecordsOf } from '../../store';

export interface DnsDomainRec {
  id: number;
  accountId: number;
  name: string;
  serial: number;
  updateDate: number;
}

export interface DnsRecordRec {
  id: number;
  accountId: number;
  domainId: number;
  host: string;
  data: string;
  ttl: number;
  type: string;
  mxPriority?: number;
  /** SOA timers and contact, kept when a record is written with them. */
  expire?: number;
  minimum?: number;
  refresh?: number;
  retry?: number;
  responsiblePerson?: string;
  createDate: number;
}

export const tables = {
  dnsDomains: table<DnsDomainRec>(400001, ['accountId']),
  dnsRecords: table<DnsRecordRec>(410001, ['domainId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export const DNS_RECORD_TYPES: readonly string[] = [
  'a',
  'aaaa',
  'cname',
  'mx',
  'ns',
  'ptr',
  'soa',
  'spf',
  'srv',
  'txt',
];

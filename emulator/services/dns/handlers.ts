/** Svc_Dns_Domain (zones) and Svc_Dns_Domain_ResourceRecord (records in them). */
import { isIP } from 'node:net';
import { invalidParams, invalidValue, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import type { WriteOp } from '../../store';
import { checkDomain } from '../../validators';
import {
  expectArgs,
  list,
  ok,
  one,
  owned,
  requireId,
  stringArg,
  structArg,
  type AuthedContext,
} from '../context';
import { serviceFolder } from '../service';
import { DNS_RECORD_TYPES, tables, type DnsDomainRec, type DnsRecordRec } from './model';
import { soaRecord } from './types';

const MAX_TTL = 2_147_483_647;
type RecordField = 'host' | 'data' | 'ttl' | 'type' | 'mxPriority' | SoaField | 'responsiblePerson';
type SoaField = 'expire' | 'minimum' | 'refresh' | 'retry';
const SOA_FIELDS: readonly SoaField[] = ['expire', 'minimum', 'refresh', 'retry'];
const RECORD_EXTRAS = new Set(['complexType', 'id', 'domainId', 'isGatewayAddress']);

const loadDomain = (ctx: AuthedContext): DnsDomainRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('dnsDomains', id), id);
};

const loadRecord = (ctx: AuthedContext): DnsRecordRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('dnsRecords', id), id);
};

/** A record change bumps the zone's serial, as a DNS server would. */
const touchZone = (zone: DnsDomainRec, now: number): WriteOp => ({
  put: 'dnsDomains',
  record: { ...zone, serial: zone.serial + 1, updateDate: now },
});

const bad = (field: string, value: unknown, expected: string) =>
  invalidValue(
    `Invalid value provided for '${field}': ${JSON.stringify(value) ?? String(value)}. ${expected}`,
  );

/** A number of seconds (`ttl`, and the SOA timers), given as an integer or a digit string. */
function readSeconds(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TTL)
    throw bad(field, value, 'Expected a positive integer (seconds).');
  return n;
}

type RecordFields = Omit<DnsRecordRec, 'id' | 'accountId' | 'domainId' | 'createDate'>;
type FieldReader = (k: RecordField) => unknown;

/** Checks record fields; `base` supplies the current values for a partial edit. */
function checkRecord(input: Record<string, unknown>, base?: DnsRecordRec): RecordFields {
  const recordType = typeDef('Svc_Dns_Domain_ResourceRecord');
  for (const key of Object.keys(input)) {
    if (!RECORD_EXTRAS.has(key) && !recordType.locals.has(key) && !recordType.relations.has(key)) {
      throw propertyNotValid(key, 'Svc_Dns_Domain_ResourceRecord');
    }
  }
  const pick: FieldReader = (k) =>
    input[k] !== undefined && input[k] !== null ? input[k] : base?.[k];
  const kind = checkType(pick('type'));
  const host = checkHost(pick('host'));
  const data = checkData(kind, pick('data'));
  const ttl = readSeconds(pick('ttl') ?? 86400, 'ttl');
  const soa: Partial<Record<SoaField, number>> = {};
  for (const field of SOA_FIELDS) {
    const value = pick(field);
    if (value !== undefined) soa[field] = readSeconds(value, field);
  }
  const person = checkResponsiblePerson(pick('responsiblePerson'));
  const mxPriority = checkMxPriority(kind, pick('mxPriority'));
  return {
    host,
    data,
    ttl,
    type: kind,
    mxPriority: kind === 'mx' ? mxPriority : undefined,
    ...soa,
    responsiblePerson: person,
  };
}

/** The record type, lower-cased (`a`, `mx`, ...). */
function checkType(type: unknown): string {
  if (type === undefined)
    throw publicFault(
      "Property 'type' must be set to create an instance of Svc_Dns_Domain_ResourceRecord.",
    );
  if (typeof type !== 'string' || !DNS_RECORD_TYPES.includes(type.trim().toLowerCase())) {
    throw bad('type', type, `Expected one of: ${DNS_RECORD_TYPES.join(', ')}.`);
  }
  return type.trim().toLowerCase();
}

function checkHost(host: unknown): string {
  if (
    typeof host !== 'string' ||
    host.trim() === '' ||
    host.length > 255 ||
    /\s/.test(host.trim())
  ) {
    throw bad('host', host, "Expected a host name such as 'www', '@' or '*'.");
  }
  return host.trim();
}

/** The data, which for A and AAAA records must be an address of the right family. */
function checkData(kind: string, rawData: unknown): string {
  if (typeof rawData !== 'string' || rawData.trim() === '' || rawData.length > 4096) {
    throw bad('data', rawData, 'Expected a non-empty string.');
  }
  const data = rawData.trim();
  if (kind === 'a' && isIP(data) !== 4)
    throw bad('data', data, 'An A record needs an IPv4 address.');
  if (kind !== 'aaaa') return data;
  if (isIP(data) !== 6) throw bad('data', data, 'An AAAA record needs an IPv6 address.');
  return data.toLowerCase();
}

function checkResponsiblePerson(person: unknown): string | undefined {
  if (
    person !== undefined &&
    (typeof person !== 'string' || person.length > 255 || /\s/.test(person))
  )
    throw bad(
      'responsiblePerson',
      person,
      "Expected a mailbox as a domain name, e.g. 'root.example.com.'.",
    );
  return person;
}

/** An MX record's priority (default 10); checked whenever given. */
function checkMxPriority(kind: string, priority: unknown): number | undefined {
  if (priority === undefined) return kind === 'mx' ? 10 : undefined;
  const mxPriority = typeof priority === 'string' ? Number(priority) : (priority as number);
  if (!Number.isInteger(mxPriority) || mxPriority < 0 || mxPriority > 65535)
    throw bad('mxPriority', priority, 'Expected 0 to 65535.');
  return mxPriority;
}

function newRecord(
  ctx: AuthedContext,
  zone: DnsDomainRec,
  input: Record<string, unknown>,
): DnsRecordRec {
  return {
    id: ctx.store.nextId('dnsRecords'),
    accountId: ctx.account.id,
    domainId: zone.id,
    createDate: ctx.now,
    ...checkRecord(input),
  };
}

/** The zone in BIND format, its SOA record first. */
function zoneFile(zone: DnsDomainRec, records: DnsRecordRec[]): string {
  const soa = soaRecord(zone);
  const lines = [
    `$ORIGIN ${zone.name}.`,
    `$TTL ${soa.ttl}`,
    `@\t${soa.ttl}\tIN\tSOA\t${soa.data} ${soa.responsiblePerson} ` +
      `(${zone.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum})`,
    ...records.map((r) => {
      const data = r.type === 'txt' ? JSON.stringify(r.data) : r.data;
      const priority = r.type === 'mx' ? `${r.mxPriority ?? 10} ` : '';
      return `${r.host}\t${r.ttl}\tIN\t${r.type.toUpperCase()}\t${priority}${data}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}

const listOrEmpty = (value: unknown, field: string): unknown[] => {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && Object.keys(value).length === 0) return []; // `{}` stands for []
  throw invalidParams(`'${field}' must be an array.`);
};

export const dns = serviceFolder({
  tables,
  services: {
    Dns_Domain: {
      load: loadDomain,
      methods: {
        createObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const template = structArg(ctx, 0, 'templateObject');
            if (template.name === undefined || template.name === null) {
              throw publicFault(
                "Property 'name' must be set to create an instance of Svc_Dns_Domain.",
              );
            }
            const name = checkDomain(template.name, 'name').toLowerCase();
            if (
              ctx.store.by('dnsDomains', 'accountId', ctx.account.id).some((d) => d.name === name)
            ) {
              throw publicFault(`A DNS zone named '${name}' already exists in this account.`);
            }
            const serial = Number(template.serial ?? NaN);
            const zone: DnsDomainRec = {
              id: ctx.store.nextId('dnsDomains'),
              accountId: ctx.account.id,
              name,
              serial:
                Number.isInteger(serial) && serial > 0
                  ? serial
                  : Number(`${new Date(ctx.now).toISOString().slice(0, 10).replace(/-/g, '')}00`),
              updateDate: ctx.now,
            };
            const records = listOrEmpty(template.resourceRecords, 'resourceRecords').map((r, i) => {
              if (r === null || typeof r !== 'object' || Array.isArray(r))
                throw invalidParams(`'resourceRecords[${i}]' must be a struct.`);
              return newRecord(ctx, zone, r as Record<string, unknown>);
            });
            await ctx.store.write([
              { put: 'dnsDomains', record: zone },
              ...records.map((record) => ({ put: 'dnsRecords' as const, record })),
            ]);
            return one(ctx, 'Svc_Dns_Domain', zone);
          },
        },
        getZoneFileContents: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            const zone = loadDomain(ctx);
            return ok(zoneFile(zone, ctx.store.by('dnsRecords', 'domainId', zone.id)));
          },
        },
        getByDomainName: {
          handler: (ctx) => {
            expectArgs(ctx, ['name']);
            const name = stringArg(ctx, 0, 'name').trim().toLowerCase().replace(/\.$/, '');
            const zones = ctx.store
              .by('dnsDomains', 'accountId', ctx.account.id)
              .filter((d) => d.name === name);
            return list(ctx, 'Svc_Dns_Domain', zones, null);
          },
        },
        deleteObject: {
          handler: async (ctx) => {
            expectArgs(ctx, []);
            const zone = loadDomain(ctx);
            const records = ctx.store.by('dnsRecords', 'domainId', zone.id);
            await ctx.store.write([
              ...records.map((r) => ({ del: 'dnsRecords' as const, id: r.id })),
              { del: 'dnsDomains', id: zone.id },
            ]);
            return ok(true);
          },
        },
      },
    },
    Dns_Domain_ResourceRecord: {
      load: loadRecord,
      methods: {
        createObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const template = structArg(ctx, 0, 'templateObject');
            if (template.domainId === undefined || template.domainId === null) {
              throw publicFault(
                "Property 'domainId' must be set to create an instance of Svc_Dns_Domain_ResourceRecord.",
              );
            }
            const domainId = Number(template.domainId);
            const zone = owned(
              ctx,
              Number.isInteger(domainId) ? ctx.store.get('dnsDomains', domainId) : undefined,
              template.domainId,
            );
            const record = newRecord(ctx, zone, template);
            await ctx.store.write([{ put: 'dnsRecords', record }, touchZone(zone, ctx.now)]);
            return one(ctx, 'Svc_Dns_Domain_ResourceRecord', record);
          },
        },
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const current = loadRecord(ctx);
            const template = structArg(ctx, 0, 'templateObject');
            if (
              template.domainId !== undefined &&
              template.domainId !== null &&
              Number(template.domainId) !== current.domainId
            ) {
              throw publicFault(
                'A resource record cannot be moved to another zone; delete it and create it in the other zone.',
              );
            }
            const record: DnsRecordRec = { ...current, ...checkRecord(template, current) };
            const zone = ctx.store.get('dnsDomains', current.domainId)!;
            await ctx.store.write([{ put: 'dnsRecords', record }, touchZone(zone, ctx.now)]);
            return ok(true);
          },
        },
        deleteObject: {
          handler: async (ctx) => {
            expectArgs(ctx, []);
            const record = loadRecord(ctx);
            const zone = ctx.store.get('dnsDomains', record.domainId)!;
            await ctx.store.write([{ del: 'dnsRecords', id: record.id }, touchZone(zone, ctx.now)]);
            return ok(true);
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    dns: typeof dns;
  }
}

import type * as pulumi from '@pulumi/pulumi';
import type { DnsResourceRecord } from '../../managers';
import { changedFields } from '../../framework/compare';
import { connect, freeWriteWindowMs, type Connection } from '../../framework/connection';
import { DNS_RECORD_FIELDS, checkDnsRecord } from './fields';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { fieldsChanging, type Bag } from '../../framework/fields';
import { requireEngine } from '../../framework/engine-watch';
import { say } from '../../framework/log';
import { accountIdOf, requireOwner } from '../../framework/owner';

/** Types, syntax and ranges, before any call: fields.ts. */
async function check(_olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  return checkDnsRecord(news);
}

const REPLACE = fieldsChanging(DNS_RECORD_FIELDS, 'replace');
const EDIT = fieldsChanging(DNS_RECORD_FIELDS, 'update');

/** Type and zone changes replace; other changes are left for the engine to diff (see VirtualGuest). */
async function diff(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedFields(olds, news, REPLACE);
  if (replaces.length > 0) return { changes: true, replaces };
  return changedFields(olds, news, EDIT).length > 0 ? { replaces: [] } : { changes: false };
}

async function zoneIdOf(c: Connection, inputs: Bag): Promise<number> {
  if (inputs.zoneId !== undefined) return Number(inputs.zoneId);
  return (await c.dns.getZoneByName(String(inputs.zoneName), false)).id;
}

/** Outputs that are not inputs. */
const COMPUTED = ['recordId', 'resolvedZoneId', 'accountId'];

function outputs(inputs: Bag, record: DnsResourceRecord, zoneId: number, accountId: number): Bag {
  return {
    ...inputs,
    recordId: record.id,
    resolvedZoneId: zoneId,
    accountId,
    host: record.host,
    data: record.data,
    ttl: record.ttl,
  };
}

function spec(inputs: Bag) {
  return {
    host: String(inputs.host),
    type: String(inputs.type),
    data: String(inputs.data),
    ttl: Number(inputs.ttl),
    ...(inputs.type === 'MX' ? { mxPriority: Number(inputs.mxPriority ?? 10) } : {}),
  };
}

type RecordSpec = ReturnType<typeof spec>;

const sameRecord = (wanted: RecordSpec) => (r: DnsResourceRecord) =>
  r.host === wanted.host && r.type.toUpperCase() === wanted.type && r.data === wanted.data;

/**
 * Creates the record once. The ids of the records that already match are taken before writing;
 * after a write with no definite answer, only a matching record whose id is not among them can be
 * the one it made (a record that existed before is never taken over).
 */
async function create(inputs: Bag): Promise<pulumi.dynamic.CreateResult> {
  const c = connect();
  const zoneId = await zoneIdOf(c, inputs);
  const accountId = await accountIdOf(c);
  const wanted = spec(inputs);
  const matching = async () => (await c.dns.listRecords(zoneId)).filter(sameRecord(wanted));
  const before = new Set((await matching()).map((r) => r.id));
  const record = await createOnce({
    what: `DnsRecord ${wanted.host} ${wanted.type} in zone ${zoneId}`,
    write: async () => {
      await requireEngine();
      return c.dns.createRecord(zoneId, wanted);
    },
    find: async () => {
      const made = (await matching()).filter((r) => !before.has(r.id));
      return made.length === 1 ? made[0] : undefined;
    },
    windowMs: freeWriteWindowMs(),
    nextRun:
      'The next `pulumi up` creates it (a record that shows up later would then be one more matching record; check the zone).',
  });
  return { id: String(record.id), outs: outputs(inputs, record, zoneId, accountId) };
}

const describe = (props: Bag, id: string) =>
  `DnsRecord ${String(props.host ?? '')} ${String(props.type ?? '')} (id ${id})`;

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const c = connect();
  const accountId = await requireOwner(c, props, describe(props, id), 'refresh');
  const record = await c.dns.findRecord(Number(id));
  if (!record) return {};
  // The API stores types in lower case; only a different type is drift.
  const type =
    String(props.type ?? '').toUpperCase() === record.type.toUpperCase()
      ? props.type
      : record.type.toUpperCase();
  const refreshed = { ...outputs(props, record, record.domainId, accountId), type };
  const inputs = Object.fromEntries(
    Object.entries(refreshed).filter(([key]) => !COMPUTED.includes(key)),
  );
  return { id, props: refreshed, inputs };
}

async function update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  const c = connect();
  const accountId = await requireOwner(c, olds, describe(olds, id), 'update');
  const wanted = spec(news);
  await writeIdempotent({
    what: `${describe(olds, id)} edit`,
    write: () => c.dns.editRecord(Number(id), wanted),
    done: async () => {
      const now = await c.dns.getRecord(Number(id));
      return sameRecord(wanted)(now) && now.ttl === wanted.ttl;
    },
    windowMs: freeWriteWindowMs(),
  });
  const record = await c.dns.getRecord(Number(id));
  return {
    outs: outputs(news, record, Number(olds.resolvedZoneId ?? record.domainId), accountId),
  };
}

async function remove(id: string, props: Bag): Promise<void> {
  const c = connect();
  const what = describe(props, id);
  await requireOwner(c, props, what, 'delete');
  await writeIdempotent({
    what: `${what} deletion`,
    write: () => c.dns.deleteRecord(Number(id)),
    done: async () => (await c.dns.findRecord(Number(id))) === undefined,
    windowMs: freeWriteWindowMs(),
  });
  say(`DnsRecord ${props.host}.${props.zoneName ?? props.zoneId} (id ${id}): deleted`);
}

export const dnsRecordProvider = { check, diff, create, read, update, delete: remove };

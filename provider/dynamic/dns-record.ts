import type * as pulumi from '@pulumi/pulumi';
import type { DnsResourceRecord } from '../managers';
import { changedFields } from './checks';
import { connect, type Connection } from './connection';
import { checkDnsRecord } from './dns-record-inputs';
import { createOnce, removeOnce } from './exactly-once';
import { say } from './log';

type Bag = Record<string, unknown>;

/** Types, syntax and ranges, before any call: dns-record-inputs.ts. */
async function check(_olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult> {
  return checkDnsRecord(news);
}

const REPLACE = ['zoneId', 'zoneName', 'type'] as const;
const EDIT = ['host', 'data', 'ttl', 'mxPriority'] as const;

async function diff(_id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult> {
  const replaces = changedFields(olds, news, REPLACE);
  const edits = changedFields(olds, news, EDIT);
  return { changes: replaces.length + edits.length > 0, replaces };
}

async function zoneIdOf(c: Connection, inputs: Bag): Promise<number> {
  if (inputs.zoneId !== undefined) return Number(inputs.zoneId);
  return (await c.dns.getZoneByName(String(inputs.zoneName), false)).id;
}

function outputs(inputs: Bag, record: DnsResourceRecord, zoneId: number): Bag {
  return {
    ...inputs,
    recordId: record.id,
    resolvedZoneId: zoneId,
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

async function create(inputs: Bag): Promise<pulumi.dynamic.CreateResult> {
  const c = connect();
  const zoneId = await zoneIdOf(c, inputs);
  const wanted = spec(inputs);
  // A lost response may hide a created record: an identical one is adopted rather than doubled.
  const record = await createOnce({
    what: `DnsRecord ${wanted.host} ${wanted.type}`,
    write: () => c.dns.createRecord(zoneId, wanted),
    find: async () =>
      (await c.dns.listRecords(zoneId)).find(
        (r) =>
          r.host === wanted.host && r.type.toUpperCase() === wanted.type && r.data === wanted.data,
      ),
  });
  return { id: String(record.id), outs: outputs(inputs, record, zoneId) };
}

async function read(id: string, props: Bag = {}): Promise<pulumi.dynamic.ReadResult> {
  const record = await connect().dns.findRecord(Number(id));
  if (!record) return {};
  // The API stores types in lower case; only a different type is drift.
  const type =
    String(props.type ?? '').toUpperCase() === record.type.toUpperCase()
      ? props.type
      : record.type.toUpperCase();
  return { id, props: { ...outputs(props, record, record.domainId), type } };
}

async function update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult> {
  const c = connect();
  const wanted = spec(news);
  await c.dns.editRecord(Number(id), wanted);
  const record = await c.dns.getRecord(Number(id));
  return { outs: outputs(news, record, Number(olds.resolvedZoneId ?? record.domainId)) };
}

async function remove(id: string, props: Bag): Promise<void> {
  const { dns } = connect();
  await removeOnce({
    what: `DnsRecord ${id}`,
    remove: () => dns.deleteRecord(Number(id)),
    exists: async () => (await dns.findRecord(Number(id))) !== undefined,
  });
  say(`DnsRecord ${props.host}.${props.zoneName ?? props.zoneId} (id ${id}): deleted`);
}

export const dnsRecordProvider = { check, diff, create, read, update, delete: remove };

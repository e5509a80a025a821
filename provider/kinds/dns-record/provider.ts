import type { DnsResourceRecord } from '../../managers';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { DNS_RECORD_FIELDS } from './fields';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import type { Bag } from '../../framework/fields';
import { kindProvider } from '../../framework/kind-provider';

/**
 * `DnsRecord`: one record of a zone (`Dns_Domain_ResourceRecord`). A new type or zone replaces it;
 * host, data, TTL and MX priority are edited in place.
 */

async function zoneIdOf(c: Connection, inputs: Bag): Promise<number> {
  if (inputs.zoneId !== undefined) return Number(inputs.zoneId);
  return (await c.dns.getZoneByName(String(inputs.zoneName), false)).id;
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
async function create(c: Connection, inputs: Bag) {
  const zoneId = await zoneIdOf(c, inputs);
  const wanted = spec(inputs);
  const matching = async () => (await c.dns.listRecords(zoneId)).filter(sameRecord(wanted));
  const before = new Set((await matching()).map((r) => r.id));
  const record = await createOnce({
    what: `DnsRecord ${wanted.host} ${wanted.type} in zone ${zoneId}`,
    write: () => c.dns.createRecord(zoneId, wanted),
    find: async () => {
      const made = (await matching()).filter((r) => !before.has(r.id));
      return made.length === 1 ? made[0] : undefined;
    },
    windowMs: freeWriteWindowMs(),
    nextRun:
      'The next `pulumi up` creates it (a record that shows up later would then be one more matching record; check the zone).',
  });
  return { id: record.id, object: record };
}

export const dnsRecordProvider = kindProvider(DNS_RECORD_FIELDS, {
  describe: (props, id) =>
    `DnsRecord ${String(props.host ?? '')} ${String(props.type ?? '')} (id ${id})`,
  fetch: (c, id) => c.dns.findRecord(Number(id)),
  create,
  edit: async (c, id, news) => {
    const wanted = spec(news);
    await writeIdempotent({
      what: `DnsRecord ${wanted.host} ${wanted.type} (id ${id}) edit`,
      write: () => c.dns.editRecord(Number(id), wanted),
      done: async () => {
        const now = await c.dns.getRecord(Number(id));
        return sameRecord(wanted)(now) && now.ttl === wanted.ttl;
      },
      windowMs: freeWriteWindowMs(),
    });
  },
  delete: (c, id, props) =>
    writeIdempotent({
      what: `DnsRecord ${String(props.host)} ${String(props.type)} (id ${id}) deletion`,
      write: () => c.dns.deleteRecord(Number(id)),
      done: async () => (await c.dns.findRecord(Number(id))) === undefined,
      windowMs: freeWriteWindowMs(),
    }),
  owned: true,
});

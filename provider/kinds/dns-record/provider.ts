import { DnsManager, type DnsResourceRecord } from '../../managers';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { DNS_RECORD_FIELDS } from './fields';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import type { InputsOf } from '../../framework/fields';
import { kindProvider, type CreateRequest } from '../../framework/kind-provider';

/**
 * `DnsRecord`: one record of a zone (`Dns_Domain_ResourceRecord`). A new type or zone replaces it;
 * host, data, TTL and MX priority are edited in place.
 */

type RecordInputs = InputsOf<typeof DNS_RECORD_FIELDS>;

const dns = (c: Connection) => c.use(DnsManager);

async function zoneIdOf(c: Connection, inputs: RecordInputs): Promise<number> {
  if (inputs.zoneId !== undefined) return inputs.zoneId;
  return (await dns(c).getZoneByName(String(inputs.zoneName), false)).id;
}

function spec(inputs: RecordInputs) {
  const { host, type, data, ttl } = inputs;
  return {
    host,
    type,
    data,
    ttl,
    ...(type === 'MX' ? { mxPriority: inputs.mxPriority ?? 10 } : {}),
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
async function create({ connection: c, inputs }: CreateRequest<typeof DNS_RECORD_FIELDS>) {
  const zoneId = await zoneIdOf(c, inputs);
  const wanted = spec(inputs);
  const matching = async () => (await dns(c).listRecords(zoneId)).filter(sameRecord(wanted));
  const before = new Set((await matching()).map((r) => r.id));
  const record = await createOnce({
    what: `DnsRecord ${wanted.host} ${wanted.type} in zone ${zoneId}`,
    write: () => dns(c).createRecord(zoneId, wanted),
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
  describe: (state, id) => `DnsRecord ${state.host ?? ''} ${state.type ?? ''} (id ${id})`,
  fetch: ({ connection, id }) => dns(connection).findRecord(Number(id)),
  create,
  edit: async ({ connection: c, id, inputs }) => {
    const wanted = spec(inputs);
    await writeIdempotent({
      what: `DnsRecord ${wanted.host} ${wanted.type} (id ${id}) edit`,
      write: () => dns(c).editRecord(Number(id), wanted),
      done: async () => {
        const now = await dns(c).getRecord(Number(id));
        return sameRecord(wanted)(now) && now.ttl === wanted.ttl;
      },
      windowMs: freeWriteWindowMs(),
    });
  },
  delete: ({ connection: c, id, state }) =>
    writeIdempotent({
      what: `DnsRecord ${state.host} ${state.type} (id ${id}) deletion`,
      write: () => dns(c).deleteRecord(Number(id)),
      done: async () => (await dns(c).findRecord(Number(id))) === undefined,
      windowMs: freeWriteWindowMs(),
    }),
  owned: true,
});

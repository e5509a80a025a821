import { DnsManager, type DnsResourceRecord, type DnsZone, type RecordSpec } from '../../managers';
import type { Failures } from '../../framework/failures';
import { isKnown, isUnknown } from '../../framework/unknown';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import {
  kindProvider,
  type CheckWithApiRequest,
  type CreateRequest,
  type Created,
  type DeleteRequest,
  type EditRequest,
  type OutputsRequest,
} from '../../framework/kind-provider';
import { dnsRecordProvider } from '../dns-record/provider';
import { DNS_ZONE_FIELDS } from './fields';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import type { InputsOf } from '../../framework/fields';
import { say } from '../../framework/log';

/**
 * `DnsZone`: a zone (`Svc_Dns_Domain`) with the records declared in `records`, which the zone
 * resource owns and keeps as declared. A zone the account already has is never taken over
 * silently (`adoptId` does that). Deleting the zone deletes every record in it, so a zone that
 * still holds records the stack does not own (made by hand or by another program) is refused
 * unless `forceDelete` is true in the state.
 *
 * Built on the framework (kind-provider.ts), from the table; what is the zone's own are its
 * records: checked with the DnsRecord rules, read back by the ids the state holds (which no table
 * read-back can follow: `ownedRecords`), and made to match the declared ones in place.
 */

type Fields = typeof DNS_ZONE_FIELDS;

const dns = (c: Connection) => c.use(DnsManager);

/** A declared record after the DnsRecord rules: upper-case type, default TTL. */
interface ZoneRecord extends RecordSpec {
  ttl: number;
}

/** Validates each record with the DnsRecord rules; failures name `records[i].field`. */
async function checkRecords(name: unknown, value: unknown, failures: Failures): Promise<unknown> {
  if (value === undefined || value === null) return [];
  if (isUnknown(value) || !Array.isArray(value)) {
    if (!isUnknown(value)) failures.add('records', 'records must be a list of records');
    return value;
  }
  const zoneName = typeof name === 'string' && !isUnknown(name) ? name : 'zone.example';
  return Promise.all(
    value.map(async (record: unknown, i) => {
      if (isUnknown(record)) return record;
      if (!record || typeof record !== 'object' || Array.isArray(record)) {
        failures.add(`records[${i}]`, `records[${i}] must be an object { host, type, data, ttl? }`);
        return record;
      }
      const { zoneId: _zoneId, zoneName: _zoneName, ...given } = record as Record<string, unknown>;
      const checked = await dnsRecordProvider.check({}, { ...given, zoneName });
      // The zone itself is checked once, as `name`.
      for (const f of (checked.failures ?? []).filter((f) => !/^zone(Id|Name)$/.test(f.property)))
        failures.add(`records[${i}].${f.property}`, `records[${i}].${f.reason}`);
      const { zoneName: _name, ...normalised } = (checked.inputs ?? given) as Record<
        string,
        unknown
      >;
      return normalised;
    }),
  );
}

async function checkExisting(
  c: Connection,
  inputs: InputsOf<Fields>,
  failures: Failures,
): Promise<void> {
  const { name } = inputs;
  const adoptId = isKnown(inputs.adoptId) ? String(inputs.adoptId) : undefined;
  let existing;
  try {
    existing = await dns(c).findZoneByName(name, false);
  } catch (err) {
    failures.add('name', `cannot look for a zone named ${name}: ${(err as Error).message}`);
    return;
  }
  if (existing && String(existing.id) !== adoptId) {
    failures.add(
      'name',
      `the account already has a zone named ${name} (id ${existing.id}). To manage it with this ` +
        `resource set adoptId: '${existing.id}' (destroying the resource then deletes the zone), ` +
        `or look it up with getDnsZone({ name: '${name}' }) and add DnsRecords to it`,
    );
  } else if (!existing && adoptId) {
    failures.add('adoptId', `adoptId: the account has no zone ${name} with id ${adoptId}`);
  }
}

/** A new zone (a create or a replace) must not take over one the account has, but by adoptId. */
async function checkNew({ connection, inputs, olds, failures }: CheckWithApiRequest<Fields>) {
  const isNew = olds.name !== inputs.name;
  if (isNew && !isUnknown(inputs.adoptId)) await checkExisting(connection, inputs, failures);
}

/** The identity of a record in its zone: host, type and data (the API keeps AAAA data in lower case). */
function sameRecord(declared: RecordSpec, actual: DnsResourceRecord): boolean {
  const type = declared.type.toUpperCase();
  const data = (value: string) => (type === 'AAAA' ? value.toLowerCase() : value);
  return (
    declared.host.toLowerCase() === actual.host.toLowerCase() &&
    type === actual.type.toUpperCase() &&
    data(declared.data) === data(actual.data)
  );
}

const sameSettings = (declared: ZoneRecord, actual: DnsResourceRecord) =>
  declared.ttl === actual.ttl &&
  (declared.type.toUpperCase() !== 'MX' || (declared.mxPriority ?? 10) === actual.mxPriority);

const recordSpec = (r: ZoneRecord): RecordSpec => ({
  host: r.host,
  type: r.type,
  data: r.data,
  ttl: r.ttl,
  ...(r.type.toUpperCase() === 'MX' ? { mxPriority: r.mxPriority ?? 10 } : {}),
});

/**
 * Makes the zone's own records what `declared` says: keeps the matching ones (editing TTL and MX
 * priority), creates the missing ones, deletes the ones no longer declared. Records the zone does
 * not own are left alone. Returns the owned ids in declared order.
 */
async function syncRecords(
  c: Connection,
  zoneId: number,
  declared: ZoneRecord[],
  ownedIds: number[],
): Promise<number[]> {
  const current = await dns(c).listRecords(zoneId);
  const owned = new Set(ownedIds);
  const unused = current.filter((r) => owned.has(r.id));
  const ids: number[] = [];
  for (const want of declared) {
    const match = unused.find((r) => sameRecord(want, r));
    if (match) {
      unused.splice(unused.indexOf(match), 1);
      if (!sameSettings(want, match)) await dns(c).editRecord(match.id, recordSpec(want));
      ids.push(match.id);
      continue;
    }
    const before = new Set((await dns(c).listRecords(zoneId)).map((r) => r.id));
    const made = await createOnce({
      what: `DnsZone record ${want.host} ${want.type}`,
      write: () => dns(c).createRecord(zoneId, recordSpec(want)),
      find: async () =>
        (await dns(c).listRecords(zoneId)).find((r) => !before.has(r.id) && sameRecord(want, r)),
      windowMs: freeWriteWindowMs(),
      nextRun: 'The next `pulumi up` looks for it again before it creates the record.',
    });
    ids.push(made.id);
  }
  for (const stale of unused) await dns(c).deleteRecord(stale.id);
  return ids;
}

function outputs(
  inputs: InputsOf<Fields>,
  zone: DnsZone,
  ids: { recordIds: number[]; builtInRecordIds: number[] },
) {
  // The serial as the API answers it (the table reads it the same way).
  const serial = (zone.serial ?? null) as number | null;
  return { ...inputs, zoneId: zone.id, serial, ...ids };
}

/** Pairs each declared record with a distinct matching one of `records` (the rest stay unused). */
function claimMatches(declared: ZoneRecord[], records: DnsResourceRecord[]) {
  const unused = [...records];
  const ids = declared.map((want) => {
    const match = unused.find((r) => sameRecord(want, r));
    if (match) unused.splice(unused.indexOf(match), 1);
    return match?.id;
  });
  return {
    ids: ids.filter((recordId) => recordId !== undefined),
    complete: !ids.includes(undefined),
    unused,
  };
}

async function create({
  connection: c,
  inputs,
}: CreateRequest<Fields>): Promise<Created<Fields, DnsZone>> {
  const { name } = inputs;
  const declared = inputs.records;
  if (inputs.adoptId !== undefined) {
    const zoneId = Number(inputs.adoptId);
    say(
      `DnsZone ${name}: adopting existing zone ${zoneId}; records it has and does not declare stay as they are`,
    );
    // Adopting the zone adopts the existing records that are declared, not the others.
    const { ids } = claimMatches(declared, await dns(c).listRecords(zoneId));
    const recordIds = await syncRecords(c, zoneId, declared, ids);
    const zone = await dns(c).getZone(zoneId, false);
    return {
      id: zoneId,
      object: zone,
      outs: outputs(inputs, zone, { recordIds, builtInRecordIds: [] }),
    };
  }
  // `check` found no zone of this name: one that shows up after a failed write is its effect.
  const zone = await createOnce({
    what: `DnsZone ${name}`,
    write: () => dns(c).createZone(name, declared.map(recordSpec)),
    find: () => dns(c).findZoneByName(name),
    windowMs: freeWriteWindowMs(),
    nextRun: 'The next `pulumi up` finds a zone of this name in check and names it for adoptId.',
  });
  const { ids, complete, unused } = claimMatches(
    declared,
    zone.resourceRecords ?? (await dns(c).listRecords(zone.id)),
  );
  // Records the API adds to a new zone (SOA, NS) belong to the zone as well.
  const builtInRecordIds = unused.map((r) => r.id);
  const recordIds = complete ? ids : await syncRecords(c, zone.id, declared, ids);
  return {
    id: zone.id,
    object: zone,
    outs: outputs(inputs, zone, { recordIds, builtInRecordIds }),
  };
}

/**
 * The records the zone owns, as the zone shows them: those of the owned ids (`recordIds` of
 * `props`, one per declared record), each as declared while it still is, else as it is now; a
 * record deleted behind Pulumi drops out (the next `up` makes it again).
 */
async function ownedRecords({ object: zone, state }: OutputsRequest<Fields, DnsZone>) {
  const byId = new Map((zone.resourceRecords ?? []).map((r) => [r.id, r]));
  const declared = state.records ?? [];
  const ownedIds = state.recordIds ?? [];
  const records: ZoneRecord[] = [];
  const recordIds: number[] = [];
  ownedIds.forEach((recordId, i) => {
    const actual = byId.get(recordId);
    if (!actual) return;
    const want = declared[i];
    const kept = want && sameRecord(want, actual) && sameSettings(want, actual);
    records.push(
      kept
        ? want
        : {
            host: actual.host,
            type: actual.type.toUpperCase(),
            data: actual.data,
            ttl: actual.ttl,
            ...(actual.type.toUpperCase() === 'MX' ? { mxPriority: actual.mxPriority ?? 10 } : {}),
          },
    );
    recordIds.push(recordId);
  });
  return { records, recordIds };
}

/** Makes the zone's records what `news` declares; the ids it owns then are outputs. */
async function editRecords({ connection: c, id, inputs, olds }: EditRequest<Fields>) {
  const owned = olds.recordIds ?? [];
  const declared = inputs.records;
  return { outs: { recordIds: await syncRecords(c, Number(id), declared, owned) } };
}

const describeRecord = (r: DnsResourceRecord) =>
  `${r.host} ${r.type.toUpperCase()} ${r.data} (id ${r.id})`;

async function remove({ connection, id, state }: DeleteRequest<Fields>): Promise<string> {
  const zones = dns(connection);
  const zone = await zones.findZone(Number(id), true);
  if (!zone) return 'already gone';
  const own = new Set([...(state.recordIds ?? []), ...(state.builtInRecordIds ?? [])]);
  const foreign = (zone.resourceRecords ?? []).filter((r) => !own.has(r.id));
  if (foreign.length > 0 && state.forceDelete !== true) {
    const shown = foreign.slice(0, 10).map(describeRecord).join(', ');
    const more = foreign.length > 10 ? ` and ${foreign.length - 10} more` : '';
    throw new Error(
      `DnsZone ${zone.name} (id ${id}) still has ${foreign.length} record(s) this stack does not own: ` +
        `${shown}${more}. Deleting the zone would delete them too, so it is refused. Delete those ` +
        `records, or set forceDelete: true on the zone and run \`pulumi up\` before destroying it.`,
    );
  }
  if (foreign.length > 0)
    say(
      `DnsZone ${zone.name} (id ${id}): forceDelete: deleting ${foreign.length} record(s) it does not own with it`,
    );
  await writeIdempotent({
    what: `DnsZone ${zone.name} (id ${id}) deletion`,
    write: () => zones.deleteZone(Number(id)),
    done: async () => (await zones.findZone(Number(id), false)) === undefined,
    windowMs: freeWriteWindowMs(),
  });
  return 'deleted';
}

export const dnsZoneProvider = kindProvider(DNS_ZONE_FIELDS, {
  describe: (state, id) => `DnsZone ${state.name ?? ''} (id ${id})`,
  fetch: ({ connection, id }) => dns(connection).findZone(Number(id), true),
  create,
  edit: editRecords,
  delete: remove,
  // Each record is checked with the DnsRecord rules (failures named `records[i].field`).
  checkRules: async ({ inputs, failures }) => ({
    records: (await checkRecords(inputs.name, inputs.records, failures)) as ZoneRecord[],
  }),
  checkWithApi: checkNew,
  outputs: ownedRecords,
  // An import declares the zone by its name alone: its records are imported as DnsRecords.
  importForm: async ({ inputs }) => ({ name: inputs.name }),
  owned: true,
});

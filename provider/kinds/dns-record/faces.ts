import type { DnsResourceRecord, DnsZone } from '../../managers';
import { ZONE_LIST } from '../dns-zone/faces';
import type { AdoptionFace } from '../faces';

/** A record with its zone's name, which names it in the import file. */
type ZonedRecord = DnsResourceRecord & { zoneName: string };

/**
 * A record as the audit adopts it: read inside its zone (owned or not), parented to its zone
 * when the zone is adopted with it, and following it through `--domain`. The SOA record is the
 * zone's own (the API derives it), never a record of its own.
 */
export const RECORD_ADOPTION: AdoptionFace<ZonedRecord, DnsZone> = {
  list: ZONE_LIST,
  objectsIn: (zone) =>
    (zone.resourceRecords ?? []).map((record) => ({ ...record, zoneName: zone.name })),
  adoptable: (record) => record.type.toUpperCase() !== 'SOA',
  name: (record) => `${record.host}-${record.type}-${record.zoneName}`,
  nameWord: 'record',
  parent: { kind: 'DnsZone', id: (record) => record.domainId },
  describedBy: {},
};

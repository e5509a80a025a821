import type { Client } from '../client';
import { DNSZoneNotFound, isNotFound } from '../client/errors';
import { unlessNotFound } from './not-found';
import type { DnsResourceRecord, DnsZone } from './types';

export const RECORD_MASK = 'id,domainId,host,type,data,ttl,mxPriority';

export interface RecordSpec {
  host: string;
  type: string;
  data: string;
  ttl?: number;
  mxPriority?: number;
}

/** DNS zones and their resource records. */
export class DnsManager {
  constructor(private readonly client: Client) {}

  async listZones(): Promise<DnsZone[]> {
    return (await this.client.call('Account', 'getDomains', {
      mask: 'id,name,serial',
    })) as DnsZone[];
  }

  async getZone(id: number, withRecords = true): Promise<DnsZone> {
    const mask = withRecords ? `id,name,serial,resourceRecords[${RECORD_MASK}]` : 'id,name,serial';
    return (await this.client.call('Dns_Domain', 'getObject', { id, mask })) as DnsZone;
  }

  /** The zone named `name` (case-insensitive) with its records; `DNSZoneNotFound` when absent. */
  async getZoneByName(name: string, withRecords = true): Promise<DnsZone> {
    const mask = withRecords ? `id,name,serial,resourceRecords[${RECORD_MASK}]` : 'id,name,serial';
    const zones = (await this.client.call('Dns_Domain', 'getByDomainName', {
      args: [name],
      mask,
    })) as DnsZone[];
    const zone = zones.find((z) => z.name.toLowerCase() === name.toLowerCase());
    if (!zone) throw new DNSZoneNotFound(name);
    return zone;
  }

  /** Creates the zone with its first records in one call. A write: never repeated by the client. */
  async createZone(name: string, records: RecordSpec[] = []): Promise<DnsZone> {
    return (await this.client.call('Dns_Domain', 'createObject', {
      args: [{ name, resourceRecords: records.map((r) => ({ ttl: 900, ...r })) }],
      mask: `id,name,serial,resourceRecords[${RECORD_MASK}]`,
    })) as DnsZone;
  }

  /** The zone, or undefined when it does not exist (or belongs to another account). */
  findZone(id: number, withRecords = true): Promise<DnsZone | undefined> {
    return unlessNotFound(this.getZone(id, withRecords));
  }

  /** The zone named `name` (case-insensitive), or undefined. */
  async findZoneByName(name: string, withRecords = true): Promise<DnsZone | undefined> {
    try {
      return await this.getZoneByName(name, withRecords);
    } catch (err) {
      if (err instanceof DNSZoneNotFound) return undefined;
      throw err;
    }
  }

  /** Deletes the zone and every record in it; one that is already gone counts as deleted. */
  async deleteZone(id: number): Promise<void> {
    try {
      await this.client.call('Dns_Domain', 'deleteObject', { id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async listRecords(zoneId: number): Promise<DnsResourceRecord[]> {
    return (await this.client.call('Dns_Domain', 'getResourceRecords', {
      id: zoneId,
      mask: RECORD_MASK,
    })) as DnsResourceRecord[];
  }

  async getRecord(id: number): Promise<DnsResourceRecord> {
    return (await this.client.call('Dns_Domain_ResourceRecord', 'getObject', {
      id,
      mask: RECORD_MASK,
    })) as DnsResourceRecord;
  }

  /** The record, or undefined when it no longer exists. */
  findRecord(id: number): Promise<DnsResourceRecord | undefined> {
    return unlessNotFound(this.getRecord(id));
  }

  async createRecord(zoneId: number, spec: RecordSpec): Promise<DnsResourceRecord> {
    const record = { domainId: zoneId, ttl: 900, ...spec };
    return (await this.client.call('Dns_Domain_ResourceRecord', 'createObject', {
      args: [record],
    })) as DnsResourceRecord;
  }

  async editRecord(id: number, changes: Partial<RecordSpec>): Promise<void> {
    await this.client.call('Dns_Domain_ResourceRecord', 'editObject', { id, args: [changes] });
  }

  /** Deletes the record; one that is already gone counts as deleted. */
  async deleteRecord(id: number): Promise<void> {
    try {
      await this.client.call('Dns_Domain_ResourceRecord', 'deleteObject', { id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

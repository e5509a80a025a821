import { RECORD_MASK, type DnsZone } from '../../managers';
import type { AdoptionFace } from '../faces';

/** The account's zones with their records: the zones' adoption and their records' read it once. */
export const ZONE_LIST = {
  service: 'Account',
  method: 'getDomains',
  mask: `id,name,resourceRecords[${RECORD_MASK}]`,
};

/** A zone as the audit adopts it: by its name; its state holds its records too. */
export const ZONE_ADOPTION: AdoptionFace<DnsZone> = {
  list: ZONE_LIST,
  adoptable: () => true,
  holds: (outputs) => ({
    DnsRecord: ['recordIds', 'builtInRecordIds'].flatMap((list) => {
      const ids = outputs[list];
      return Array.isArray(ids) ? ids : [];
    }),
  }),
  name: (zone) => `zone-${zone.name}`,
  nameWord: 'zone',
  describedBy: { domain: (zone) => zone.name },
};

import type {
  DnsResourceRecord,
  DnsZone,
  SecurityGroup,
  SshKey,
  VirtualGuest,
} from '../provider/managers';
import { tagNames } from '../provider/managers';
import { kindOf, pluginToken } from '../provider/kinds/tokens';
import { GUEST_BILLING } from '../provider/kinds/virtual-guest';
import type { StackState } from './pulumi';

/**
 * What of the account no stack owns, and Pulumi's bulk import file for it (`pulumi import
 * --file`). "Owned" means, per kind:
 * - a guest: its id is in an audited state, or it carries this provider's tags (the owned tag:
 *   a completed create of some stack, perhaps of a backend not audited; a creation token alone:
 *   an unfinished create, which the next `up` of its stack takes over). Only guests with neither
 *   are adopted; the tagged ones are the audit's orphans;
 * - an SSH key, a zone, a record, a security group: its id is in an audited state (a record also through its
 *   zone's `records`). They carry no tags, so an object a stack of another backend (or one not
 *   named with `--stack`) holds looks unowned: audit every stack that may own them.
 */

/** Everything of the account the adoption looks at. */
export interface AccountObjects {
  guests: VirtualGuest[];
  keys: SshKey[];
  /** With their records. */
  zones: DnsZone[];
  securityGroups: SecurityGroup[];
}

/** Narrows what is adopted; each filter keeps the objects it can describe (README). */
export interface AdoptFilters {
  datacenter?: string;
  /** Glob (`*`, `?`) on a guest's hostname. */
  hostname?: string;
  /** Glob on a guest's domain and a zone's name (a record follows its zone). */
  domain?: string;
  /** A guest tag. */
  tag?: string;
}

/** One entry of Pulumi's bulk import file. */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
  /** The name of another entry of the file (a record's zone). */
  parent?: string;
}

export interface Unowned {
  guests: VirtualGuest[];
  keys: SshKey[];
  zones: DnsZone[];
  records: DnsResourceRecord[];
  securityGroups: SecurityGroup[];
  /** Every zone's name by id (a record's name says its zone, owned or not). */
  zoneNames: Map<number, string>;
}

/** The ids each kind's states hold (a zone's own records among the records). */
function ownedIds(states: StackState[]): Record<string, Set<string>> {
  const owned: Record<string, Set<string>> = {
    VirtualGuest: new Set(),
    SshKey: new Set(),
    DnsZone: new Set(),
    DnsRecord: new Set(),
    SecurityGroup: new Set(),
  };
  for (const resource of states.flatMap((s) => s.resources)) {
    const kind = kindOf(resource.type);
    if (!kind || !resource.id || !owned[kind]) continue;
    owned[kind].add(resource.id);
    if (kind !== 'DnsZone') continue;
    for (const list of ['recordIds', 'builtInRecordIds']) {
      const ids = resource.outputs?.[list];
      if (Array.isArray(ids)) for (const id of ids) owned.DnsRecord.add(String(id));
    }
  }
  return owned;
}

/** The account's objects that no audited stack owns (see the module comment). */
export function unownedObjects(states: StackState[], account: AccountObjects): Unowned {
  const owned = ownedIds(states);
  const free = (kind: string, id: number) => !owned[kind].has(String(id));
  return {
    // A guest with this provider's tags is an orphan of the audit, never adopted.
    guests: account.guests.filter(
      (g) => free('VirtualGuest', g.id) && GUEST_BILLING.audit.provenance(g) === 'none',
    ),
    keys: account.keys.filter((k) => free('SshKey', k.id)),
    zones: account.zones.filter((z) => free('DnsZone', z.id)),
    // The SOA record is the zone's own (the API derives it), never a record of its own.
    records: account.zones
      .flatMap((z) => z.resourceRecords ?? [])
      .filter((r) => free('DnsRecord', r.id) && r.type.toUpperCase() !== 'SOA'),
    securityGroups: account.securityGroups.filter((g) => free('SecurityGroup', g.id)),
    zoneNames: new Map(account.zones.map((z) => [z.id, z.name])),
  };
}

/** A case-insensitive glob (`*`, `?`) as a test. */
export function globTest(pattern: string): (text: string) => boolean {
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${source}$`, 'i');
  return (text) => re.test(text);
}

/**
 * The objects the filters keep. A filter leaves out the kinds it cannot describe: with
 * `--datacenter`, `--hostname` or `--tag` only guests are kept; with `--domain`, guests of the
 * domain and zones of that name with their records.
 */
export function narrowed(unowned: Unowned, filters: AdoptFilters): Unowned {
  const matches = (pattern: string | undefined, text: string) =>
    pattern === undefined || globTest(pattern)(text);
  const guestsOnly = [filters.datacenter, filters.hostname, filters.tag].some(
    (f) => f !== undefined,
  );
  const guests = unowned.guests.filter(
    (g) =>
      matches(filters.datacenter, g.datacenter?.name ?? '') &&
      matches(filters.hostname, g.hostname) &&
      matches(filters.domain, g.domain) &&
      (filters.tag === undefined || tagNames(g).includes(filters.tag.trim().toLowerCase())),
  );
  const { zoneNames } = unowned;
  if (guestsOnly)
    return { guests, keys: [], zones: [], records: [], securityGroups: [], zoneNames };
  const zones = unowned.zones.filter((z) => matches(filters.domain, z.name));
  const zoneIds = new Set(zones.map((z) => z.id));
  return {
    guests,
    keys: filters.domain === undefined ? unowned.keys : [],
    zones,
    records: unowned.records.filter((r) => filters.domain === undefined || zoneIds.has(r.domainId)),
    securityGroups: filters.domain === undefined ? unowned.securityGroups : [],
    zoneNames,
  };
}

/**
 * A resource name from free text: lower-case letters, digits and underscores, starting with a
 * letter; an identifier in every language the import writes (a dash makes YAML write
 * `${["web-1"]}` for a reference).
 */
function slug(text: string, kindWord: string): string {
  const base = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return /^[a-z]/.test(base) ? base : `${kindWord}_${base || 'unnamed'}`;
}

/**
 * Pulumi's bulk import file for these objects: plugin type tokens, names that are valid in every
 * language and stable (from the object's own names, the same account gives the same file; a
 * name two objects would share gets each one's id appended) and records parented to their zone
 * when the zone is in the file.
 */
interface Candidate {
  kind: string;
  id: number;
  /** The name unless another object would have it too. */
  base: string;
  /** A record's zone, when the zone is adopted with it. */
  zone?: number;
}

export function importFile(objects: Unowned): { resources: ImportEntry[] } {
  const adopted = new Set(objects.zones.map((z) => z.id));
  const zoneName = (id: number) => objects.zoneNames.get(id) ?? String(id);
  const candidates: Candidate[] = [
    ...objects.zones.map((z) => ({
      kind: 'DnsZone',
      id: z.id,
      base: slug(`zone-${z.name}`, 'zone'),
    })),
    ...objects.records.map((r) => ({
      kind: 'DnsRecord',
      id: r.id,
      base: slug(`${r.host}-${r.type}-${zoneName(r.domainId)}`, 'record'),
      zone: adopted.has(r.domainId) ? r.domainId : undefined,
    })),
    ...objects.keys.map((k) => ({ kind: 'SshKey', id: k.id, base: slug(`key-${k.label}`, 'key') })),
    ...objects.securityGroups.map((g) => ({
      kind: 'SecurityGroup',
      id: g.id,
      base: slug(`sg-${g.name ?? ''}`, 'sg'),
    })),
    ...objects.guests.map((g) => ({
      kind: 'VirtualGuest',
      id: g.id,
      base: slug(`${g.hostname}-${g.domain}`, 'guest'),
    })),
  ];
  const uses = new Map<string, number>();
  for (const c of candidates) uses.set(c.base, (uses.get(c.base) ?? 0) + 1);
  const nameOf = (c: Candidate) => (uses.get(c.base)! > 1 ? `${c.base}_${c.id}` : c.base);
  const zoneEntry = new Map(
    candidates.filter((c) => c.kind === 'DnsZone').map((c) => [c.id, nameOf(c)]),
  );
  return {
    resources: candidates.map((c) => {
      const parent = c.zone === undefined ? undefined : zoneEntry.get(c.zone);
      return {
        type: pluginToken(c.kind),
        name: nameOf(c),
        id: String(c.id),
        ...(parent ? { parent } : {}),
      };
    }),
  };
}

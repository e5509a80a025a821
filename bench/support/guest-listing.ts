/**
 * A deterministic `Account.getVirtualGuests`-like listing (libraries.md §1.6): structs of 17
 * members (ids, host names, FQDNs, flags, a double, an API-style date string, a note that holds
 * `&` or `<` in one row out of ten, and a nested 3-member datacenter struct).
 */

export interface GuestRow {
  [key: string]: string | number | boolean | { [key: string]: string | number };
}

const DATACENTERS = [
  { id: 265592, name: 'dal10', longName: 'Dallas 10' },
  { id: 814994, name: 'ams03', longName: 'Amsterdam 3' },
  { id: 449612, name: 'wdc07', longName: 'Washington 7' },
  { id: 1441195, name: 'fra02', longName: 'Frankfurt 2' },
];

export function buildGuestListing(count: number, seed = 42): GuestRow[] {
  const random = mulberry32(seed);
  const rows: GuestRow[] = [];
  for (let i = 0; i < count; i++) {
    const id = 10_000_000 + i * 7;
    const hostname = `web-${i.toString(36)}-${Math.floor(random() * 1e6)}`;
    const domain = `svc-${i % 17}.example.com`;
    const note =
      i % 10 === 0
        ? `Migrated from <legacy> rack ${i} & re-imaged; owner: ops & on-call`
        : `Standard web node ${i}, managed by the platform team, ticket SVC-${id}`;
    rows.push({
      id,
      globalIdentifier: `${hex(random, 8)}-${hex(random, 4)}-${hex(random, 4)}-${hex(random, 12)}`,
      hostname,
      domain,
      fullyQualifiedDomainName: `${hostname}.${domain}`,
      startCpus: 1 + Math.floor(random() * 16),
      maxMemory: 1024 * (1 + Math.floor(random() * 64)),
      hourlyBillingFlag: random() < 0.8,
      localDiskFlag: random() < 0.3,
      dedicatedAccountHostOnlyFlag: false,
      privateNetworkOnlyFlag: random() < 0.1,
      primaryIpAddress: `169.${i % 256}.${(i >> 8) % 256}.${Math.floor(random() * 254) + 1}`,
      primaryBackendIpAddress: `10.${i % 256}.${(i >> 8) % 256}.${Math.floor(random() * 254) + 1}`,
      createDate: `2024-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}T${pad(i % 24)}:${pad(i % 60)}:00-06:00`,
      recurringFee: Math.round(random() * 100_000) / 1000 + 0.001,
      notes: note,
      datacenter: { ...DATACENTERS[i % DATACENTERS.length] },
    });
  }
  return rows;
}

/** Small, fast, seedable PRNG (public-domain mulberry32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

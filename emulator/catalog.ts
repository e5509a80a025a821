/**
 * What can be ordered and what it costs: datacenters, operating systems, CPU counts, memory
 * sizes, network speeds and disks, with hourly and monthly prices as the API writes them
 * (decimal strings like ".025"). Static: the same in every account and every run.
 */
export interface Datacenter {
  id: number;
  /** The short name used in orders and filters, e.g. `dal10`. */
  name: string;
  longName: string;
  /** The region keyname the API lists for it, e.g. `DALLAS13`. */
  region: string;
  /** The pricing location group whose prices apply there; none means the default prices. */
  priceGroupId?: number;
}

/**
 * Pricing location groups: an item's default price (locationGroupId null) applies everywhere
 * else; in these datacenters its price is multiplied by `factor` (the API keeps a separate price
 * per group; one factor per group is this emulator's model).
 */
export interface PriceGroup {
  id: number;
  name: string;
  description: string;
  factor: number;
}

export const PRICE_GROUPS: readonly PriceGroup[] = [
  { id: 509, name: 'Location Group 1', description: 'Location Group 1', factor: 1.02 },
  { id: 503, name: 'Location Group 2', description: 'Location Group 2', factor: 1.05 },
  { id: 505, name: 'Location Group 3', description: 'Location Group 3', factor: 1.1 },
  { id: 507, name: 'Location Group 4', description: 'Location Group 4', factor: 1.25 },
];

const dc = (name: string, id: number, city: string, priceGroupId?: number): Datacenter => {
  const number = Number(name.slice(3));
  return {
    id,
    name,
    longName: `${city} ${number}`,
    region: `${city.toUpperCase().replace(/[^A-Z]/g, '')}${name.slice(3)}`,
    priceGroupId,
  };
};

/**
 * Real short names and cities. The ids of dal10, dal12, dal13, wdc07, fra02, ams03, sao01,
 * tor01 and mon01 are the API's own (seen in public API examples); the others are stable ids of
 * this emulator. The six datacenters first offered keep the default prices.
 */
export const DATACENTERS: readonly Datacenter[] = [
  dc('dal10', 1441195, 'Dallas'),
  dc('wdc07', 2017603, 'Washington'),
  dc('lon06', 998907, 'London'),
  dc('fra02', 449506, 'Frankfurt'),
  dc('tok02', 449604, 'Tokyo'),
  dc('syd01', 449596, 'Sydney'),
  dc('dal12', 1854795, 'Dallas'),
  dc('dal13', 1854895, 'Dallas'),
  dc('wdc04', 957095, 'Washington'),
  dc('wdc06', 2017601, 'Washington'),
  dc('sjc03', 1689301, 'San Jose'),
  dc('sjc04', 1689311, 'San Jose'),
  dc('tor01', 448994, 'Toronto', 503),
  dc('mon01', 449610, 'Montreal', 503),
  dc('sao01', 983497, 'Sao Paulo', 507),
  dc('ams03', 814994, 'Amsterdam', 503),
  dc('lon02', 358694, 'London', 509),
  dc('lon04', 1795055, 'London', 509),
  dc('lon05', 1795065, 'London', 509),
  dc('fra04', 2356171, 'Frankfurt', 509),
  dc('fra05', 2356179, 'Frankfurt', 509),
  dc('par01', 449500, 'Paris', 509),
  dc('mil01', 1727451, 'Milan', 509),
  dc('mad02', 2612703, 'Madrid', 509),
  dc('che01', 1555995, 'Chennai', 505),
  dc('sng01', 224092, 'Singapore', 505),
  dc('osa21', 2343761, 'Osaka', 505),
  dc('tok04', 2344351, 'Tokyo', 505),
  dc('tok05', 2344361, 'Tokyo', 505),
  dc('syd04', 1442433, 'Sydney', 505),
  dc('syd05', 2343675, 'Sydney', 505),
];

export const DEFAULT_DATACENTER = DATACENTERS[0];

export interface OperatingSystem {
  referenceCode: string;
  name: string;
  version: string;
  manufacturer: string;
  description: string;
  hourly: number;
  /** `*_LATEST` codes are aliases: a guest records the concrete code they resolve to. */
  aliasOf?: string;
}

const os = (
  referenceCode: string,
  name: string,
  version: string,
  manufacturer: string,
  description: string,
  hourly = 0,
  aliasOf?: string,
): OperatingSystem => ({
  referenceCode,
  name,
  version,
  manufacturer,
  description,
  hourly,
  aliasOf,
});

/** Price ids follow the position in this list: new codes go at the end. */
export const OPERATING_SYSTEMS: readonly OperatingSystem[] = [
  os(
    'UBUNTU_LATEST',
    'Ubuntu',
    '24.04-64 LTS',
    'Canonical',
    'Ubuntu Linux (latest LTS, 64 bit)',
    0,
    'UBUNTU_24_64',
  ),
  os(
    'UBUNTU_22_64',
    'Ubuntu',
    '22.04-64 LTS',
    'Canonical',
    'Ubuntu Linux 22.04 LTS Jammy Jellyfish (64 bit)',
  ),
  os(
    'UBUNTU_24_64',
    'Ubuntu',
    '24.04-64 LTS',
    'Canonical',
    'Ubuntu Linux 24.04 LTS Noble Numbat (64 bit)',
  ),
  os(
    'DEBIAN_12_64',
    'Debian',
    '12.0.0-64',
    'Debian',
    'Debian GNU/Linux 12.x Bookworm/Stable (64 bit)',
  ),
  os('CENTOS_STREAM_9_64', 'CentOS', 'Stream 9-64', 'CentOS', 'CentOS Stream 9 (64 bit)'),
  os(
    'WIN_2022-STD_64',
    'Windows 2022',
    'Standard Edition 64 bit',
    'Microsoft',
    'Windows Server 2022 Standard Edition (64 bit)',
    0.06,
  ),
  os(
    'UBUNTU_20_64',
    'Ubuntu',
    '20.04-64 LTS',
    'Canonical',
    'Ubuntu Linux 20.04 LTS Focal Fossa (64 bit)',
  ),
  os(
    'DEBIAN_11_64',
    'Debian',
    '11.0.0-64',
    'Debian',
    'Debian GNU/Linux 11.x Bullseye/Stable (64 bit)',
  ),
  os(
    'DEBIAN_LATEST',
    'Debian',
    '12.0.0-64',
    'Debian',
    'Debian GNU/Linux (latest, 64 bit)',
    0,
    'DEBIAN_12_64',
  ),
  os('REDHAT_8_64', 'Redhat', '8.0-64', 'Redhat', 'Red Hat Enterprise Linux 8.x (64 bit)', 0.045),
  os('REDHAT_9_64', 'Redhat', '9.0-64', 'Redhat', 'Red Hat Enterprise Linux 9.x (64 bit)', 0.045),
  os(
    'REDHAT_LATEST',
    'Redhat',
    '9.0-64',
    'Redhat',
    'Red Hat Enterprise Linux (latest, 64 bit)',
    0.045,
    'REDHAT_9_64',
  ),
  os(
    'ROCKYLINUX_9_64',
    'Rocky Linux',
    '9.x-64',
    'Rocky Enterprise Software Foundation',
    'Rocky Linux 9.x (64 bit)',
  ),
  os('ALMALINUX_9_64', 'AlmaLinux', '9.x-64', 'AlmaLinux OS Foundation', 'AlmaLinux 9.x (64 bit)'),
  os(
    'WIN_2019-STD_64',
    'Windows 2019',
    'Standard Edition 64 bit',
    'Microsoft',
    'Windows Server 2019 Standard Edition (64 bit)',
    0.06,
  ),
  os(
    'WIN_LATEST',
    'Windows 2022',
    'Standard Edition 64 bit',
    'Microsoft',
    'Windows Server (latest Standard Edition, 64 bit)',
    0.06,
    'WIN_2022-STD_64',
  ),
];

/** The core counts and memory sizes (MB) of the public virtual server package. */
export const CPU_OPTIONS: readonly number[] = [1, 2, 4, 8, 12, 16, 32, 48, 56];
export const MEMORY_OPTIONS: readonly number[] = [
  1024, 2048, 4096, 6144, 8192, 12288, 16384, 32768, 49152, 65536, 131072, 196608, 247808,
];
export const NETWORK_SPEEDS: readonly number[] = [10, 100, 1000];
export const DEFAULT_NETWORK_SPEED = 100;
export const DISK_SIZES: readonly number[] = [25, 100];
export const EXTRA_DISK_SIZES: readonly number[] = [25, 100, 250, 500, 1000, 2000];
/** Disk positions: 0 is the boot disk, 1-4 data disks (categories guest_disk0 .. guest_disk4). */
export const MAX_DISKS = 5;
export const ALL_DISK_SIZES: readonly number[] = [
  ...new Set([...DISK_SIZES, ...EXTRA_DISK_SIZES]),
].sort((a, b) => a - b);
/** The disk positions a size is offered in (the boot disk has fewer sizes). */
export const diskPositions = (gb: number): number[] =>
  Array.from({ length: MAX_DISKS }, (_, i) => i).filter((i) =>
    (i === 0 ? DISK_SIZES : EXTRA_DISK_SIZES).includes(gb),
  );

const HOURS_PER_MONTH = 730;
const CPU_HOURLY = 0.025;
const GB_HOURLY = 0.012;
const NIC_HOURLY: Record<number, number> = { 10: 0, 100: 0, 1000: 0.04 };
const DISK_GB_HOURLY = 0.0001;

/** The API's decimal strings: no leading zero, no trailing zeros (".025", "18.25", "0"). */
export function money(amount: number, decimals: number): string {
  const fixed = amount.toFixed(decimals).replace(/\.?0+$/, '');
  if (fixed === '' || fixed === '0') return '0';
  return fixed.startsWith('0.') ? fixed.slice(1) : fixed;
}

export interface Price {
  id: number;
  hourly: number;
  description: string;
  /** The item category, as billing items show it (`guest_core`, `ram`, `os`, ...). */
  categoryCode: string;
  /** The pricing location group of a datacenter-specific price; undefined for the default. */
  locationGroupId?: number;
}

const priceOf = (id: number, hourly: number, description: string, categoryCode: string): Price => ({
  id,
  hourly,
  description,
  categoryCode,
});

export const cpuPrice = (cpus: number) =>
  priceOf(
    1640 + cpus,
    CPU_HOURLY * cpus,
    `${cpus} x 2.0 GHz or higher Core${cpus > 1 ? 's' : ''}`,
    'guest_core',
  );
export const memoryPrice = (mb: number) =>
  priceOf(1700 + mb / 1024, (GB_HOURLY * mb) / 1024, `${mb / 1024} GB`, 'ram');
export const osPrice = (os: OperatingSystem) =>
  priceOf(13000 + OPERATING_SYSTEMS.indexOf(os), os.hourly, os.description, 'os');
export const networkPrice = (speed: number) =>
  priceOf(
    2700 + speed,
    NIC_HOURLY[speed] ?? 0,
    `${speed} Mbps Public & Private Network Uplinks`,
    'port_speed',
  );
/** `disk` is the disk's position (0 for the boot disk): categories guest_disk0, guest_disk1, ... */
export const diskPrice = (gb: number, local: boolean, disk = 0) =>
  priceOf(
    local ? 3800 + gb : 3900 + gb,
    DISK_GB_HOURLY * gb,
    `${gb} GB (${local ? 'LOCAL' : 'SAN'})`,
    `guest_disk${disk}`,
  );

/**
 * What a transient guest pays of each price: the API may reclaim such a guest at any time, so it
 * is cheaper (this emulator's model: a fixed share of every hourly fee, rounded to 4 decimals).
 */
export const TRANSIENT_SHARE = 0.4;
export const transientPrice = (price: Price): Price => ({
  ...price,
  hourly: Math.round(price.hourly * TRANSIENT_SHARE * 10_000) / 10_000,
});

export const priceGroupOf = (datacenter: Datacenter) =>
  PRICE_GROUPS.find((g) => g.id === datacenter.priceGroupId);

/**
 * The price that applies in `datacenter`: the default one, or its location group's (another
 * price id, the fee times the group's factor, rounded to the API's four decimals).
 */
export function priceAt(price: Price, datacenter: Datacenter): Price {
  const group = priceGroupOf(datacenter);
  return group ? priceInGroup(price, group) : price;
}

/** A default price as its location group prices it (another id, the fee times the factor). */
export function priceInGroup(price: Price, group: PriceGroup): Price {
  return {
    ...price,
    id: price.id + 100_000 * (PRICE_GROUPS.indexOf(group) + 1),
    hourly: Math.round(price.hourly * group.factor * 10_000) / 10_000,
    locationGroupId: group.id,
  };
}

/** `{id, hourlyRecurringFee, recurringFee, locationGroupId, item:{description}}`. */
export function itemPrice(price: Price): Record<string, unknown> {
  return {
    id: price.id,
    hourlyRecurringFee: money(price.hourly, 4),
    recurringFee: money(price.hourly * HOURS_PER_MONTH, 2),
    locationGroupId: price.locationGroupId ?? null,
    item: { description: price.description },
  };
}

export const monthlyFromHourly = (hourly: number) => hourly * HOURS_PER_MONTH;

/** What a verified order container shows of what it bills: by the hour, the month, recurring. */
export const orderTotals = (hourly: number) => ({
  postTaxRecurringHourly: money(hourly, 4),
  postTaxRecurringMonthly: money(monthlyFromHourly(hourly), 2),
  postTaxRecurring: money(monthlyFromHourly(hourly), 2),
});

/** One ordered price as a verified container lists it, with its category and item. */
export const orderedPrice = (
  price: Price,
  item: { id: number; keyName: string; description: string; category: string },
) => ({
  ...itemPrice(price),
  categories: [{ categoryCode: item.category }],
  item: { id: item.id, keyName: item.keyName, description: item.description },
});

/** A billing item's fees for an hourly price, as the API writes them. */
export const recurringFees = (hourly: number) => ({
  hourlyRecurringFee: money(hourly, 4),
  recurringFee: money(monthlyFromHourly(hourly), 2),
});

export const findDatacenter = (name: string) =>
  DATACENTERS.find((d) => d.name === name.toLowerCase());
export const datacenterById = (id: number) => DATACENTERS.find((d) => d.id === id);
export const findOs = (code: string) =>
  OPERATING_SYSTEMS.find((o) => o.referenceCode === code.toUpperCase());

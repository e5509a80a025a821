/**
 * What can be ordered and what it costs: datacenters, operating systems, CPU counts, memory
 * sizes, network speeds and disks, with hourly and monthly prices as the API writes them
 * (decimal strings like ".025"). Static: the same in every account and every run.
 */
export interface Datacenter {
  id: number;
  name: string;
  longName: string;
}

export const DATACENTERS: readonly Datacenter[] = [
  { id: 1441195, name: 'dal10', longName: 'Dallas 10' },
  { id: 2017603, name: 'wdc07', longName: 'Washington 7' },
  { id: 998907, name: 'lon06', longName: 'London 6' },
  { id: 449506, name: 'fra02', longName: 'Frankfurt 2' },
  { id: 449604, name: 'tok02', longName: 'Tokyo 2' },
  { id: 449596, name: 'syd01', longName: 'Sydney 1' },
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

export const OPERATING_SYSTEMS: readonly OperatingSystem[] = [
  {
    referenceCode: 'UBUNTU_LATEST',
    name: 'Ubuntu',
    version: '24.04-64 LTS',
    manufacturer: 'Canonical',
    description: 'Ubuntu Linux (latest LTS, 64 bit)',
    hourly: 0,
    aliasOf: 'UBUNTU_24_64',
  },
  {
    referenceCode: 'UBUNTU_22_64',
    name: 'Ubuntu',
    version: '22.04-64 LTS',
    manufacturer: 'Canonical',
    description: 'Ubuntu Linux 22.04 LTS Jammy Jellyfish (64 bit)',
    hourly: 0,
  },
  {
    referenceCode: 'UBUNTU_24_64',
    name: 'Ubuntu',
    version: '24.04-64 LTS',
    manufacturer: 'Canonical',
    description: 'Ubuntu Linux 24.04 LTS Noble Numbat (64 bit)',
    hourly: 0,
  },
  {
    referenceCode: 'DEBIAN_12_64',
    name: 'Debian',
    version: '12.0.0-64',
    manufacturer: 'Debian',
    description: 'Debian GNU/Linux 12.x Bookworm/Stable (64 bit)',
    hourly: 0,
  },
  {
    referenceCode: 'CENTOS_STREAM_9_64',
    name: 'CentOS',
    version: 'Stream 9-64',
    manufacturer: 'CentOS',
    description: 'CentOS Stream 9 (64 bit)',
    hourly: 0,
  },
  {
    referenceCode: 'WIN_2022-STD_64',
    name: 'Windows 2022',
    version: 'Standard Edition 64 bit',
    manufacturer: 'Microsoft',
    description: 'Windows Server 2022 Standard Edition (64 bit)',
    hourly: 0.06,
  },
];

export const CPU_OPTIONS: readonly number[] = [1, 2, 4, 8, 16];
export const MEMORY_OPTIONS: readonly number[] = [1024, 2048, 4096, 8192, 16384, 32768, 65536];
export const NETWORK_SPEEDS: readonly number[] = [10, 100, 1000];
export const DEFAULT_NETWORK_SPEED = 100;
export const DISK_SIZES: readonly number[] = [25, 100];
export const EXTRA_DISK_SIZES: readonly number[] = [25, 100, 250, 500, 1000, 2000];

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
}

const priceOf = (id: number, hourly: number, description: string): Price => ({
  id,
  hourly,
  description,
});

export const cpuPrice = (cpus: number) =>
  priceOf(1640 + cpus, CPU_HOURLY * cpus, `${cpus} x 2.0 GHz or higher Core${cpus > 1 ? 's' : ''}`);
export const memoryPrice = (mb: number) =>
  priceOf(1700 + mb / 1024, (GB_HOURLY * mb) / 1024, `${mb / 1024} GB`);
export const osPrice = (os: OperatingSystem) =>
  priceOf(13000 + OPERATING_SYSTEMS.indexOf(os), os.hourly, os.description);
export const networkPrice = (speed: number) =>
  priceOf(2700 + speed, NIC_HOURLY[speed] ?? 0, `${speed} Mbps Public & Private Network Uplinks`);
export const diskPrice = (gb: number, local: boolean) =>
  priceOf(
    local ? 3800 + gb : 3900 + gb,
    DISK_GB_HOURLY * gb,
    `${gb} GB (${local ? 'LOCAL' : 'SAN'})`,
  );

/** `{hourlyRecurringFee, recurringFee, item:{description}}` as in getCreateObjectOptions. */
export function itemPrice(price: Price): Record<string, unknown> {
  return {
    id: price.id,
    hourlyRecurringFee: money(price.hourly, 4),
    recurringFee: money(price.hourly * HOURS_PER_MONTH, 2),
    item: { description: price.description },
  };
}

export const monthlyFromHourly = (hourly: number) => hourly * HOURS_PER_MONTH;

export const findDatacenter = (name: string) =>
  DATACENTERS.find((d) => d.name === name.toLowerCase());
export const datacenterById = (id: number) => DATACENTERS.find((d) => d.id === id);
export const findOs = (code: string) =>
  OPERATING_SYSTEMS.find((o) => o.referenceCode === code.toUpperCase());

export const TICKET_SUBJECTS: readonly { id: number; name: string }[] = [
  { id: 1001, name: 'Accounting Request' },
  { id: 1002, name: 'Sales Request' },
  { id: 1003, name: 'Reboots and Console Access' },
  { id: 1004, name: 'DNS Request' },
  { id: 1005, name: 'Hardware Issue' },
];

export const TICKET_STATUSES: Record<number, string> = { 1001: 'Open', 1002: 'Closed' };
export const TICKET_OPEN = 1001;
export const TICKET_CLOSED = 1002;

export const DNS_RECORD_TYPES: readonly string[] = [
  'a',
  'aaaa',
  'cname',
  'mx',
  'ns',
  'ptr',
  'soa',
  'spf',
  'srv',
  'txt',
];

/**
 * The product packages that sell virtual guests, derived from the catalog (../../catalog.ts is
 * the one list of what can be ordered and what it costs): one item per CPU count, memory size,
 * operating system, port speed and disk size (local and SAN), each with its default price and
 * one price per pricing location group; presets (flavors) combining a CPU count, a memory size
 * and a boot disk of the catalog; the regions (one per datacenter). Nothing here is stored.
 */
import {
  ALL_DISK_SIZES,
  CPU_OPTIONS,
  DATACENTERS,
  DISK_SIZES,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  OPERATING_SYSTEMS,
  PRICE_GROUPS,
  cpuPrice,
  diskPositions,
  diskPrice,
  memoryPrice,
  networkPrice,
  osPrice,
  priceInGroup,
  type Datacenter,
  type OperatingSystem,
  type Price,
} from '../../catalog';
import {
  STORAGE_CATEGORIES,
  STORAGE_ITEMS,
  STORAGE_PACKAGE,
  STORAGE_PRICES,
} from './storage-items';
import { VLAN_CATEGORIES, VLAN_ITEMS, VLAN_PACKAGE, VLAN_PRICES } from './vlan-items';
import {
  BARE_METAL_PACKAGE,
  HARDWARE_CATEGORIES,
  HARDWARE_PORT_SPEEDS,
  redundantPortKey,
  redundantPortPrice,
  HARDWARE_PRESETS,
} from './hardware-items';
import { HOST_CATEGORIES, HOST_ITEMS, HOST_PACKAGE, HOST_PRICES } from './host-items';

export interface PackageView {
  id: number;
  keyName: string;
  name: string;
  description: string;
}

/** Both packages sell the same guests; clients of the API name either. */
export const PACKAGES: readonly PackageView[] = [
  {
    id: 835,
    keyName: 'PUBLIC_CLOUD_SERVER',
    name: 'Public Virtual Server',
    description: 'Public Virtual Server',
  },
  { id: 46, keyName: 'CLOUD_SERVER', name: 'Cloud Server', description: 'Cloud Server' },
];
export const GUEST_PACKAGE = PACKAGES[0];
/** A package that sells guests. */
export const packageById = (id: number) => PACKAGES.find((p) => p.id === id);
/**
 * Every package the API lists: the guests', storage's (./storage-items.ts), bare metal's
 * (./hardware-items.ts), dedicated hosts' (./host-items.ts) and VLANs' (./vlan-items.ts).
 */
export const ALL_PACKAGES: readonly PackageView[] = [
  ...PACKAGES,
  STORAGE_PACKAGE,
  BARE_METAL_PACKAGE,
  HOST_PACKAGE,
  VLAN_PACKAGE,
];
export const anyPackageById = (id: number) => ALL_PACKAGES.find((p) => p.id === id);

/** The item categories the packages sell, with the API's ids and names. */
export const CATEGORIES: Readonly<Record<string, { id: number; name: string }>> = {
  guest_core: { id: 80, name: 'Computing Instance' },
  ram: { id: 3, name: 'RAM' },
  os: { id: 12, name: 'Operating System' },
  port_speed: { id: 26, name: 'Uplink Port Speeds' },
  guest_disk0: { id: 81, name: 'First Disk' },
  guest_disk1: { id: 82, name: 'Second Disk' },
  guest_disk2: { id: 92, name: 'Third Disk' },
  guest_disk3: { id: 93, name: 'Fourth Disk' },
  guest_disk4: { id: 116, name: 'Fifth Disk' },
};

/** A category of any package by its code. */
export const categoryByCode = (code: string) =>
  CATEGORIES[code] ??
  STORAGE_CATEGORIES[code] ??
  HARDWARE_CATEGORIES[code] ??
  HOST_CATEGORIES[code] ??
  VLAN_CATEGORIES[code];

/** A catalog item: what one of its prices buys. */
export interface ItemView {
  id: number;
  keyName: string;
  description: string;
  capacity: number;
  units: string;
  /** The item's category (`guest_disk0` for any disk). */
  category: string;
  /** The categories its prices fill (a disk size fits several positions). */
  categories: readonly string[];
  /** The default price (locationGroupId none). */
  price: Price;
  os?: OperatingSystem;
  /** For disks: local (true) or SAN. */
  local?: boolean;
}

/** One price of an item: the default one or a location group's. */
export interface PriceView {
  item: ItemView;
  price: Price;
  /** The categories this price may fill (for a guest's upgrade, fewer than the item's). */
  categories: readonly string[];
}

/** The catalog item behind a price: the default price's id (a location's price adds 100,000s). */
const itemIdOf = (price: Price) => 9_000_000 + (price.id % 100_000);
const keyOf = (text: string) =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

function item(
  price: Price,
  keyName: string,
  capacity: number,
  units: string,
  extra: Partial<ItemView> = {},
): ItemView {
  const categories = extra.categories ?? [price.categoryCode];
  return {
    id: itemIdOf(price),
    keyName,
    description: price.description,
    capacity,
    units,
    category: categories[0],
    categories,
    price,
    ...extra,
  };
}

const diskItem = (gb: number, local: boolean) =>
  item(diskPrice(gb, local), `GUEST_DISK_${gb}_GB_${local ? 'LOCAL' : 'SAN'}`, gb, 'GB', {
    categories: diskPositions(gb).map((i) => `guest_disk${i}`),
    local,
  });

/** Every item, in the catalog's order. */
export const ITEMS: readonly ItemView[] = [
  ...CPU_OPTIONS.map((n) =>
    item(cpuPrice(n), n === 1 ? 'GUEST_CORE_1' : `GUEST_CORES_${n}`, n, 'CORE'),
  ),
  ...MEMORY_OPTIONS.map((mb) => item(memoryPrice(mb), `RAM_${mb / 1024}_GB`, mb / 1024, 'GB')),
  ...OPERATING_SYSTEMS.map((os) => item(osPrice(os), `OS_${keyOf(os.description)}`, 0, '', { os })),
  ...NETWORK_SPEEDS.map((s) =>
    item(networkPrice(s), `${s}_MBPS_PUBLIC_PRIVATE_NETWORK_UPLINKS`, s, 'Mbps'),
  ),
  ...[true, false].flatMap((local) => ALL_DISK_SIZES.map((gb) => diskItem(gb, local))),
];

/** An item's prices: the default one, then one per pricing location group. */
export const itemPrices = (i: ItemView): PriceView[] => [
  { item: i, price: i.price, categories: i.categories },
  ...PRICE_GROUPS.map((g) => ({
    item: i,
    price: priceInGroup(i.price, g),
    categories: i.categories,
  })),
];

export const PRICES: readonly PriceView[] = ITEMS.flatMap(itemPrices);
const PRICE_BY_ID = new Map(PRICES.map((p) => [p.price.id, p]));
const ITEM_BY_ID = new Map(ITEMS.map((i) => [i.id, i]));

export const priceById = (id: number) => PRICE_BY_ID.get(id);

/** The bare-metal package's items: a server item per preset, then the OS and port speeds it takes. */
export const HARDWARE_ITEMS: readonly ItemView[] = [
  ...HARDWARE_PRESETS.map((p) => ({
    id: 9_500_000 + (p.price.id % 1000),
    keyName: p.keyName,
    description: p.description,
    capacity: p.cores,
    units: 'CORE',
    category: 'server',
    categories: ['server'],
    price: p.price,
  })),
  ...ITEMS.filter(
    (i) =>
      i.category === 'os' ||
      (i.category === 'port_speed' && HARDWARE_PORT_SPEEDS.includes(i.capacity)),
  ),
  ...HARDWARE_PORT_SPEEDS.map((s) => item(redundantPortPrice(s), redundantPortKey(s), s, 'Mbps')),
];
const HARDWARE_PRICES: readonly PriceView[] = HARDWARE_ITEMS.flatMap(itemPrices);
/** A price of the bare-metal package (at any location). */
export const hardwarePriceById = (id: number) => HARDWARE_PRICES.find((p) => p.price.id === id);

interface PackageCatalog {
  items: readonly ItemView[];
  prices: readonly PriceView[];
  categories: Readonly<Record<string, unknown>>;
  type: { id: number; keyName: string; name: string };
}

const GUEST_CATALOG: PackageCatalog = {
  items: ITEMS,
  prices: PRICES,
  categories: CATEGORIES,
  type: { id: 46, keyName: 'VIRTUAL_SERVER_INSTANCE', name: 'Virtual Server Instance' },
};

/** What each package other than the guests' sells. */
const CATALOGS: ReadonlyMap<number, PackageCatalog> = new Map([
  [
    STORAGE_PACKAGE.id,
    {
      items: STORAGE_ITEMS,
      prices: STORAGE_PRICES,
      categories: STORAGE_CATEGORIES,
      type: { id: 759, keyName: 'STORAGE_AS_A_SERVICE', name: 'Storage As A Service' },
    },
  ],
  [
    BARE_METAL_PACKAGE.id,
    {
      items: HARDWARE_ITEMS,
      prices: HARDWARE_PRICES,
      categories: HARDWARE_CATEGORIES,
      type: { id: 2, keyName: 'BARE_METAL_CPU', name: 'Bare Metal Server' },
    },
  ],
  [
    HOST_PACKAGE.id,
    {
      items: HOST_ITEMS,
      prices: HOST_PRICES,
      categories: HOST_CATEGORIES,
      type: { id: 1050, keyName: 'DEDICATED_HOST', name: 'Dedicated Host' },
    },
  ],
  [
    VLAN_PACKAGE.id,
    {
      items: VLAN_ITEMS,
      prices: VLAN_PRICES,
      categories: VLAN_CATEGORIES,
      type: { id: 1098, keyName: 'ADDITIONAL_SERVICES_NETWORK_VLAN', name: 'Network Vlan' },
    },
  ],
]);
const catalogOf = (p: PackageView) => CATALOGS.get(p.id) ?? GUEST_CATALOG;

/** What a package sells: its items, their prices and their categories. */
export const itemsOf = (p: PackageView) => catalogOf(p).items;
export const pricesOf = (p: PackageView) => catalogOf(p).prices;
export const packageTypeOf = (p: PackageView) => catalogOf(p).type;
export const categoriesOf = (p: PackageView): string[] => Object.keys(catalogOf(p).categories);

/** The view of a catalog price (at any location) filling `categories`. */
export function priceView(price: Price, categories: readonly string[]): PriceView {
  const found = ITEM_BY_ID.get(itemIdOf(price));
  if (!found) throw new Error(`price ${price.id} is not a catalog price`);
  return { item: found, price, categories };
}

// ---------------------------------------------------------------------------------------------
// Presets and regions

export interface PresetView {
  id: number;
  keyName: string;
  description: string;
  packageId: number;
  cpus: number;
  memory: number;
  disk: number;
  /** The default prices of its core, memory and boot disk (SAN); a server preset's one price. */
  prices: PriceView[];
  /** False for a bare-metal preset billed monthly only. */
  hourlyAvailable?: boolean;
  /** Where it is offered (the API's `locations`); absent: wherever the package is. */
  locations?: readonly Datacenter[];
}

/** The memory family is offered only where the default prices apply (this emulator's model). */
const M1_LOCATIONS = DATACENTERS.filter((d) => d.priceGroupId === undefined);

/**
 * Families by memory per core (GB): balanced, compute, memory, and balanced with twice the
 * memory (B1_2X8X25). A preset's id is its position: new families go at the end.
 */
const FAMILIES = [
  { prefix: 'B1', gbPerCore: 2 },
  { prefix: 'C1', gbPerCore: 1 },
  { prefix: 'M1', gbPerCore: 8 },
  { prefix: 'B1', gbPerCore: 4 },
];

function presetsOf(packageId: number): PresetView[] {
  const out: PresetView[] = [];
  for (const { prefix, gbPerCore } of FAMILIES) {
    for (const cpus of CPU_OPTIONS.filter((n) => n <= 16)) {
      const memory = cpus * gbPerCore * 1024;
      if (!MEMORY_OPTIONS.includes(memory)) continue;
      for (const disk of DISK_SIZES) {
        const name = `${prefix}.${cpus}x${memory / 1024}x${disk}`;
        const prices = [cpuPrice(cpus), memoryPrice(memory), diskPrice(disk, false, 0)];
        out.push({
          id: packageId * 1000 + out.length + 1,
          keyName: keyOf(name),
          description: name,
          packageId,
          cpus,
          memory,
          disk,
          prices: prices.map((p) => priceView(p, [p.categoryCode])),
          ...(prefix === 'M1' ? { locations: M1_LOCATIONS } : {}),
        });
      }
    }
  }
  return out;
}

/** The bare-metal presets: one server price each, the item's category `server`. */
const hardwarePresets = (): PresetView[] =>
  HARDWARE_PRESETS.map((spec, i) => ({
    id: BARE_METAL_PACKAGE.id * 1000 + i + 1,
    keyName: spec.keyName,
    description: spec.description,
    packageId: BARE_METAL_PACKAGE.id,
    cpus: spec.cores,
    memory: spec.memoryGb * 1024,
    disk: spec.diskGb,
    prices: itemPrices(HARDWARE_ITEMS[i]).slice(0, 1),
    hourlyAvailable: spec.hourly,
  }));

const PRESETS = new Map([
  ...PACKAGES.map((p) => [p.id, presetsOf(p.id)] as const),
  [BARE_METAL_PACKAGE.id, hardwarePresets()] as const,
]);
export const presetsOfPackage = (p: PackageView): PresetView[] => PRESETS.get(p.id) ?? [];
export const presetById = (id: number) =>
  [...PRESETS.values()].flat().find((preset) => preset.id === id);

/**
 * The guest flavors (`supplementalCreateObjectOptions.flavorKeyName`): the presets of the public
 * virtual server package, by key name (`B1_2X4X25`).
 */
export const guestFlavors = (): PresetView[] => presetsOfPackage(GUEST_PACKAGE);
export const flavorByKey = (keyName: string): PresetView | undefined =>
  guestFlavors().find((p) => p.keyName === keyName.trim().toUpperCase());
/** Whether a preset is offered in `datacenter` (its `locations`, or everywhere). */
export const offeredIn = (preset: PresetView, datacenter: Datacenter): boolean =>
  !preset.locations || preset.locations.some((d) => d.id === datacenter.id);

export interface RegionView {
  keyname: string;
  description: string;
  sortOrder: number;
  datacenter: Datacenter;
}

/** One region per datacenter, as the packages list where they sell. */
export const REGIONS: readonly RegionView[] = DATACENTERS.map((dc, i) => ({
  keyname: dc.region,
  description: `${dc.name.toUpperCase()} - ${dc.longName}`,
  sortOrder: i,
  datacenter: dc,
}));

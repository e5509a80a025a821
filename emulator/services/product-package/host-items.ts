/**
 * The dedicated-host package (`DEDICATED_HOST`), as the reference client reads it (softlayer-python
 * `DedicatedHostManager._get_package`): one item per host size in the category
 * `dedicated_virtual_hosts`, its `capacity` the host's cores and its `bundleItems` the memory
 * (`dedicated_host_ram`, GB) and disk (`dedicated_host_disk`, GB) that come with it; one default
 * price per item (no location groups), hourly or monthly. Nothing here is stored.
 */
import type { Price } from '../../catalog';
import type { ItemView, PackageView, PriceView } from './model';

export const HOST_PACKAGE: PackageView = {
  id: 813,
  keyName: 'DEDICATED_HOST',
  name: 'Dedicated Host',
  description: 'Dedicated Host',
};

export const HOST_CATEGORY = 'dedicated_virtual_hosts';

/** A host size: what a host of it holds for its guests. */
export interface HostFlavor {
  keyName: string;
  description: string;
  cpuCount: number;
  /** GB. */
  memoryCapacity: number;
  /** GB. */
  diskCapacity: number;
  price: Price;
}

/** The item of a host size; its bundle lists the memory and disk that come with the cores. */
export interface HostItem extends ItemView {
  flavor: HostFlavor;
  bundleItems: ItemView[];
}

const flavor = (
  n: number,
  keyName: string,
  [cpuCount, memoryCapacity, diskCapacity]: [number, number, number],
  hourly: number,
): HostFlavor => {
  const description = `${cpuCount} Cores X ${memoryCapacity} RAM X ${diskCapacity} GB Disk`;
  return {
    keyName,
    description,
    cpuCount,
    memoryCapacity,
    diskCapacity,
    price: { id: 200_260 + n, hourly, description, categoryCode: HOST_CATEGORY },
  };
};

/** The sizes offered (the reference fixture's host: 56 cores, 242 GB, 1,200 GB). */
export const HOST_FLAVORS: readonly HostFlavor[] = [
  flavor(1, '56_CORES_X_242_RAM_X_1_4_TB', [56, 242, 1200], 2.0761),
  flavor(2, '56_CORES_X_484_RAM_X_1_5_TB', [56, 484, 1500], 2.9825),
  flavor(3, '48_CORES_X_192_RAM_X_1_TB', [48, 192, 1000], 1.6993),
];

const part = (id: number, keyName: string, category: string, capacity: number): ItemView => ({
  id,
  keyName,
  description: `${capacity} GB`,
  capacity,
  units: 'GB',
  category,
  categories: [category],
  price: { id: 0, hourly: 0, description: `${capacity} GB`, categoryCode: category },
});

export const HOST_ITEMS: readonly HostItem[] = HOST_FLAVORS.map((f, i) => ({
  id: 9_813_000 + i + 1,
  keyName: f.keyName,
  description: f.description,
  capacity: f.cpuCount,
  units: 'CORE',
  category: HOST_CATEGORY,
  categories: [HOST_CATEGORY],
  price: f.price,
  flavor: f,
  bundleItems: [
    part(9_813_100 + i, `${f.memoryCapacity}_GB_RAM`, 'dedicated_host_ram', f.memoryCapacity),
    part(9_813_200 + i, `${f.diskCapacity}_GB_DISK`, 'dedicated_host_disk', f.diskCapacity),
  ],
}));

export const HOST_PRICES: readonly PriceView[] = HOST_ITEMS.map((item) => ({
  item,
  price: item.price,
  categories: item.categories,
}));

export const hostItemByPrice = (priceId: number) => HOST_ITEMS.find((i) => i.price.id === priceId);

export const HOST_CATEGORIES: Readonly<Record<string, { id: number; name: string }>> = {
  [HOST_CATEGORY]: { id: 1090, name: 'Dedicated Host' },
  dedicated_host_ram: { id: 1091, name: 'Dedicated Host RAM' },
  dedicated_host_disk: { id: 1092, name: 'Dedicated Host Disk' },
};

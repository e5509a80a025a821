/**
 * Svc_Product_Package, its items (Svc_Product_Item), their prices (Svc_Product_Item_Price, also
 * what `Virtual_Guest.getUpgradeItemPrices` lists), categories and presets, as the API shows them.
 */
import {
  OPERATING_SYSTEMS,
  PRICE_GROUPS,
  money,
  monthlyFromHourly,
  type OperatingSystem,
} from '../../catalog';
import { defineType, definePlainType } from '../../schema';
import type { StorageItem } from './storage-items';
import type { HostItem } from './host-items';
import {
  REGIONS,
  categoriesOf,
  categoryByCode,
  itemsOf,
  packageTypeOf,
  pricesOf,
  itemPrices,
  presetsOfPackage,
  type ItemView,
  type PackageView,
  type PresetView,
  type PriceView,
} from './model';

const category = (code: string) => ({ categoryCode: code, ...categoryByCode(code) });

definePlainType('Svc_Product_Item_Category', ['id', 'categoryCode', 'name']);
definePlainType('Svc_Product_Package_Type', ['id', 'keyName', 'name']);

/** An operating system as the API describes its software (items and guests show the same). */
export function softwareDescription(os: OperatingSystem): Record<string, unknown> {
  return {
    id: SOFTWARE_DESCRIPTION_BASE + OPERATING_SYSTEMS.indexOf(os),
    referenceCode: os.referenceCode,
    name: os.name,
    version: os.version,
    manufacturer: os.manufacturer,
    longDescription: os.description,
    operatingSystem: 1,
  };
}

const SOFTWARE_DESCRIPTION_BASE = 1_000;

definePlainType('Svc_Software_Description', [
  'id',
  'referenceCode',
  'name',
  'version',
  'manufacturer',
  'longDescription',
  'operatingSystem',
]);

defineType<ItemView>('Svc_Product_Item', {
  locals: {
    id: (i) => i.id,
    keyName: (i) => i.keyName,
    description: (i) => i.description,
    // A decimal string, as the API sends it (softlayer-go reads it as a float only from a string).
    capacity: (i) => String(i.capacity),
    units: (i) => i.units || undefined,
    softwareDescriptionId: (i) => i.os && softwareDescription(i.os).id,
  },
  relations: {
    itemCategory: { type: 'Svc_Product_Item_Category', get: (i) => category(i.category) },
    categories: {
      type: 'Svc_Product_Item_Category',
      many: true,
      get: (i) => i.categories.map(category),
    },
    prices: { type: 'Svc_Product_Item_Price', many: true, get: itemPrices },
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (i) => i.os && softwareDescription(i.os),
    },
    // A dedicated host's size lists the memory and disk that come with its cores.
    bundleItems: {
      type: 'Svc_Product_Item',
      many: true,
      get: (i) => (i as HostItem).bundleItems ?? [],
    },
  },
  // The size ranges of the storage package's space and IOPS items (./storage-items.ts).
  onDemand: {
    capacityMinimum: (i) => optionalNumber((i as StorageItem).capacityMinimum),
    capacityMaximum: (i) => optionalNumber((i as StorageItem).capacityMaximum),
  },
});

defineType<PriceView>('Svc_Product_Item_Price', {
  locals: {
    id: (p) => p.price.id,
    itemId: (p) => p.item.id,
    hourlyRecurringFee: (p) => money(p.price.hourly, 4),
    recurringFee: (p) => money(monthlyFromHourly(p.price.hourly), 2),
    // The API's XML-RPC answers show a default price's group as an empty string.
    locationGroupId: (p) => p.price.locationGroupId ?? '',
    laborFee: () => '0',
    oneTimeFee: () => '0',
    setupFee: () => '0',
  },
  relations: {
    item: { type: 'Svc_Product_Item', get: (p) => p.item },
    categories: {
      type: 'Svc_Product_Item_Category',
      many: true,
      get: (p) => p.categories.map(category),
    },
    pricingLocationGroup: {
      type: 'Svc_Location_Group_Pricing',
      get: (p) => PRICE_GROUPS.find((g) => g.id === p.price.locationGroupId),
    },
  },
  // A storage IOPS price is for volumes of a range of sizes.
  onDemand: {
    capacityRestrictionType: (p) => restriction(p)?.type,
    capacityRestrictionMinimum: (p) => optionalNumber(restriction(p)?.min),
    capacityRestrictionMaximum: (p) => optionalNumber(restriction(p)?.max),
  },
});

defineType<PresetView>('Svc_Product_Package_Preset', {
  locals: {
    id: (p) => p.id,
    keyName: (p) => p.keyName,
    name: (p) => p.description,
    description: (p) => p.description,
    packageId: (p) => p.packageId,
    isActive: () => '1',
  },
  relations: {
    prices: { type: 'Svc_Product_Item_Price', many: true, get: (p) => p.prices },
    // Empty: offered wherever the package is.
    locations: { type: 'Svc_Location', many: true, get: (p) => p.locations ?? [] },
    categories: {
      type: 'Svc_Product_Item_Category',
      many: true,
      get: (p) => p.prices.map((price) => category(price.item.category)),
    },
  },
  onDemand: {
    totalMinimumHourlyFee: (p) =>
      p.hourlyAvailable === false ? undefined : money(sum(p.prices), 4),
    totalMinimumRecurringFee: (p) => money(monthlyFromHourly(sum(p.prices)), 2),
  },
});

/** The API's decimal strings for a capacity (absent when the item has none). */
const optionalNumber = (n: number | undefined) => (n === undefined ? undefined : String(n));
const restriction = (p: PriceView) => (p.item as StorageItem).restriction;

const sum = (prices: PriceView[]) => prices.reduce((total, p) => total + p.price.hourly, 0);

defineType<PackageView>('Svc_Product_Package', {
  locals: {
    id: (p) => p.id,
    keyName: (p) => p.keyName,
    name: (p) => p.name,
    description: (p) => p.description,
    isActive: () => 1,
  },
  relations: {
    type: {
      type: 'Svc_Product_Package_Type',
      get: packageTypeOf,
    },
    items: { type: 'Svc_Product_Item', many: true, get: itemsOf },
    itemPrices: { type: 'Svc_Product_Item_Price', many: true, get: pricesOf },
    activePresets: { type: 'Svc_Product_Package_Preset', many: true, get: presetsOfPackage },
    categories: {
      type: 'Svc_Product_Item_Category',
      many: true,
      get: (p) => categoriesOf(p).map(category),
    },
    regions: { type: 'Svc_Location_Region', many: true, get: () => REGIONS },
  },
  onDemand: { hourlyBillingAvailableFlag: () => true },
});

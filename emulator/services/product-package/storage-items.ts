/**
 * The storage-as-a-service package (759), which sells block (iSCSI) and file (NFS) volumes, as
 * the reference client reads it (softlayer-python `storage_utils.py` and its `SAAS_PACKAGE`
 * fixture): the service item, one item per volume type, the endurance tiers
 * (`storage_tier_level`, capacity 100/200/300/1000 for 0.25/2/4/10 IOPS per GB), space items
 * (`performance_storage_space`: one per endurance tier, `STORAGE_SPACE_FOR_<tier>_IOPS_PER_GB`,
 * and ranges `<min>_<max>_GBS` for performance volumes, each with `capacityMinimum` and
 * `capacityMaximum`) and IOPS items (`performance_storage_iops`, each price restricted to a range
 * of volume sizes) and snapshot space (`storage_snapshot_space`: an item per size, its `capacity`
 * the GB; as the reference client's `find_saas_snapshot_space_price` reads them, a size has one
 * price per endurance tier, restricted `STORAGE_TIER_LEVEL` to that tier's capacity, and one for
 * performance volumes, restricted `IOPS` to 100-48,000; here each of those prices is its own item
 * of that capacity, which that lookup finds the same way). Space and IOPS are priced per GB and
 * per IOPS: a volume pays the price times its size or IOPS; a snapshot space price is for its
 * whole size. Default prices only (no location groups). Nothing here is stored.
 */
import type { ItemView, PackageView, PriceView } from './model';

export const STORAGE_PACKAGE: PackageView = {
  id: 759,
  keyName: 'STORAGE_AS_A_SERVICE_STAAS',
  name: 'Storage As A Service (StaaS)',
  description: 'Storage As A Service (StaaS)',
};

export interface EnduranceTier {
  /** IOPS per GB. */
  iopsPerGb: number;
  /** What a volume shows as its `storageTierLevel`. */
  keyName: string;
  /** The tier item's `capacity` (the reference client finds the tier's price by it). */
  capacity: number;
  /** Hourly price of one GB of space at this tier. */
  gbHourly: number;
}

export const ENDURANCE_TIERS: readonly EnduranceTier[] = [
  { iopsPerGb: 0.25, keyName: 'LOW_INTENSITY_TIER', capacity: 100, gbHourly: 0.00008 },
  { iopsPerGb: 2, keyName: 'READHEAVY_TIER', capacity: 200, gbHourly: 0.00019 },
  { iopsPerGb: 4, keyName: 'WRITEHEAVY_TIER', capacity: 300, gbHourly: 0.00027 },
  { iopsPerGb: 10, keyName: '10_IOPS_PER_GB', capacity: 1000, gbHourly: 0.00062 },
];

/** Sizes (GB) any volume may have, and the IOPS a performance volume may have. */
export const VOLUME_GB = { min: 20, max: 12000 } as const;
export const PERFORMANCE_IOPS = { min: 100, max: 48000, step: 100, perGbMax: 50 } as const;
/** Performance space ranges (GB); each is an item. */
const PERFORMANCE_RANGES: readonly [number, number][] = [
  [20, 99],
  [100, 999],
  [1000, 1999],
  [2000, 4999],
  [5000, 12000],
];
const PERFORMANCE_GB_HOURLY = 0.00014;
const IOPS_HOURLY = 0.00011;

/** A storage item: one price, filling its one category. */
export interface StorageItem extends ItemView {
  capacityMinimum?: number;
  capacityMaximum?: number;
  /** The endurance tier a tier or tier-space item is for. */
  tier?: EnduranceTier;
  /** Per GB (space) or per IOPS (iops): the volume pays price x its size or IOPS. */
  per?: 'gb' | 'iops';
  /**
   * A price valid only for volumes of these sizes (GB, `STORAGE_SPACE`), of this endurance tier
   * (its capacity, `STORAGE_TIER_LEVEL`) or of these IOPS figures (`IOPS`).
   */
  restriction?: { type: 'STORAGE_SPACE' | 'STORAGE_TIER_LEVEL' | 'IOPS'; min: number; max: number };
}

function storageItem(
  id: number,
  priceId: number,
  keyName: string,
  description: string,
  category: string,
  hourly: number,
  extra: Partial<StorageItem> = {},
): StorageItem {
  return {
    id,
    keyName,
    description,
    capacity: 0,
    units: '',
    category,
    categories: [category],
    price: { id: priceId, hourly, description, categoryCode: category },
    ...extra,
  };
}

/** The snapshot space sizes (GB) a volume may have. */
export const SNAPSHOT_GB = [
  5, 10, 20, 40, 80, 100, 250, 500, 1000, 2000, 4000, 8000, 12000,
] as const;
/** Hourly price of one GB of snapshot space of a performance volume. */
const SNAPSHOT_PERFORMANCE_GB_HOURLY = 0.00012;

/** One size's snapshot space prices: one per endurance tier, one for performance volumes. */
function snapshotItems(gb: number, i: number): StorageItem[] {
  const restricted = [
    ...ENDURANCE_TIERS.map((tier) => ({
      rate: tier.gbHourly,
      what: `${tier.iopsPerGb} IOPS per GB volumes`,
      restriction: { type: 'STORAGE_TIER_LEVEL' as const, min: tier.capacity, max: tier.capacity },
    })),
    {
      rate: SNAPSHOT_PERFORMANCE_GB_HOURLY,
      what: 'performance volumes',
      restriction: { type: 'IOPS' as const, min: PERFORMANCE_IOPS.min, max: PERFORMANCE_IOPS.max },
    },
  ];
  return restricted.map(({ rate, what, restriction }, j) =>
    storageItem(
      9759100 + i * 8 + j,
      196000 + i * 8 + j,
      `${gb}_GB_SNAPSHOT_SPACE`,
      `${gb} GB Storage Space (snapshot space, ${what})`,
      'storage_snapshot_space',
      gb * rate,
      { capacity: gb, units: 'GB', restriction },
    ),
  );
}

const tierKey = (tier: EnduranceTier) => String(tier.iopsPerGb).replace('.', '_');

export const STORAGE_ITEMS: readonly StorageItem[] = [
  storageItem(
    9759001,
    189433,
    'STORAGE_AS_A_SERVICE',
    'Storage as a Service',
    'storage_as_a_service',
    0,
  ),
  storageItem(9759002, 189443, 'BLOCK_STORAGE_2', 'Block Storage', 'storage_block', 0),
  storageItem(9759003, 189453, 'FILE_STORAGE_2', 'File Storage', 'storage_file', 0),
  ...ENDURANCE_TIERS.map((tier, i) =>
    storageItem(
      9759010 + i,
      193370 + i * 10,
      tier.keyName,
      `${tier.iopsPerGb} IOPS per GB`,
      'storage_tier_level',
      0,
      { capacity: tier.capacity, units: 'IOPS', tier },
    ),
  ),
  ...ENDURANCE_TIERS.map((tier, i) =>
    storageItem(
      9759020 + i,
      193470 + i * 10,
      `STORAGE_SPACE_FOR_${tierKey(tier)}_IOPS_PER_GB`,
      `Storage space for ${tier.iopsPerGb} IOPS per GB (per GB)`,
      'performance_storage_space',
      tier.gbHourly,
      { capacityMinimum: VOLUME_GB.min, capacityMaximum: VOLUME_GB.max, tier, per: 'gb' },
    ),
  ),
  ...PERFORMANCE_RANGES.map(([min, max], i) =>
    storageItem(
      9759030 + i,
      189990 + i * 10,
      `${min}_${max}_GBS`,
      `${min} - ${max} GB (per GB)`,
      'performance_storage_space',
      PERFORMANCE_GB_HOURLY,
      { capacityMinimum: min, capacityMaximum: max, per: 'gb' },
    ),
  ),
  ...PERFORMANCE_RANGES.map(([min, max], i) =>
    storageItem(
      9759040 + i,
      190050 + i * 10,
      `${PERFORMANCE_IOPS.min}_${Math.min(PERFORMANCE_IOPS.max, max * PERFORMANCE_IOPS.perGbMax)}_IOPS`,
      `IOPS for ${min} - ${max} GB volumes (per IOPS)`,
      'performance_storage_iops',
      IOPS_HOURLY,
      {
        capacityMinimum: PERFORMANCE_IOPS.min,
        capacityMaximum: Math.min(PERFORMANCE_IOPS.max, max * PERFORMANCE_IOPS.perGbMax),
        per: 'iops',
        restriction: { type: 'STORAGE_SPACE', min, max },
      },
    ),
  ),
  ...SNAPSHOT_GB.flatMap(snapshotItems),
];

export const STORAGE_PRICES: readonly PriceView[] = STORAGE_ITEMS.map((item) => ({
  item,
  price: item.price,
  categories: item.categories,
}));

const STORAGE_ITEM_BY_PRICE = new Map(STORAGE_ITEMS.map((i) => [i.price.id, i]));
export const storageItemByPrice = (priceId: number) => STORAGE_ITEM_BY_PRICE.get(priceId);

export const STORAGE_CATEGORIES: Readonly<Record<string, { id: number; name: string }>> = {
  storage_as_a_service: { id: 759, name: 'Storage As A Service' },
  storage_block: { id: 760, name: 'Block Storage' },
  storage_file: { id: 761, name: 'File Storage' },
  storage_tier_level: { id: 762, name: 'Storage Tier Level' },
  performance_storage_space: { id: 763, name: 'Storage Space' },
  performance_storage_iops: { id: 764, name: 'Storage IOPS' },
  storage_snapshot_space: { id: 765, name: 'Storage Snapshot Space' },
};

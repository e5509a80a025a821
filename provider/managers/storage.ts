import { unlessNotFound } from './not-found';
import { ProductOrderManager } from './product-order';
import { cancelBillingItem } from './billing-item';

/**
 * Block and file volumes (`Svc_Network_Storage`), ordered from the storage-as-a-service package
 * the way the reference client orders them (softlayer-python `storage_utils`): the service, the
 * volume type, the space for the size, and an endurance tier or a performance IOPS price, found
 * among the package's items; resized in place by an upgrade order; hosts allowed and removed;
 * cancelled through the billing item.
 */

export type VolumeType = 'block' | 'file';

/** What an order or an upgrade fixes. Exactly one of `tierIopsPerGb` and `iops`. */
export interface VolumeSizing {
  capacityGb: number;
  /** Endurance: IOPS per GB (0.25, 2, 4 or 10). */
  tierIopsPerGb?: number;
  /** Performance: the IOPS figure. */
  iops?: number;
}

/** An IP address record of the account, as a volume's authorized addresses need it. */
export interface AccountIpAddress {
  id: number;
  ipAddress: string;
  subnet?: { addressSpace?: string; datacenter?: { name: string } };
}

export interface VolumeOrder extends VolumeSizing {
  type: VolumeType;
  datacenter: string;
  hourly: boolean;
  /** Block only: `LINUX`, `VMWARE`, `WINDOWS`, ... */
  osFormat?: string;
  /** Recorded with the volume: finds it when the order's answer is lost. */
  containerIdentifier: string;
  /** GB of snapshot space ordered with it (none when undefined). */
  snapshotGb?: number;
}

export interface Volume {
  id: number;
  username: string;
  capacityGb: number;
  nasType: 'ISCSI' | 'NAS';
  notes?: string;
  createDate?: string;
  storageType?: { keyName: string };
  storageTierLevel?: string;
  provisionedIops?: string;
  osType?: { keyName: string };
  serviceResource?: { datacenter?: { name: string } };
  serviceResourceBackendIpAddress?: string;
  lunId?: string;
  fileNetworkMountAddress?: string;
  activeTransactionCount?: number;
  allowedVirtualGuests?: { id: number }[];
  allowedIpAddresses?: { id: number; ipAddress: string }[];
  /** GB of snapshot space, as a decimal string ('0' without). */
  snapshotCapacityGb?: string;
  schedules?: SnapshotScheduleRead[];
  billingItem?: {
    id: number;
    hourlyFlag: boolean;
    recurringFee: string;
    hourlyRecurringFee?: string;
    cancellationDate?: string;
    createDate?: string;
  };
  properties?: { value: string; type?: { keyname: string } }[];
}

/** A snapshot schedule as the volume lists it: `SNAPSHOT_<TYPE>` and its properties. */
export interface SnapshotScheduleRead {
  type?: { keyname: string };
  properties?: { value: string; type?: { keyname: string } }[];
}

/** A snapshot schedule as `enableSnapshots` takes it. */
export interface SnapshotSchedule {
  type: 'HOURLY' | 'DAILY' | 'WEEKLY';
  retentionCount: number;
  minute: number;
  hour: number;
  dayOfWeek: string;
}

export const VOLUME_MASK =
  'mask[id,username,capacityGb,nasType,notes,createDate,storageType.keyName,storageTierLevel,provisionedIops,osType.keyName,serviceResource.datacenter.name,serviceResourceBackendIpAddress,lunId,fileNetworkMountAddress,activeTransactionCount,allowedVirtualGuests.id,allowedIpAddresses[id,ipAddress],snapshotCapacityGb,schedules[type.keyname,properties[value,type.keyname]],billingItem[id,hourlyFlag,recurringFee,hourlyRecurringFee,cancellationDate,createDate],properties[value,type.keyname]]';

export const STORAGE_PACKAGE_ID = 759;

/** The account's list of each volume type. */
export const VOLUME_LISTS: Readonly<Record<VolumeType, string>> = {
  block: 'getIscsiNetworkStorage',
  file: 'getNasNetworkStorage',
};
export const ORDER_TYPE = 'Svc_Container_Product_Order_Network_Storage_AsAService';
export const UPGRADE_TYPE = `${ORDER_TYPE}_Upgrade`;
export const SNAPSHOT_TYPE = 'Svc_Container_Product_Order_Network_Storage_Enterprise_SnapshotSpace';

/** The endurance tiers by IOPS per GB: the tier item's `capacity`. */
export const ENDURANCE_TIER_CAPACITY: Readonly<Record<string, number>> = {
  '0.25': 100,
  '2': 200,
  '4': 300,
  '10': 1000,
};

interface PackageItem {
  keyName: string;
  capacity?: string;
  capacityMinimum?: string;
  capacityMaximum?: string;
  itemCategory?: { categoryCode: string };
  prices: {
    id: number;
    capacityRestrictionType?: string;
    capacityRestrictionMinimum?: string;
    capacityRestrictionMaximum?: string;
  }[];
}

const ITEM_MASK =
  'mask[keyName,capacity,capacityMinimum,capacityMaximum,itemCategory.categoryCode,prices[id,capacityRestrictionType,capacityRestrictionMinimum,capacityRestrictionMaximum]]';

const within = (n: number, min?: string, max?: string) =>
  min === undefined || max === undefined || (Number(min) <= n && n <= Number(max));

/**
 * The price ids of an order or upgrade for `sizing` (with the volume type's price for a new
 * volume), from the package's items; an Error naming what has no price.
 */
export function storagePrices(
  items: PackageItem[],
  sizing: VolumeSizing,
  type?: VolumeType,
): { id: number }[] {
  const find = (what: string, pick: (i: PackageItem) => boolean, gb?: number) => {
    const item = items.find(
      (i) =>
        pick(i) &&
        (gb === undefined ||
          within(
            gb,
            i.prices[0]?.capacityRestrictionMinimum,
            i.prices[0]?.capacityRestrictionMaximum,
          )),
    );
    if (!item?.prices[0]) throw new Error(`the storage package has no price for ${what}`);
    return { id: item.prices[0].id };
  };
  const category = (code: string) => (i: PackageItem) => i.itemCategory?.categoryCode === code;
  const gb = sizing.capacityGb;
  const prices = [find('the storage service', category('storage_as_a_service'))];
  if (type) prices.push(find(`${type} storage`, category(`storage_${type}`)));
  if (sizing.tierIopsPerGb !== undefined) {
    const key = String(sizing.tierIopsPerGb).replace('.', '_');
    prices.push(
      find(
        `${gb} GB at ${sizing.tierIopsPerGb} IOPS per GB`,
        (i) =>
          i.keyName === `STORAGE_SPACE_FOR_${key}_IOPS_PER_GB` &&
          within(gb, i.capacityMinimum, i.capacityMaximum),
      ),
      find(
        `the ${sizing.tierIopsPerGb} IOPS per GB tier`,
        (i) =>
          category('storage_tier_level')(i) &&
          Number(i.capacity) === ENDURANCE_TIER_CAPACITY[String(sizing.tierIopsPerGb)],
      ),
    );
  } else {
    prices.push(
      find(
        `${gb} GB of performance space`,
        (i) => /_GBS$/.test(i.keyName) && within(gb, i.capacityMinimum, i.capacityMaximum),
      ),
      find(
        `${sizing.iops} IOPS`,
        (i) =>
          category('performance_storage_iops')(i) &&
          within(sizing.iops!, i.capacityMinimum, i.capacityMaximum),
        gb,
      ),
    );
  }
  return prices;
}

/**
 * The snapshot space price of `gb` GB for a volume of `sizing`: among the items of that capacity,
 * the price restricted to the volume's tier (`STORAGE_TIER_LEVEL`, the tier's capacity) or IOPS
 * (`IOPS`), as the reference client's `find_saas_snapshot_space_price` picks it. An Error saying
 * which sizes the package offers when none.
 */
export function snapshotPrice(
  items: PackageItem[],
  gb: number,
  sizing: VolumeSizing,
): { id: number } {
  const [type, value] =
    sizing.iops === undefined
      ? ['STORAGE_TIER_LEVEL', ENDURANCE_TIER_CAPACITY[String(sizing.tierIopsPerGb)]]
      : ['IOPS', sizing.iops];
  const fits = (i: PackageItem) =>
    i.itemCategory?.categoryCode === 'storage_snapshot_space' &&
    i.prices.some(
      (p) =>
        p.capacityRestrictionType === type &&
        within(value, p.capacityRestrictionMinimum, p.capacityRestrictionMaximum),
    );
  const price = items.find((i) => fits(i) && Number(i.capacity) === gb)?.prices[0];
  if (price) return { id: price.id };
  const offered = [...new Set(items.filter(fits).map((i) => Number(i.capacity)))].sort(
    (a, b) => a - b,
  );
  throw new Error(
    `the storage package has no ${gb} GB of snapshot space for this volume (offered: ${offered.join(', ')} GB)`,
  );
}

/** The account's block and file volumes. */
export class StorageManager extends ProductOrderManager {
  private items?: Promise<PackageItem[]>;

  /** The storage package's items (asked once per manager). */
  packageItems(): Promise<PackageItem[]> {
    this.items ??= this.client.call('Product_Package', 'getItems', {
      id: STORAGE_PACKAGE_ID,
      mask: ITEM_MASK,
    }) as Promise<PackageItem[]>;
    return this.items;
  }

  async orderContainer(order: VolumeOrder): Promise<Record<string, unknown>> {
    return {
      complexType: ORDER_TYPE,
      packageId: STORAGE_PACKAGE_ID,
      location: order.datacenter,
      quantity: 1,
      useHourlyPricing: order.hourly,
      volumeSize: order.capacityGb,
      ...(order.iops === undefined ? {} : { iops: order.iops }),
      ...(order.osFormat ? { osFormatType: { keyName: order.osFormat } } : {}),
      prices: [
        ...storagePrices(await this.packageItems(), order, order.type),
        ...(order.snapshotGb
          ? [snapshotPrice(await this.packageItems(), order.snapshotGb, order)]
          : []),
      ],
      containerIdentifier: order.containerIdentifier,
    };
  }

  /**
   * Snapshot space for a volume: its first (`upgrade` false) or more of it, as the reference
   * client's `order_snapshot_space` orders it (the volume's datacenter and billing).
   */
  async snapshotContainer(
    volume: { id: number; datacenter: string; hourly: boolean } & VolumeSizing,
    gb: number,
    upgrade: boolean,
  ): Promise<Record<string, unknown>> {
    return {
      complexType: upgrade ? `${SNAPSHOT_TYPE}_Upgrade` : SNAPSHOT_TYPE,
      packageId: STORAGE_PACKAGE_ID,
      volumeId: volume.id,
      location: volume.datacenter,
      quantity: 1,
      useHourlyPricing: volume.hourly,
      prices: [snapshotPrice(await this.packageItems(), gb, volume)],
    };
  }

  /** Sets the volume's schedule of its type (`enableSnapshots` replaces one of the same type). */
  async enableSnapshots(id: number, s: SnapshotSchedule): Promise<void> {
    await this.client.call('Network_Storage', 'enableSnapshots', {
      id,
      args: [s.type, s.retentionCount, s.minute, s.hour, s.dayOfWeek],
    });
  }

  async disableSnapshots(id: number, type: string): Promise<void> {
    await this.client.call('Network_Storage', 'disableSnapshots', { id, args: [type] });
  }

  /** Allows (`allow`) or removes IP address records (by id); as `setGuestAccess`. */
  async setIpAccess(id: number, ipIds: number[], allow: boolean): Promise<void> {
    if (ipIds.length === 0) return;
    const templates = ipIds.map((ipId) => ({
      objectType: 'Svc_Network_Subnet_IpAddress',
      id: ipId,
    }));
    const method = allow ? 'allowAccessFromIpAddressList' : 'removeAccessFromIpAddressList';
    await this.client.call('Network_Storage', method, { id, args: [templates] });
  }

  /** The account's IP address records of these addresses, with their subnet's space and datacenter. */
  async findIpAddresses(addresses: string[]): Promise<AccountIpAddress[]> {
    if (addresses.length === 0) return [];
    return (await this.client.call('Account', 'getIpAddresses', {
      mask: 'mask[id,ipAddress,subnet[addressSpace,datacenter.name]]',
      filter: {
        ipAddresses: {
          ipAddress: { operation: 'in', options: [{ name: 'data', value: addresses }] },
        },
      },
    })) as AccountIpAddress[];
  }

  async upgradeContainer(id: number, sizing: VolumeSizing): Promise<Record<string, unknown>> {
    return {
      complexType: UPGRADE_TYPE,
      packageId: STORAGE_PACKAGE_ID,
      volume: { id },
      volumeSize: sizing.capacityGb,
      ...(sizing.iops === undefined ? {} : { iops: sizing.iops }),
      prices: storagePrices(await this.packageItems(), sizing),
    };
  }

  /** The volumes made by the order with this container identifier. */
  async findByIdentifier(identifier: string): Promise<Volume[]> {
    return (await this.client.call('Account', 'getNetworkStorage', {
      mask: VOLUME_MASK,
      filter: { networkStorage: { properties: { value: { operation: identifier } } } },
    })) as Volume[];
  }

  async listVolumes(type?: VolumeType): Promise<Volume[]> {
    const method = type ? VOLUME_LISTS[type] : 'getNetworkStorage';
    return (await this.client.call('Account', method, { mask: VOLUME_MASK })) as Volume[];
  }

  getVolume(id: number, mask = VOLUME_MASK): Promise<Volume> {
    return this.client.call('Network_Storage', 'getObject', { id, mask }) as Promise<Volume>;
  }

  findVolume(id: number, mask = VOLUME_MASK): Promise<Volume | undefined> {
    return unlessNotFound(this.getVolume(id, mask));
  }

  async editNotes(id: number, notes: string): Promise<void> {
    await this.client.call('Network_Storage', 'editObject', { id, args: [{ notes }] });
  }

  /** Allows (`allow`) or removes guests; allowing one twice or removing one not allowed does nothing. */
  async setGuestAccess(id: number, guestIds: number[], allow: boolean): Promise<void> {
    if (guestIds.length === 0) return;
    const templates = guestIds.map((guestId) => ({ objectType: 'Svc_Virtual_Guest', id: guestId }));
    const method = allow ? 'allowAccessFromHostList' : 'removeAccessFromHostList';
    await this.client.call('Network_Storage', method, { id, args: [templates] });
  }

  /** Cancels the volume's billing item: at once, or at the anniversary. */
  async cancel(billingItemId: number, immediate: boolean, reason: string): Promise<void> {
    await cancelBillingItem(this.client, billingItemId, { immediate, reason, associated: true });
  }
}

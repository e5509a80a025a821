import { unlessNotFound } from './not-found';
import { ProductOrderManager } from './product-order';
import { cancelBillingItem } from './billing-item';
import type { TagReference } from './types';

/**
 * Bare metal servers (`Svc_Hardware_Server`), ordered from the bare-metal package the way the
 * reference client orders them (softlayer-python `HardwareManager.place_order` and
 * `_generate_create_dict`): a preset of the package, the prices of an operating system and a port
 * speed (the package's default prices, good in every location), the location, one `hardware`
 * entry with the host's names, user data, VLANs and tags, the SSH keys and hourly or monthly
 * pricing; reloaded in place (`reload`), edited (`edit`, `set_tags`) and cancelled through the
 * billing item (`cancel_hardware`: an hourly server at once, a monthly one at its anniversary
 * unless asked otherwise).
 */

export const BARE_METAL_PACKAGE_ID = 200;
export const HARDWARE_ORDER_TYPE = 'Svc_Container_Product_Order_Hardware_Server';

export interface BareMetalServer {
  id: number;
  hostname: string;
  domain: string;
  fullyQualifiedDomainName?: string;
  globalIdentifier?: string;
  notes?: string;
  primaryIpAddress?: string;
  primaryBackendIpAddress?: string;
  provisionDate?: string;
  hourlyBillingFlag?: boolean;
  operatingSystemReferenceCode?: string;
  processorPhysicalCoreAmount?: number;
  memoryCapacity?: number;
  datacenter?: { name: string };
  fixedConfigurationPreset?: { id: number; keyName: string };
  primaryNetworkComponent?: Uplink;
  primaryBackendNetworkComponent?: Uplink;
  networkVlans?: { id: number; networkSpace?: string }[];
  hardwareStatus?: { status: string };
  activeTransaction?: { id: number; transactionStatus?: { name?: string; friendlyName?: string } };
  lastOperatingSystemReload?: { id: number };
  billingItem?: {
    id: number;
    hourlyFlag?: boolean;
    recurringFee?: string;
    hourlyRecurringFee?: string;
    cancellationDate?: string;
  };
  tagReferences?: TagReference[];
  sshKeys?: { id: number }[];
  userData?: { value: string }[];
}

/** One of a server's uplinks: its port's speed, what it runs at, whether ordered redundant. */
export interface Uplink {
  maxSpeed?: number;
  speed?: number;
  redundancyCapableFlag?: boolean;
}

/** Which uplink a speed change is for. */
export type UplinkSide = 'public' | 'private';

const UPLINK_MASK = 'maxSpeed,speed,redundancyCapableFlag';

/**
 * What a list of the account's servers reads (`Account.getHardware` answers `Svc_Hardware`, which
 * has no transactions: whether one is provisioned is its provision date).
 */
export const HARDWARE_LIST_MASK = [
  'id,hostname,domain,fullyQualifiedDomainName,globalIdentifier,notes',
  'primaryIpAddress,primaryBackendIpAddress,provisionDate,hourlyBillingFlag',
  'operatingSystemReferenceCode,processorPhysicalCoreAmount,memoryCapacity,datacenter.name',
  'fixedConfigurationPreset[id,keyName],networkVlans[id,networkSpace]',
  `primaryNetworkComponent[${UPLINK_MASK}],primaryBackendNetworkComponent[${UPLINK_MASK}]`,
  'hardwareStatus.status',
  'billingItem[id,hourlyFlag,recurringFee,hourlyRecurringFee,cancellationDate]',
  'tagReferences.tag.name,sshKeys.id,userData.value',
].join(',');

/** What a read of one server reads: the list's, and its transactions. */
export const HARDWARE_DETAIL_MASK = `${HARDWARE_LIST_MASK},activeTransaction[id,transactionStatus[name,friendlyName]],lastOperatingSystemReload.id`;

/** What one server's order fixes. */
export interface HardwareOrder {
  preset: string;
  os: string;
  portSpeed: number;
  /** Redundant uplinks (two bonded ports on each network); left out, single ones. */
  redundant?: boolean;
  datacenter: string;
  hourly: boolean;
  hostname: string;
  domain: string;
  userData?: string;
  publicVlanId?: number;
  privateVlanId?: number;
  sshKeyIds: number[];
  /** Written with the server (tag references), so a lost answer's server is found. */
  tags: string[];
}

/** A preset of the package as `getActivePresets` lists it. */
export interface HardwarePreset {
  id: number;
  keyName: string;
  description?: string;
  /** Absent for a preset billed monthly only. */
  totalMinimumHourlyFee?: string;
  totalMinimumRecurringFee?: string;
}

interface PackageItem {
  keyName: string;
  capacity?: string;
  itemCategory?: { categoryCode: string };
  softwareDescription?: { referenceCode: string };
  prices: { id: number; locationGroupId?: number | string }[];
}

/** What the package sells besides its presets: each operating system and port speed. */
export interface HardwareOptions {
  presets: HardwarePreset[];
  /** OS reference code -> its default price id. */
  operatingSystems: Map<string, number>;
  /** Port speed (Mbps) -> its default price id: single uplinks. */
  portSpeeds: Map<number, number>;
  /** The same for redundant uplinks. */
  redundantPortSpeeds: Map<number, number>;
}

/** The port items a server is ordered with (the package sells unbonded and private-only too). */
const SINGLE_PORTS = /^\d+_[MG]BPS_PUBLIC_PRIVATE_NETWORK_UPLINKS$/;
const REDUNDANT_PORTS = /^\d+_[MG]BPS_REDUNDANT_PUBLIC_PRIVATE_NETWORK_UPLINKS$/;

const ITEM_MASK =
  'mask[keyName,capacity,itemCategory.categoryCode,softwareDescription.referenceCode,prices[id,locationGroupId]]';
const PRESET_MASK = 'mask[id,keyName,description,totalMinimumHourlyFee,totalMinimumRecurringFee]';

/** The price good in every location (no location group), as the reference client picks it. */
const defaultPrice = (item: PackageItem) =>
  item.prices.find((p) => p.locationGroupId === undefined || p.locationGroupId === '')?.id;

/** The provisioning is over (successfully): the API shows a provision date. */
export const isProvisioned = (server: BareMetalServer) => Boolean(server.provisionDate);

/** The provisioning failed: the server will never become ready. */
export const provisioningFailed = (server: BareMetalServer) =>
  server.hardwareStatus?.status === 'DEPLOY_FAILED';

/** A cancelled server (at the anniversary): still listed, but gone for whoever cancelled it. */
export const isCancelled = (server: BareMetalServer) =>
  server.billingItem?.cancellationDate !== undefined;

export function hardwareStatus(server: BareMetalServer): string {
  const status = server.activeTransaction?.transactionStatus;
  if (status) return status.friendlyName ?? status.name ?? 'transaction running';
  return server.provisionDate ? 'ready' : (server.hardwareStatus?.status ?? 'provisioning');
}

export class HardwareManager extends ProductOrderManager {
  private options?: Promise<HardwareOptions>;

  /** The package's presets, operating systems and port speeds (asked once per manager). */
  createOptions(): Promise<HardwareOptions> {
    this.options ??= this.readOptions();
    this.options.catch(() => (this.options = undefined));
    return this.options;
  }

  private async readOptions(): Promise<HardwareOptions> {
    const [presets, items] = await Promise.all([
      this.client.call('Product_Package', 'getActivePresets', {
        id: BARE_METAL_PACKAGE_ID,
        mask: PRESET_MASK,
      }) as Promise<HardwarePreset[]>,
      this.client.call('Product_Package', 'getItems', {
        id: BARE_METAL_PACKAGE_ID,
        mask: ITEM_MASK,
      }) as Promise<PackageItem[]>,
    ]);
    const operatingSystems = new Map<string, number>();
    const portSpeeds = new Map<number, number>();
    const redundantPortSpeeds = new Map<number, number>();
    for (const item of items) {
      const price = defaultPrice(item);
      const category = item.itemCategory?.categoryCode;
      if (price === undefined) continue;
      if (category === 'os' && item.softwareDescription)
        operatingSystems.set(item.softwareDescription.referenceCode, price);
      if (category !== 'port_speed') continue;
      if (SINGLE_PORTS.test(item.keyName)) portSpeeds.set(Number(item.capacity), price);
      if (REDUNDANT_PORTS.test(item.keyName)) redundantPortSpeeds.set(Number(item.capacity), price);
    }
    return { presets, operatingSystems, portSpeeds, redundantPortSpeeds };
  }

  private names?: Promise<string[]>;

  /** The short names of the API's datacenters (asked once per manager). */
  datacenters(): Promise<string[]> {
    this.names ??= (
      this.client.call('Location_Datacenter', 'getDatacenters', { mask: 'id,name' }) as Promise<
        { name: string }[]
      >
    ).then((list) => list.map((d) => d.name));
    this.names.catch(() => (this.names = undefined));
    return this.names;
  }

  /** The order container of one server; an Error naming what the package does not sell. */
  async orderContainer(order: HardwareOrder): Promise<Record<string, unknown>> {
    const options = await this.createOptions();
    const preset = options.presets.find((p) => p.keyName === order.preset);
    const os = options.operatingSystems.get(order.os);
    const ports = order.redundant ? options.redundantPortSpeeds : options.portSpeeds;
    const port = ports.get(order.portSpeed);
    if (!preset) throw new Error(`the bare-metal package has no preset ${order.preset}`);
    if (os === undefined)
      throw new Error(`the bare-metal package has no operating system ${order.os}`);
    if (port === undefined)
      throw new Error(
        `the bare-metal package has no ${order.portSpeed} Mbps ${order.redundant ? 'redundant ' : ''}port`,
      );
    const vlan = (id?: number) => (id === undefined ? {} : { networkVlan: { id } });
    return {
      complexType: HARDWARE_ORDER_TYPE,
      packageId: BARE_METAL_PACKAGE_ID,
      presetId: preset.id,
      location: order.datacenter,
      quantity: 1,
      useHourlyPricing: order.hourly,
      prices: [{ id: os }, { id: port }],
      hardware: [
        {
          hostname: order.hostname,
          domain: order.domain,
          ...(order.userData ? { userData: [{ value: order.userData }] } : {}),
          ...(order.publicVlanId === undefined
            ? {}
            : { primaryNetworkComponent: vlan(order.publicVlanId) }),
          ...(order.privateVlanId === undefined
            ? {}
            : { primaryBackendNetworkComponent: vlan(order.privateVlanId) }),
          tagReferences: order.tags.map((name) => ({ tag: { name } })),
        },
      ],
      sshKeys: [{ sshKeyIds: order.sshKeyIds }],
    };
  }

  /** The account's servers carrying `tag` (a creation token), cancelled ones included. */
  async listTagged(tag: string, mask = HARDWARE_LIST_MASK): Promise<BareMetalServer[]> {
    return (await this.client.call('Account', 'getHardware', {
      mask,
      filter: { hardware: { tagReferences: { tag: { name: { operation: tag } } } } },
    })) as BareMetalServer[];
  }

  async listServers(mask = HARDWARE_LIST_MASK): Promise<BareMetalServer[]> {
    return (await this.client.call('Account', 'getHardware', { mask })) as BareMetalServer[];
  }

  getServer(id: number, mask = HARDWARE_DETAIL_MASK): Promise<BareMetalServer> {
    return this.client.call('Hardware_Server', 'getObject', {
      id,
      mask,
    }) as Promise<BareMetalServer>;
  }

  findServer(id: number, mask = HARDWARE_DETAIL_MASK): Promise<BareMetalServer | undefined> {
    return unlessNotFound(this.getServer(id, mask));
  }

  /** A VLAN of the account, if it has one of that id: its space and datacenter. */
  findVlan(id: number) {
    return unlessNotFound(
      this.client.call('Network_Vlan', 'getObject', {
        id,
        mask: 'id,networkSpace,datacenter.name',
      }) as Promise<{ id: number; networkSpace?: string; datacenter?: { name: string } }>,
    );
  }

  /** Hostname, domain and notes in one `editObject`. */
  async edit(id: number, changes: { hostname?: string; domain?: string; notes?: string }) {
    await this.client.call('Hardware_Server', 'editObject', { id, args: [changes] });
  }

  async setTags(id: number, tags: string[]): Promise<void> {
    await this.client.call('Hardware_Server', 'setTags', { id, args: [tags.join(',')] });
  }

  /** Reinstalls the server in place (`FORCE`: no confirmation), with this OS price and keys. */
  async reload(id: number, config: { osPriceId?: number; sshKeyIds: number[] }): Promise<void> {
    await this.client.call('Hardware_Server', 'reloadOperatingSystem', {
      id,
      args: [
        'FORCE',
        {
          sshKeyIds: config.sshKeyIds,
          ...(config.osPriceId === undefined ? {} : { itemPrices: [{ id: config.osPriceId }] }),
        },
      ],
    });
  }

  /**
   * Sets one uplink's speed (up to its port's), keeping redundant uplinks redundant (left out,
   * the API takes the best the server has). The API answers before the switch port is changed:
   * the caller waits for `speed` to show it; another change meanwhile is refused as busy.
   */
  async setPortSpeed(id: number, side: UplinkSide, speed: number, redundant: boolean) {
    const method =
      side === 'public' ? 'setPublicNetworkInterfaceSpeed' : 'setPrivateNetworkInterfaceSpeed';
    await this.client.call('Hardware_Server', method, {
      id,
      args: redundant ? [speed, 'redundant'] : [speed],
    });
  }

  /** Cancels the server's billing item: at once, or at its anniversary. */
  async cancel(billingItemId: number, immediate: boolean, reason: string): Promise<void> {
    await cancelBillingItem(this.client, billingItemId, { immediate, reason, associated: false });
  }
}

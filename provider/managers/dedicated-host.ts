import { unlessNotFound } from './not-found';
import { cancelBillingItem } from './billing-item';
import { ProductOrderManager } from './product-order';

/**
 * Dedicated hosts (`Svc_Virtual_DedicatedHost`), ordered the way the reference client orders them
 * (softlayer-python `DedicatedHostManager`): a host size of the DEDICATED_HOST package (an item of
 * `dedicated_virtual_hosts`: its cores, with the memory and disk bundled with it), a datacenter
 * and the backend router `getAvailableRouters` offers there; renamed in place; cancelled through
 * the billing item. A host's order carries its creation token as a tag, so a lost answer finds it.
 */

export const HOST_PACKAGE_KEY = 'DEDICATED_HOST';
export const HOST_ORDER_TYPE = 'Svc_Container_Product_Order_Virtual_DedicatedHost';

export interface DedicatedHost {
  id: number;
  name?: string;
  notes?: string;
  cpuCount?: number;
  memoryCapacity?: number;
  diskCapacity?: number;
  createDate?: string;
  guestCount?: number;
  datacenter?: { name: string };
  backendRouter?: { id: number; hostname?: string };
  allocationStatus?: {
    cpuAvailable?: number;
    memoryAvailable?: number;
    diskAvailable?: number;
  };
  guests?: { id: number; hostname?: string }[];
  billingItem?: {
    id: number;
    hourlyFlag?: boolean;
    recurringFee?: string;
    hourlyRecurringFee?: string;
    cancellationDate?: string;
    cycleStartDate?: string;
    nextBillDate?: string;
    description?: string;
    domainName?: string;
  };
  tagReferences?: { tag?: { name: string } }[];
}

export const DEDICATED_HOST_MASK =
  'mask[id,name,notes,cpuCount,memoryCapacity,diskCapacity,createDate,guestCount,datacenter.name,backendRouter[id,hostname],allocationStatus[cpuAvailable,memoryAvailable,diskAvailable],guests[id,hostname],billingItem[id,hourlyFlag,recurringFee,hourlyRecurringFee,cancellationDate,cycleStartDate,nextBillDate,description,domainName],tagReferences.tag.name]';

/** A host size the package sells: its key name, price and what it holds. */
export interface HostSize {
  keyName: string;
  priceId: number;
  cpuCount: number;
  memoryGb: number;
  diskGb: number;
}

interface PackageItem {
  keyName: string;
  capacity: string;
  itemCategory?: { categoryCode: string };
  prices: { id: number; locationGroupId?: unknown }[];
  bundleItems?: { capacity: string; categories?: { categoryCode: string }[] }[];
}

export interface HostOrder {
  name: string;
  domain: string;
  datacenter: string;
  size: string;
  hourly: boolean;
  creationToken: string;
}

const bundled = (item: PackageItem, category: string) =>
  Number(
    item.bundleItems?.find((b) => b.categories?.some((c) => c.categoryCode === category))
      ?.capacity ?? 0,
  );

export class DedicatedHostManager extends ProductOrderManager {
  private package?: Promise<{ id: number; items: PackageItem[] }>;

  private hostPackage() {
    this.package ??= (
      this.client.call('Product_Package', 'getAllObjects', {
        filter: { keyName: { operation: HOST_PACKAGE_KEY } },
        mask: 'id,items[keyName,capacity,itemCategory.categoryCode,prices[id,locationGroupId],bundleItems[capacity,categories.categoryCode]]',
      }) as Promise<{ id: number; items: PackageItem[] }[]>
    ).then(([pkg]) => {
      if (!pkg) throw new Error(`the API sells no ${HOST_PACKAGE_KEY} package`);
      return pkg;
    });
    return this.package;
  }

  /** The host sizes the package sells (asked once per manager). */
  async sizes(): Promise<HostSize[]> {
    const { items } = await this.hostPackage();
    return items
      .filter((i) => i.itemCategory?.categoryCode === 'dedicated_virtual_hosts')
      .map((i) => ({
        keyName: i.keyName,
        priceId: (i.prices.find((p) => !p.locationGroupId) ?? i.prices[0]).id,
        cpuCount: Number(i.capacity),
        memoryGb: bundled(i, 'dedicated_host_ram'),
        diskGb: bundled(i, 'dedicated_host_disk'),
      }));
  }

  /** The backend router a host of `size` goes behind in `datacenter` (the first offered). */
  async router(datacenter: string, size: HostSize): Promise<{ id: number; hostname?: string }> {
    const [dc] = (await this.client.call('Location_Datacenter', 'getDatacenters', {
      filter: { name: { operation: datacenter } },
      mask: 'id',
    })) as { id: number }[];
    if (!dc) throw new Error(`there is no datacenter ${datacenter}`);
    const template = {
      cpuCount: size.cpuCount,
      memoryCapacity: size.memoryGb,
      diskCapacity: size.diskGb,
      datacenter: { id: dc.id },
    };
    const [router] = (await this.client.call('Virtual_DedicatedHost', 'getAvailableRouters', {
      args: [template],
      mask: 'id,hostname',
    })) as { id: number; hostname?: string }[];
    if (!router) throw new Error(`no backend router in ${datacenter} takes a host of this size`);
    return router;
  }

  async orderContainer(order: HostOrder): Promise<Record<string, unknown>> {
    const size = (await this.sizes()).find((s) => s.keyName === order.size);
    if (!size) throw new Error(`the package sells no host size ${order.size}`);
    const router = await this.router(order.datacenter, size);
    return {
      complexType: HOST_ORDER_TYPE,
      packageId: (await this.hostPackage()).id,
      location: order.datacenter,
      quantity: 1,
      prices: [{ id: size.priceId }],
      hardware: [
        {
          hostname: order.name,
          domain: order.domain,
          primaryBackendNetworkComponent: { router: { id: router.id } },
          tagReferences: [{ tag: { name: order.creationToken } }],
        },
      ],
      useHourlyPricing: order.hourly,
    };
  }

  /** The hosts carrying tag `token` (what an order with that creation token made). */
  async findByToken(token: string): Promise<DedicatedHost[]> {
    return (await this.client.call('Account', 'getDedicatedHosts', {
      mask: DEDICATED_HOST_MASK,
      filter: { dedicatedHosts: { tagReferences: { tag: { name: { operation: token } } } } },
    })) as DedicatedHost[];
  }

  async listHosts(): Promise<DedicatedHost[]> {
    return (await this.client.call('Account', 'getDedicatedHosts', {
      mask: DEDICATED_HOST_MASK,
    })) as DedicatedHost[];
  }

  getHost(id: number, mask = DEDICATED_HOST_MASK): Promise<DedicatedHost> {
    return this.client.call('Virtual_DedicatedHost', 'getObject', {
      id,
      mask,
    }) as Promise<DedicatedHost>;
  }

  findHost(id: number, mask = DEDICATED_HOST_MASK): Promise<DedicatedHost | undefined> {
    return unlessNotFound(this.getHost(id, mask));
  }

  async edit(id: number, changes: { name?: string; notes?: string }): Promise<void> {
    await this.client.call('Virtual_DedicatedHost', 'editObject', { id, args: [changes] });
  }

  /** Cancels the host's billing item: at once, or at the anniversary. */
  cancel(billingItemId: number, immediate: boolean, reason: string): Promise<void> {
    return cancelBillingItem(this.client, billingItemId, { immediate, reason, associated: true });
  }
}

import type { Client } from '../../client';
import { unlessNotFound } from '../../managers/not-found';

/**
 * The calls of a VLAN (`Svc_Network_Vlan`) the kind, its lookup and its faces make, as the
 * reference client makes them (softlayer-python `slcli vlan create` / `cancel`,
 * terraform-provider-ibm `ibm_network_vlan`): the order container of the VLAN package, the
 * pods' routers, the account's VLANs, an edit of name and note, the cancel of its billing item.
 */

export const NETWORK_SPACES = ['PUBLIC', 'PRIVATE'] as const;
export type NetworkSpace = (typeof NETWORK_SPACES)[number];

export interface Vlan {
  id: number;
  vlanNumber?: number;
  name?: string;
  note?: string;
  fullyQualifiedName?: string;
  networkSpace?: NetworkSpace;
  primaryRouter?: { fullyQualifiedDomainName?: string; datacenter?: { name: string } };
  virtualGuests?: { id: number; hostname?: string }[];
  billingItem?: {
    id: number;
    recurringFee?: string;
    hourlyRecurringFee?: string;
    cancellationDate?: string;
    notes?: string;
  };
}

export const VLAN_MASK =
  'mask[id,vlanNumber,name,note,fullyQualifiedName,networkSpace,primaryRouter[fullyQualifiedDomainName,datacenter.name],virtualGuests[id,hostname],billingItem[id,recurringFee,hourlyRecurringFee,cancellationDate,notes]]';

export const VLAN_PACKAGE_KEY = 'NETWORK_VLAN';
export const VLAN_ORDER = 'Svc_Container_Product_Order_Network_Vlan';

interface PackageItem {
  keyName: string;
  /** The standard price has no location group (the API answers it empty). */
  prices: { id: number; locationGroupId?: number | string | null }[];
}

interface Pod {
  datacenterName: string;
  frontendRouterId: number;
  frontendRouterName: string;
  backendRouterId: number;
  backendRouterName: string;
}

/** The router of `hostname` in `datacenter`'s pods for `space`, or an Error naming those it has. */
export async function routerId(
  client: Client,
  datacenter: string,
  space: NetworkSpace,
  hostname: string,
): Promise<number> {
  const pods = ((await client.call('Network_Pod', 'getAllObjects')) as Pod[]).filter(
    (p) => p.datacenterName === datacenter,
  );
  const routers = pods.map((p) =>
    space === 'PUBLIC'
      ? { id: p.frontendRouterId, name: p.frontendRouterName }
      : { id: p.backendRouterId, name: p.backendRouterName },
  );
  const found = routers.find((r) => r.name === hostname);
  if (!found)
    throw new Error(
      `routerHostname: ${hostname} is not a ${space === 'PUBLIC' ? 'frontend' : 'backend'} router of ${datacenter}, so it cannot take a ${space.toLowerCase()} VLAN; ${datacenter} has ${routers.map((r) => r.name).join(', ') || 'none'}`,
    );
  return found.id;
}

export interface VlanOrder {
  datacenter: string;
  networkSpace: NetworkSpace;
  routerHostname?: string;
  name?: string;
  /** Kept as the VLAN's billing item's notes: finds it when the order's answer is lost. */
  containerIdentifier: string;
}

/** The order container of a VLAN, its price found among the VLAN package's items. */
export async function orderContainer(
  client: Client,
  order: VlanOrder,
): Promise<Record<string, unknown>> {
  const [pkg] = (await client.call('Product_Package', 'getAllObjects', {
    mask: 'id,keyName',
    filter: { keyName: { operation: VLAN_PACKAGE_KEY } },
  })) as { id: number }[];
  if (!pkg) throw new Error(`the API sells no VLAN package (${VLAN_PACKAGE_KEY})`);
  const items = (await client.call('Product_Package', 'getItems', {
    id: pkg.id,
    mask: 'keyName,prices[id,locationGroupId]',
  })) as PackageItem[];
  const keyName = `${order.networkSpace}_NETWORK_VLAN`;
  const price = items.find((i) => i.keyName === keyName)?.prices.find((p) => !p.locationGroupId);
  if (!price) throw new Error(`the VLAN package has no price for ${keyName}`);
  return {
    complexType: VLAN_ORDER,
    packageId: pkg.id,
    location: order.datacenter,
    quantity: 1,
    prices: [{ id: price.id }],
    ...(order.name ? { name: order.name } : {}),
    ...(order.routerHostname
      ? {
          routerId: await routerId(
            client,
            order.datacenter,
            order.networkSpace,
            order.routerHostname,
          ),
        }
      : {}),
    containerIdentifier: order.containerIdentifier,
  };
}

/** The order priced, nothing placed. */
export const verifyOrder = async (client: Client, container: Record<string, unknown>) =>
  (await client.call('Product_Order', 'verifyOrder', { args: [container] })) as Record<
    string,
    unknown
  >;

/** Places the order. A write: the client never repeats it on its own. */
export async function placeOrder(client: Client, container: Record<string, unknown>) {
  await client.call('Product_Order', 'placeOrder', { args: [container] });
}

export const listVlans = async (client: Client, filter?: Record<string, unknown>) =>
  (await client.call('Account', 'getNetworkVlans', {
    mask: VLAN_MASK,
    ...(filter ? { filter: { networkVlans: filter } } : {}),
  })) as Vlan[];

/** The VLANs an order carrying this container identifier made. */
export const vlansOrderedWith = (client: Client, identifier: string) =>
  listVlans(client, { billingItem: { notes: { operation: identifier } } });

export const findVlan = (client: Client, id: number, mask = VLAN_MASK) =>
  unlessNotFound(client.call('Network_Vlan', 'getObject', { id, mask }) as Promise<Vlan>);

export async function editVlan(client: Client, id: number, edit: { name?: string; note?: string }) {
  await client.call('Network_Vlan', 'editObject', { id, args: [edit] });
}

/** Why the API would refuse to cancel it now (what is still on it). */
export const cancelFailureReasons = async (client: Client, id: number) =>
  (await client.call('Network_Vlan', 'getCancelFailureReasons', { id })) as string[];

/** Cancels the VLAN's billing item: at once, or at the anniversary. */
export async function cancelVlan(client: Client, billingItemId: number, immediate: boolean) {
  await client.call('Billing_Item', 'cancelItem', {
    id: billingItemId,
    args: [immediate, true, 'Deleted by Pulumi', 'Deleted by Pulumi'],
  });
}

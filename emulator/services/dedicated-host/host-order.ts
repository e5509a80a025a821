/**
 * Dedicated hosts ordered the way the reference client orders them (softlayer-python
 * `DedicatedHostManager._generate_create_dict`): `Svc_Container_Product_Order_Virtual_DedicatedHost`
 * with the DEDICATED_HOST package, `location`, `quantity` 1, one price of a host size
 * (`dedicated_virtual_hosts`), `hardware: [{hostname, domain, primaryBackendNetworkComponent:
 * {router: {id}}}]` (the backend router of the host's datacenter, `getAvailableRouters`),
 * `useHourlyPricing` and `containerIdentifier`; tags in `hardware[0].tagReferences` are written
 * with the host. Refused as the API refuses them, naming the property.
 */
import { orderTotals, orderedPrice } from '../../catalog';
import { invalidValue, publicFault } from '../../errors';
import type { WriteOp } from '../../store';
import {
  checkDomain,
  checkHostname,
  isStruct,
  listOf,
  present,
  readFlag,
  readInt,
  readString,
  structAt,
} from '../../validators';
import { discounted } from '../account/discounts';
import type { AuthedContext } from '../context';
import { routerFor, routerHostname } from '../network/model';
import { HOST_PACKAGE, hostItemByPrice, type HostItem } from '../product-package/host-items';
import { newBillingItem } from '../billing-item/model';
import { placedAsVerified } from '../service';
import { readLocation } from '../virtual-guest/guest-order-prices';
import { resolveTags } from '../virtual-guest/model';
import { HOST_BILLING_CATEGORY } from './cancel';
import type { DedicatedHostRec } from './model';

export const HOST_ORDER = 'Svc_Container_Product_Order_Virtual_DedicatedHost';

const ORDER_KEYS = new Set([
  'complexType',
  'packageId',
  'prices',
  'quantity',
  'location',
  'useHourlyPricing',
  'hardware',
  'containerIdentifier',
]);
const HOST_KEYS = new Set([
  'hostname',
  'domain',
  'primaryBackendNetworkComponent',
  'tagReferences',
  'complexType',
]);

function checkKeys(c: Record<string, unknown>): void {
  for (const key of Object.keys(c)) {
    if (!ORDER_KEYS.has(key) && present(c[key]))
      throw publicFault(`${HOST_ORDER}.${key} is not modeled by this emulator; leave it out.`);
  }
  const pkg = present(c.packageId) ? readInt(c.packageId, 'packageId') : undefined;
  if (pkg !== HOST_PACKAGE.id)
    throw publicFault(
      `Invalid package #${pkg ?? 'none'}: dedicated hosts are ordered from package ${HOST_PACKAGE.id} (${HOST_PACKAGE.keyName}).`,
    );
  if (present(c.quantity) && readInt(c.quantity, 'quantity') !== 1)
    throw invalidValue(
      "Invalid value provided for 'quantity': a dedicated host order is for 1 host.",
    );
}

function readSize(value: unknown): HostItem {
  const prices = listOf(value ?? [], 'prices');
  if (prices.length !== 1)
    throw publicFault(
      `The order needs exactly one price, of the category dedicated_virtual_hosts (a host size); it has ${prices.length}.`,
    );
  const id = readInt(isStruct(prices[0]) ? prices[0].id : undefined, 'prices[0].id');
  const item = hostItemByPrice(id);
  if (!item)
    throw publicFault(
      `Price #${id} (prices[0]) is not a price of package ${HOST_PACKAGE.id}; see Product_Package::getItems.`,
    );
  return item;
}

interface HostSpec {
  hostname: string;
  domain: string;
  routerId: number;
  tags: string[];
}

function readHost(value: unknown, datacenter: ReturnType<typeof readLocation>): HostSpec {
  const hosts = listOf(value ?? [], 'hardware');
  if (hosts.length !== 1)
    throw invalidValue(
      `The order needs 'hardware': one {hostname, domain, primaryBackendNetworkComponent}.`,
    );
  const h = structAt(hosts[0], 'hardware[0]');
  for (const key of Object.keys(h))
    if (!HOST_KEYS.has(key) && present(h[key]))
      throw publicFault(`hardware[0].${key} is not modeled by this emulator; leave it out.`);
  const field = 'hardware[0].primaryBackendNetworkComponent.router.id';
  if (!present(h.primaryBackendNetworkComponent))
    throw invalidValue(`The order needs '${field}': a backend router (getAvailableRouters).`);
  const nic = structAt(
    h.primaryBackendNetworkComponent,
    'hardware[0].primaryBackendNetworkComponent',
  );
  const routerId = readInt(
    structAt(nic.router, 'hardware[0].primaryBackendNetworkComponent.router').id,
    field,
  );
  const router = routerFor(datacenter, 'PRIVATE');
  if (routerId !== router.id)
    throw publicFault(
      `${field}: ${routerId} is not a backend router of ${datacenter.name}; the host can be placed behind ${routerHostname(router)} (id ${router.id}).`,
    );
  const tags = listOf(h.tagReferences ?? [], 'hardware[0].tagReferences').map((ref, j) => {
    const at = `hardware[0].tagReferences[${j}].tag`;
    return readString(structAt(structAt(ref, at).tag, at).name, `${at}.name`).trim();
  });
  return {
    hostname: checkHostname(h.hostname, 'hardware[0].hostname'),
    domain: checkDomain(h.domain, 'hardware[0].domain'),
    routerId,
    tags: [...new Set(tags.filter((t) => t !== ''))],
  };
}

interface CheckedHost {
  item: HostItem;
  spec: HostSpec;
  datacenter: ReturnType<typeof readLocation>;
  hourly: boolean;
  fee: number;
  containerIdentifier?: string;
  verified: Record<string, unknown>;
}

function checkHostOrder(ctx: AuthedContext, c: Record<string, unknown>): CheckedHost {
  checkKeys(c);
  const datacenter = readLocation(c.location);
  const item = readSize(c.prices);
  const spec = readHost(c.hardware, datacenter);
  const hourly = present(c.useHourlyPricing)
    ? readFlag(c.useHourlyPricing, 'useHourlyPricing')
    : false;
  const fee = discounted(item.price, ctx.account.discounts).hourly;
  const verified = {
    complexType: HOST_ORDER,
    packageId: HOST_PACKAGE.id,
    location: String(datacenter.id),
    locationObject: { id: datacenter.id, name: datacenter.name, longName: datacenter.longName },
    quantity: 1,
    useHourlyPricing: hourly,
    hardware: [{ hostname: spec.hostname, domain: spec.domain }],
    prices: [orderedPrice({ ...item.price, hourly: fee }, item)],
    ...orderTotals(fee),
  };
  const containerIdentifier = present(c.containerIdentifier)
    ? readString(c.containerIdentifier, 'containerIdentifier').slice(0, 100)
    : undefined;
  return { item, spec, datacenter, hourly, fee, containerIdentifier, verified };
}

function placeHost(ctx: AuthedContext, o: CheckedHost, orderId: number): WriteOp[] {
  const id = ctx.store.nextId('dedicatedHosts');
  const billingItemId = ctx.store.nextId('billingItems');
  const tags = resolveTags(ctx.store, ctx.account.id, o.spec.tags);
  const { flavor } = o.item;
  const host: DedicatedHostRec = {
    id,
    accountId: ctx.account.id,
    name: o.spec.hostname,
    domain: o.spec.domain,
    flavorKeyName: flavor.keyName,
    cpuCount: flavor.cpuCount,
    memoryCapacity: flavor.memoryCapacity,
    diskCapacity: flavor.diskCapacity,
    datacenterId: o.datacenter.id,
    backendRouterId: o.spec.routerId,
    hourly: o.hourly,
    billingItemId,
    orderId,
    containerIdentifier: o.containerIdentifier,
    tagRefs: tags.refs,
    createDate: ctx.now,
    modifyDate: ctx.now,
  };
  return [
    ...tags.ops,
    newBillingItem(
      ctx,
      {
        id: billingItemId,
        categoryCode: HOST_BILLING_CATEGORY,
        description: flavor.description,
        hourlyFlag: o.hourly,
        resourceTableId: id,
      },
      o.fee,
    ),
    { put: 'dedicatedHosts', record: host },
  ];
}

/** The owner of dedicated-host containers (see Product_Order). */
export const hostOrder = placedAsVerified(checkHostOrder, placeHost);

/**
 * Bare metal servers ordered the way the reference client orders them (softlayer-python
 * `HardwareManager.place_order` / `_generate_create_dict`): `Product_Order.verifyOrder` /
 * `placeOrder` with a `Svc_Container_Product_Order_Hardware_Server` of package 200
 * (`BARE_METAL_SERVER`), a `presetId` of that package, the prices of one operating system and
 * one port speed, `location`, `hardware[]` (hostname, domain, user data, and tags as
 * `tagReferences`, written with the server so that a tag can serve as a creation token),
 * `sshKeys`, `useHourlyPricing` and `containerIdentifier`. Refused as the API refuses them,
 * naming the property: another package, a preset of no package 200 or billed monthly only
 * ordered hourly, a price of no such item, a missing or doubled category.
 */
import { findOs, itemPrice, money, monthlyFromHourly, type Datacenter } from '../../catalog';
import { invalidValue, publicFault } from '../../errors';
import { project } from '../../query/project';
import { typeDef } from '../../schema';
import type { WriteOp } from '../../store';
import {
  checkDomain,
  checkHostname,
  listOf,
  present,
  readFlag,
  readInt,
  readString,
  structAt,
} from '../../validators';
import { discounted } from '../account/discounts';
import type { AuthedContext } from '../context';
import { addressIn, subnetFor, vlanById } from '../network/model';
import { BARE_METAL_PACKAGE } from '../product-package/hardware-items';
import {
  hardwarePriceById,
  presetById,
  type PresetView,
  type PriceView,
} from '../product-package/model';
import type { OrderOwner } from '../service';
import { checkSshKeyIds } from '../ssh-key/model';
import { readLocation } from '../virtual-guest/guest-order-prices';
import { resolveTags, tagsByName } from '../virtual-guest/model';
import { STAGES, type HardwareRec } from './model';

export const HARDWARE_ORDER = 'Svc_Container_Product_Order_Hardware_Server';

const ORDER_KEYS = new Set([
  'complexType',
  'packageId',
  'presetId',
  'prices',
  'quantity',
  'location',
  'hardware',
  'sshKeys',
  'useHourlyPricing',
  'containerIdentifier',
]);
/** Where a server's VLANs are named, by the network space each must be of. */
const VLAN_SPACES = {
  primaryNetworkComponent: 'PUBLIC',
  primaryBackendNetworkComponent: 'PRIVATE',
} as const;

const SERVER_KEYS = new Set([
  'hostname',
  'domain',
  'userData',
  'tagReferences',
  'complexType',
  ...Object.keys(VLAN_SPACES),
]);
/** The categories an order names by price, besides the preset's server. */
const PRICED = ['os', 'port_speed'] as const;

interface ServerSpec {
  hostname: string;
  domain: string;
  userData?: string;
  tags: string[];
}

interface CheckedHardwareOrder {
  preset: PresetView;
  datacenter: Datacenter;
  hourly: boolean;
  prices: Record<'server' | (typeof PRICED)[number], PriceView>;
  servers: ServerSpec[];
  sshKeyIds: number[];
  containerIdentifier?: string;
  verified: Record<string, unknown>;
}

function checkKeys(c: Record<string, unknown>): void {
  for (const key of Object.keys(c)) {
    if (!ORDER_KEYS.has(key) && present(c[key]))
      throw publicFault(`${HARDWARE_ORDER}.${key} is not modeled by this emulator; leave it out.`);
  }
  const pkg = present(c.packageId) ? readInt(c.packageId, 'packageId') : undefined;
  if (pkg !== BARE_METAL_PACKAGE.id) {
    throw publicFault(
      `Invalid package #${pkg ?? 'none'}: bare metal servers are ordered from package ${BARE_METAL_PACKAGE.id} (${BARE_METAL_PACKAGE.keyName}).`,
    );
  }
}

function readPreset(value: unknown, hourly: boolean): PresetView {
  if (!present(value))
    throw invalidValue(
      `A bare metal order needs a 'presetId' of package ${BARE_METAL_PACKAGE.id}.`,
    );
  const id = readInt(value, 'presetId');
  const preset = presetById(id);
  if (!preset || preset.packageId !== BARE_METAL_PACKAGE.id) {
    throw publicFault(
      `Invalid preset #${id}: package ${BARE_METAL_PACKAGE.id} has no such active preset; see Product_Package::getActivePresets.`,
    );
  }
  if (hourly && preset.hourlyAvailable === false) {
    throw publicFault(
      `Preset #${id} (${preset.keyName}) is billed monthly only: set 'useHourlyPricing' to false or order an hourly preset.`,
    );
  }
  return preset;
}

/** The OS and port speed prices, each a price of package 200 at the order's location. */
function readPrices(value: unknown, datacenter: Datacenter) {
  const found = new Map<string, PriceView>();
  for (const [i, entry] of listOf(value ?? [], 'prices').entries()) {
    const id = readInt(structAt(entry, `prices[${i}]`).id, `prices[${i}].id`);
    const view = hardwarePriceById(id);
    const category = view?.item.category;
    if (!view || !(PRICED as readonly string[]).includes(category!)) {
      throw publicFault(
        `Price #${id} (prices[${i}]) is not an operating system or port speed price of package ${BARE_METAL_PACKAGE.id}; see Product_Package::getItemPrices.`,
      );
    }
    const group = view.price.locationGroupId;
    if (group !== undefined && group !== datacenter.priceGroupId) {
      throw publicFault(
        `Price #${id} (prices[${i}]) is the price of another location group than ${datacenter.name}.`,
      );
    }
    if (found.has(category!))
      throw publicFault(`Only one price per category: ${category} is given twice.`);
    found.set(category!, view);
  }
  for (const category of PRICED) {
    if (!found.has(category))
      throw publicFault(`The order needs a price of the category ${category}.`);
  }
  return found as Map<(typeof PRICED)[number], PriceView>;
}

/**
 * A VLAN the order names for a server's public or private uplink (`networkVlan.id`): one of the
 * account's, in the order's datacenter, of that space. The server is placed on it (an account has
 * one VLAN per datacenter and space here, so nothing more is recorded).
 */
function checkVlans(
  ctx: AuthedContext,
  s: Record<string, unknown>,
  i: number,
  datacenter: Datacenter,
): void {
  for (const [key, space] of Object.entries(VLAN_SPACES)) {
    if (!present(s[key])) continue;
    const field = `hardware[${i}].${key}.networkVlan.id`;
    const id = readInt(structAt(structAt(s[key], field).networkVlan, field).id, field);
    const vlan = vlanById(id);
    if (!vlan || vlan.accountId !== ctx.account.id)
      throw publicFault(`${field}: the account has no VLAN ${id}.`);
    if (vlan.datacenter.id !== datacenter.id || vlan.space !== space)
      throw publicFault(
        `${field}: VLAN ${id} is a ${vlan.space.toLowerCase()} VLAN in ${vlan.datacenter.name}; this uplink takes a ${space.toLowerCase()} VLAN in ${datacenter.name}.`,
      );
  }
}

function readServers(
  ctx: AuthedContext,
  value: unknown,
  quantity: number,
  datacenter: Datacenter,
): ServerSpec[] {
  const servers = listOf(value ?? [], 'hardware');
  if (servers.length !== quantity) {
    throw invalidValue(
      `The order has quantity ${quantity} and ${servers.length} entries in 'hardware': give one {hostname, domain} per server.`,
    );
  }
  return servers.map((entry, i) => {
    const s = structAt(entry, `hardware[${i}]`);
    for (const key of Object.keys(s)) {
      if (!SERVER_KEYS.has(key) && present(s[key]))
        throw publicFault(`hardware[${i}].${key} is not modeled by this emulator; leave it out.`);
    }
    checkVlans(ctx, s, i, datacenter);
    const userData = listOf(s.userData ?? [], `hardware[${i}].userData`).map((u, j) =>
      readString(structAt(u, `userData[${j}]`).value, `hardware[${i}].userData[${j}].value`),
    );
    const tags = listOf(s.tagReferences ?? [], `hardware[${i}].tagReferences`).map((ref, j) => {
      const field = `hardware[${i}].tagReferences[${j}].tag`;
      return readString(structAt(structAt(ref, field).tag, field).name, `${field}.name`).trim();
    });
    return {
      hostname: checkHostname(s.hostname, `hardware[${i}].hostname`),
      domain: checkDomain(s.domain, `hardware[${i}].domain`),
      userData: userData[0],
      tags: [...new Set(tags.filter((t) => t !== ''))],
    };
  });
}

function readSshKeys(ctx: AuthedContext, value: unknown): number[] {
  const entries = listOf(value ?? [], 'sshKeys');
  if (entries.length > 1)
    throw invalidValue("'sshKeys' takes one {sshKeyIds} entry for all the servers of the order.");
  const ids = entries.length
    ? listOf(structAt(entries[0], 'sshKeys[0]').sshKeyIds ?? [], 'sshKeys[0].sshKeyIds').map(
        (id, j) => readInt(id, `sshKeys[0].sshKeyIds[${j}]`),
      )
    : [];
  checkSshKeyIds(ctx, ids);
  return ids;
}

function checkHardwareOrder(ctx: AuthedContext, c: Record<string, unknown>): CheckedHardwareOrder {
  checkKeys(c);
  const datacenter = readLocation(c.location);
  const hourly = present(c.useHourlyPricing)
    ? readFlag(c.useHourlyPricing, 'useHourlyPricing')
    : false;
  const preset = readPreset(c.presetId, hourly);
  const priced = readPrices(c.prices, datacenter);
  const prices = {
    server: preset.prices[0],
    os: priced.get('os')!,
    port_speed: priced.get('port_speed')!,
  };
  const quantity = present(c.quantity) ? readInt(c.quantity, 'quantity') : 1;
  if (quantity < 1 || quantity > 10)
    throw invalidValue(
      `Invalid value provided for 'quantity': ${quantity} (1 to 10 servers per order).`,
    );
  const servers = readServers(ctx, c.hardware, quantity, datacenter);
  const sshKeyIds = readSshKeys(ctx, c.sshKeys);
  const containerIdentifier = present(c.containerIdentifier)
    ? readString(c.containerIdentifier, 'containerIdentifier').slice(0, 100)
    : undefined;
  const checked = { preset, datacenter, hourly, prices, servers, sshKeyIds, containerIdentifier };
  return { ...checked, verified: verified(ctx, checked) };
}

/** The server's fee per hour at the account's prices (preset, OS and port speed). */
const hourlyFee = (ctx: AuthedContext, order: Pick<CheckedHardwareOrder, 'prices'>) =>
  Object.values(order.prices).reduce(
    (sum, p) => sum + discounted(p.price, ctx.account.discounts).hourly,
    0,
  );

function verified(
  ctx: AuthedContext,
  o: Omit<CheckedHardwareOrder, 'verified'>,
): Record<string, unknown> {
  const total = hourlyFee(ctx, o) * o.servers.length;
  return {
    complexType: HARDWARE_ORDER,
    packageId: BARE_METAL_PACKAGE.id,
    presetId: o.preset.id,
    location: String(o.datacenter.id),
    locationObject: {
      id: o.datacenter.id,
      name: o.datacenter.name,
      longName: o.datacenter.longName,
    },
    quantity: o.servers.length,
    useHourlyPricing: o.hourly,
    prices: Object.entries(o.prices).map(([category, view]) => ({
      ...itemPrice(discounted(view.price, ctx.account.discounts)),
      categories: [{ categoryCode: category }],
      item: { id: view.item.id, keyName: view.item.keyName, description: view.item.description },
    })),
    hardware: o.servers.map((s) => ({ hostname: s.hostname, domain: s.domain })),
    sshKeys: [{ sshKeyIds: o.sshKeyIds }],
    ...(o.containerIdentifier ? { containerIdentifier: o.containerIdentifier } : {}),
    postTaxRecurringHourly: o.hourly ? money(total, 4) : '0',
    postTaxRecurringMonthly: money(monthlyFromHourly(total), 2),
    postTaxRecurring: money(monthlyFromHourly(total), 2),
  };
}

/** The stage a server ordered now fails at, from the emulator's `failHardwareAt` setting. */
function failAtStage(ctx: AuthedContext): number | undefined {
  const name = ctx.settings.failHardwareAt;
  const index = STAGES.findIndex((s) => s.name === name);
  return index < 0 ? undefined : index;
}

function placeServer(
  ctx: AuthedContext,
  o: CheckedHardwareOrder,
  spec: ServerSpec,
  orderId: number,
  known: ReturnType<typeof tagsByName>,
): { ops: WriteOp[]; server: HardwareRec } {
  const id = ctx.store.nextId('hardware');
  const billingItemId = ctx.store.nextId('billingItems');
  const fee = hourlyFee(ctx, o);
  const stageMs = ctx.settings.hardwareStageMs ?? ctx.settings.provisioningDelayMs;
  const tags = resolveTags(ctx.store, ctx.account.id, spec.tags, { known });
  const address = (space: 'PUBLIC' | 'PRIVATE') =>
    addressIn(subnetFor(ctx.account.id, o.datacenter, space), id);
  const server: HardwareRec = {
    id,
    accountId: ctx.account.id,
    globalIdentifier: crypto.randomUUID(),
    hostname: spec.hostname,
    domain: spec.domain,
    datacenterId: o.datacenter.id,
    processorPhysicalCoreAmount: o.preset.cpus,
    memoryCapacity: o.preset.memory / 1024,
    primaryIpAddress: address('PUBLIC'),
    primaryBackendIpAddress: address('PRIVATE'),
    provisionDate: ctx.now + STAGES.length * stageMs,
    tagRefs: tags.refs,
    ordered: {
      orderId,
      billingItemId,
      orderedByUserId: ctx.user.id,
      hourly: o.hourly,
      presetId: o.preset.id,
      osCode: findOs(o.prices.os.item.os!.referenceCode)!.referenceCode,
      portSpeed: o.prices.port_speed.item.capacity,
      redundant: o.prices.port_speed.item.keyName.includes('_REDUNDANT_'),
      sshKeyIds: o.sshKeyIds,
      userData: spec.userData,
      containerIdentifier: o.containerIdentifier,
      transactionId: ctx.store.nextSubId(),
      createDate: ctx.now,
      stageMs,
      failAtStage: failAtStage(ctx),
    },
  };
  const item = {
    id: billingItemId,
    accountId: ctx.account.id,
    categoryCode: 'server',
    description: o.preset.description,
    hourlyFlag: o.hourly,
    hourlyRecurringFee: o.hourly ? money(fee, 4) : '0',
    recurringFee: money(monthlyFromHourly(fee), 2),
    createDate: ctx.now,
    resourceTableId: id,
  };
  return {
    server,
    ops: [...tags.ops, { put: 'billingItems', record: item }, { put: 'hardware', record: server }],
  };
}

/** The owner of bare-metal order containers (see Product_Order). */
export const hardwareOrder: OrderOwner = {
  check: (ctx, container) => {
    const checked = checkHardwareOrder(ctx, container);
    return {
      verified: checked.verified,
      place: (placing, orderId) => {
        const known = tagsByName(placing.store, placing.account.id);
        const placed = checked.servers.map((s) => placeServer(placing, checked, s, orderId, known));
        const type = typeDef('Svc_Hardware_Server');
        return {
          ops: placed.flatMap((p) => p.ops),
          details: {
            ...checked.verified,
            hardware: placed.map((p) => project(type, p.server, undefined, placing)),
          },
        };
      },
    };
  },
};

/**
 * The networks a guest sits on, derived rather than stored: every account has, in every
 * datacenter, one public and one private VLAN, each with one primary subnet (a /16; private
 * 10.x.0.0, public 169.x.0.0). Ids, VLAN numbers and networks are pure functions of (account,
 * datacenter, space), so they are stable across restarts and need no table; an IP record's
 * address is its subnet's network plus a host number taken from the record's unique id. The IP
 * address records are stored (a guest's are created with it, a server's are seeded). A VLAN the
 * account ordered (stored) has a primary subnet derived from its id the same way, which a guest
 * ordered onto that VLAN takes its address from.
 */
import { DATACENTERS, DEFAULT_DATACENTER, datacenterById, type Datacenter } from '../../catalog';
import { table, type RecordsOf, type Store, type Tables } from '../../store';

export interface IpAddressRec {
  id: number;
  accountId: number;
  ipAddress: string;
  isPublic: boolean;
  subnetId: number;
  guestId?: number;
  hardwareId?: number;
  note?: string;
}

/**
 * A VLAN the account ordered (Product_Order, ./vlan-order.ts), beside the derived ones: billed by
 * the month through its billing item until cancelled, then gone.
 */
export interface VlanRec {
  id: number;
  accountId: number;
  datacenterId: number;
  space: Space;
  vlanNumber: number;
  name?: string;
  note?: string;
  billingItemId: number;
  orderId: number;
  createDate: number;
  modifyDate: number;
}

export const tables = {
  ipAddresses: table<IpAddressRec>(300001, ['accountId']),
  vlans: table<VlanRec>(1_480_001, ['accountId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export type Space = 'PUBLIC' | 'PRIVATE';

export interface SubnetView {
  id: number;
  accountId: number;
  datacenter: Datacenter;
  space: Space;
  /** First two octets, e.g. `10.37`. */
  prefix: string;
  vlanId: number;
  networkIdentifier: string;
  cidr: number;
  netmask: string;
  gateway: string;
  broadcastAddress: string;
  totalIpAddresses: number;
  usableIpAddressCount: number;
}

export interface VlanView {
  id: number;
  accountId: number;
  datacenter: Datacenter;
  space: Space;
  vlanNumber: number;
  /** The primary subnet (a derived VLAN's, or an ordered one's: ORDERED_SUBNET_BASE + its id). */
  subnetId?: number;
  /** An ordered VLAN's name, note and billing item. */
  name?: string;
  note?: string;
  billingItemId?: number;
}

const SUBNET_BASE = 100_000_000;
const VLAN_BASE = 200_000_000;
/** Datacenters per account in the id encoding (the catalog has fewer). */
const DC_SLOTS = 64;

const slot = (accountId: number, datacenter: Datacenter, space: Space) =>
  (accountId * DC_SLOTS + DATACENTERS.indexOf(datacenter)) * 2 + (space === 'PUBLIC' ? 1 : 0);

function decode(id: number, base: number) {
  const n = id - base;
  if (!Number.isInteger(n) || n < 0 || n >= VLAN_BASE - SUBNET_BASE) return undefined;
  const space: Space = n % 2 === 1 ? 'PUBLIC' : 'PRIVATE';
  const m = Math.floor(n / 2);
  const datacenter = DATACENTERS[m % DC_SLOTS];
  if (!datacenter) return undefined;
  return { accountId: Math.floor(m / DC_SLOTS), datacenter, space };
}

/** The subnets of ordered VLANs: this plus the VLAN's id (above every derived id). */
const ORDERED_SUBNET_BASE = 300_000_000;

/** A /16 of a private `10.x` or public `169.x` network; `n` picks x. */
const prefixOf = (space: Space, n: number) =>
  space === 'PRIVATE' ? `10.${(n % 254) + 1}` : `169.${45 + (n % 200)}`;

export function subnetFor(accountId: number, datacenter: Datacenter, space: Space): SubnetView {
  const index = DATACENTERS.indexOf(datacenter);
  // Distinct per datacenter within an account (5 and 7 are prime to the ranges).
  const n = space === 'PRIVATE' ? accountId * 7 + index * 5 : accountId * 11 + index * 7;
  const id = SUBNET_BASE + slot(accountId, datacenter, space);
  return slash16(
    id,
    VLAN_BASE + slot(accountId, datacenter, space),
    accountId,
    datacenter,
    space,
    prefixOf(space, n),
  );
}

/** An ordered VLAN's primary subnet, derived from the VLAN. */
const orderedSubnet = (v: VlanView): SubnetView =>
  slash16(
    ORDERED_SUBNET_BASE + v.id,
    v.id,
    v.accountId,
    v.datacenter,
    v.space,
    prefixOf(v.space, v.id),
  );

/** A VLAN's primary subnet, derived or ordered. */
export const subnetOfVlan = (v: VlanView): SubnetView | undefined =>
  v.id >= VLAN_BASE ? subnetById(v.subnetId ?? -1) : orderedSubnet(v);

/** A subnet by id: a derived one, or a live ordered VLAN's. */
export function anySubnetById(store: Store, id: number, now: number): SubnetView | undefined {
  if (id < ORDERED_SUBNET_BASE) return subnetById(id);
  const vlan = anyVlanById(store, id - ORDERED_SUBNET_BASE, now);
  return vlan && vlan.id < VLAN_BASE ? orderedSubnet(vlan) : undefined;
}

function slash16(
  id: number,
  vlanId: number,
  accountId: number,
  datacenter: Datacenter,
  space: Space,
  prefix: string,
): SubnetView {
  return {
    id,
    accountId,
    datacenter,
    space,
    prefix,
    vlanId,
    networkIdentifier: `${prefix}.0.0`,
    cidr: 16,
    netmask: '255.255.0.0',
    gateway: `${prefix}.0.1`,
    broadcastAddress: `${prefix}.255.255`,
    totalIpAddresses: 65_536,
    usableIpAddressCount: 65_533,
  };
}

export function vlanFor(accountId: number, datacenter: Datacenter, space: Space): VlanView {
  const index = DATACENTERS.indexOf(datacenter);
  return {
    id: VLAN_BASE + slot(accountId, datacenter, space),
    accountId,
    datacenter,
    space,
    vlanNumber: 800 + ((accountId * 13 + index * 17) % 1600) * 2 + (space === 'PUBLIC' ? 0 : 1),
    subnetId: SUBNET_BASE + slot(accountId, datacenter, space),
  };
}

export function subnetById(id: number): SubnetView | undefined {
  const parts = decode(id, SUBNET_BASE);
  return parts && subnetFor(parts.accountId, parts.datacenter, parts.space);
}

export function vlanById(id: number): VlanView | undefined {
  const parts = decode(id, VLAN_BASE);
  return parts && vlanFor(parts.accountId, parts.datacenter, parts.space);
}

/** An ordered VLAN as the API shows it. */
export const orderedVlanView = (v: VlanRec): VlanView => ({
  id: v.id,
  accountId: v.accountId,
  datacenter: datacenterById(v.datacenterId) ?? DEFAULT_DATACENTER,
  space: v.space,
  vlanNumber: v.vlanNumber,
  subnetId: ORDERED_SUBNET_BASE + v.id,
  name: v.name,
  note: v.note,
  billingItemId: v.billingItemId,
});

/** Whether an ordered VLAN still exists: not cancelled, or cancelled for a date still to come. */
export function isLiveVlan(store: Pick<Store, 'get'>, v: VlanRec, now: number): boolean {
  const cancelled = store.get('billingItems', v.billingItemId)?.cancellationDate;
  return cancelled === undefined || cancelled > now;
}

/** The account's live ordered VLANs. */
export const orderedVlans = (store: Store, accountId: number, now: number): VlanView[] =>
  store
    .by('vlans', 'accountId', accountId)
    .filter((v) => isLiveVlan(store, v, now))
    .map(orderedVlanView);

/** A VLAN by id: a live ordered one, or a derived one. */
export function anyVlanById(store: Store, id: number, now: number): VlanView | undefined {
  const ordered = store.get('vlans', id);
  if (ordered) return isLiveVlan(store, ordered, now) ? orderedVlanView(ordered) : undefined;
  return vlanById(id);
}

/** The address of IP record `ipId` in `subnet`: hosts .0.2 to .255.253 of the /16. */
export function addressIn(subnet: SubnetView, ipId: number): string {
  const host = 2 + (ipId % 65_532);
  return `${subnet.prefix}.${host >> 8}.${host & 255}`;
}

// ---------------------------------------------------------------------------------------------
// The networks of guests and servers

type Guest = Tables['guests'];

/** One of a guest's NICs: eth0 private (port 0), eth1 public (port 1, absent when private-only). */
export interface NicView {
  guest: Guest;
  space: Space;
  ip: NonNullable<Guest['publicIp']>;
}

export function networkComponents(g: Guest): NicView[] {
  const out: NicView[] = [{ guest: g, space: 'PRIVATE', ip: g.backendIp }];
  if (g.publicIp) out.push({ guest: g, space: 'PUBLIC', ip: g.publicIp });
  return out;
}

const datacenterOf = (g: { datacenterId: number }) =>
  datacenterById(g.datacenterId) ?? DEFAULT_DATACENTER;

/** Where a view reads the ordered VLANs a guest is on. */
type StoreOf = { store: Pick<Store, 'get'> };

/** An ordered VLAN by id as it is shown, cancelled or not (guests keep it from being cancelled). */
export function orderedVlan(ctx: StoreOf, id: number | undefined): VlanView | undefined {
  const rec = id === undefined ? undefined : ctx.store.get('vlans', id);
  return rec && orderedVlanView(rec);
}

/** The VLAN of a NIC: the ordered VLAN it was ordered on, else its datacenter's. */
export const vlanOfNic = (n: NicView, ctx: StoreOf): VlanView =>
  orderedVlan(ctx, n.guest.vlanIds?.[n.space]) ??
  vlanFor(n.guest.accountId, datacenterOf(n.guest), n.space);
export const subnetOfNic = (n: NicView, ctx: StoreOf): SubnetView => {
  const ordered = orderedVlan(ctx, n.guest.vlanIds?.[n.space]);
  return ordered
    ? orderedSubnet(ordered)
    : subnetFor(n.guest.accountId, datacenterOf(n.guest), n.space);
};

/** The VLANs of a guest's NICs, private first. */
export const guestVlans = (g: Guest, ctx: StoreOf): VlanView[] =>
  networkComponents(g).map((n) => vlanOfNic(n, ctx));

/** The VLANs of an object in a datacenter with public and private NICs (hardware). */
export const datacenterVlans = (accountId: number, datacenterId: number): VlanView[] =>
  (['PRIVATE', 'PUBLIC'] as const).map((space) =>
    vlanFor(accountId, datacenterOf({ datacenterId }), space),
  );

// ---------------------------------------------------------------------------------------------
// Pods and routers: one pod per datacenter, with its frontend (public) and backend routers

export interface RouterView {
  id: number;
  datacenter: Datacenter;
  space: Space;
}

export interface PodView {
  datacenter: Datacenter;
  name: string;
  frontend: RouterView;
  backend: RouterView;
}

const ROUTER_BASE = 90_000;

export const routerFor = (datacenter: Datacenter, space: Space): RouterView => ({
  id: ROUTER_BASE + DATACENTERS.indexOf(datacenter) * 2 + (space === 'PUBLIC' ? 1 : 0),
  datacenter,
  space,
});

export const routerHostname = (r: RouterView) =>
  `${r.space === 'PUBLIC' ? 'fcr' : 'bcr'}01a.${r.datacenter.name}`;

export const podFor = (datacenter: Datacenter): PodView => ({
  datacenter,
  name: `${datacenter.name}.pod01`,
  frontend: routerFor(datacenter, 'PUBLIC'),
  backend: routerFor(datacenter, 'PRIVATE'),
});

export const PODS: readonly PodView[] = DATACENTERS.map(podFor);

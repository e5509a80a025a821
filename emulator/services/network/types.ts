/**
 * Svc_Network_Vlan and Svc_Network_Subnet (derived per account, datacenter and space, see
 * model.ts) and Svc_Network_Subnet_IpAddress (the stored IP records). A guest's NICs
 * (Svc_Virtual_Guest_Network_Component) are defined with the guest.
 */
import { defineType, sameAccount, type ViewContext } from '../../schema';
import {
  networkComponents,
  podFor,
  vlanOfNic,
  routerFor,
  routerHostname,
  anySubnetById,
  anyVlanById,
  subnetOfNic,
  subnetOfVlan,
  type IpAddressRec,
  type PodView,
  type RouterView,
  type SubnetView,
  type VlanView,
} from './model';

/** The guests with a NIC in the subnet. */
const guestsOn = (s: SubnetView, ctx: ViewContext) =>
  ctx.store
    .by('guests', 'accountId', s.accountId)
    .filter((g) => networkComponents(g).some((n) => subnetOfNic(n, ctx).id === s.id));

/** The guests with a NIC on the VLAN. */
const guestsOnVlan = (v: VlanView, ctx: ViewContext) =>
  ctx.store
    .by('guests', 'accountId', v.accountId)
    .filter((g) => networkComponents(g).some((n) => vlanOfNic(n, ctx).id === v.id));

/** A VLAN's primary subnet, as a list. */
const primarySubnetsOf = (v: VlanView) => [subnetOfVlan(v)];

defineType<VlanView>('Svc_Network_Vlan', {
  locals: {
    id: (v) => v.id,
    accountId: (v) => v.accountId,
    vlanNumber: (v) => v.vlanNumber,
    fullyQualifiedName: (v) =>
      `${v.datacenter.name}.${v.space === 'PUBLIC' ? 'fcr01' : 'bcr01'}.${v.vlanNumber}`,
    primarySubnetId: (v) => v.subnetId,
    name: (v) => v.name,
    note: (v) => v.note,
  },
  onDemand: {
    networkSpace: (v) => v.space,
    podName: (v) => podFor(v.datacenter).name,
    totalPrimaryIpAddressCount: (v, ctx) =>
      ctx.store.by('ipAddresses', 'accountId', v.accountId).filter((i) => i.subnetId === v.subnetId)
        .length,
    virtualGuestCount: (v, ctx) => guestsOnVlan(v, ctx).length,
  },
  relations: {
    datacenter: { type: 'Svc_Location_Datacenter', get: (v) => v.datacenter },
    primaryRouter: { type: 'Svc_Hardware_Router', get: (v) => routerFor(v.datacenter, v.space) },
    primarySubnet: {
      type: 'Svc_Network_Subnet',
      get: subnetOfVlan,
    },
    primarySubnets: { type: 'Svc_Network_Subnet', many: true, get: primarySubnetsOf },
    subnets: { type: 'Svc_Network_Subnet', many: true, get: primarySubnetsOf },
    virtualGuests: { type: 'Svc_Virtual_Guest', many: true, get: guestsOnVlan },
    guestNetworkComponents: {
      type: 'Svc_Virtual_Guest_Network_Component',
      many: true,
      get: (v, ctx) =>
        guestsOnVlan(v, ctx).flatMap((g) =>
          networkComponents(g).filter((n) => vlanOfNic(n, ctx).id === v.id),
        ),
    },
    billingItem: {
      type: 'Svc_Billing_Item',
      get: (v, ctx) =>
        v.billingItemId === undefined ? undefined : ctx.store.get('billingItems', v.billingItemId),
    },
  },
});

defineType<SubnetView>('Svc_Network_Subnet', {
  locals: {
    id: (s) => s.id,
    networkIdentifier: (s) => s.networkIdentifier,
    cidr: (s) => s.cidr,
    netmask: (s) => s.netmask,
    gateway: (s) => s.gateway,
    broadcastAddress: (s) => s.broadcastAddress,
    totalIpAddresses: (s) => s.totalIpAddresses,
    usableIpAddressCount: (s) => s.usableIpAddressCount,
    networkVlanId: (s) => s.vlanId,
    subnetType: (s) => (s.space === 'PUBLIC' ? 'PRIMARY' : 'ADDITIONAL_PRIMARY'),
    version: () => 4,
    sortOrder: () => '0',
    isCustomerOwned: () => false,
    isCustomerRoutable: () => false,
  },
  onDemand: { addressSpace: (s) => s.space, podName: (s) => podFor(s.datacenter).name },
  relations: {
    networkVlan: {
      type: 'Svc_Network_Vlan',
      get: (s, ctx) => anyVlanById(ctx.store, s.vlanId, ctx.now),
    },
    datacenter: { type: 'Svc_Location_Datacenter', get: (s) => s.datacenter },
    ipAddresses: {
      type: 'Svc_Network_Subnet_IpAddress',
      many: true,
      get: (s, ctx) =>
        ctx.store.by('ipAddresses', 'accountId', s.accountId).filter((i) => i.subnetId === s.id),
    },
    virtualGuests: { type: 'Svc_Virtual_Guest', many: true, get: guestsOn },
  },
});

defineType<IpAddressRec>('Svc_Network_Subnet_IpAddress', {
  locals: {
    id: (i) => i.id,
    ipAddress: (i) => i.ipAddress,
    subnetId: (i) => i.subnetId,
    isBroadcast: () => false,
    isGateway: () => false,
    isNetwork: () => false,
    isReserved: () => false,
    note: (i) => i.note,
  },
  relations: {
    subnet: {
      type: 'Svc_Network_Subnet',
      get: (i, ctx) => sameAccount(anySubnetById(ctx.store, i.subnetId, ctx.now), ctx),
    },
    virtualGuest: {
      type: 'Svc_Virtual_Guest',
      get: (i, ctx) =>
        i.guestId ? sameAccount(ctx.store.get('guests', i.guestId), ctx) : undefined,
    },
    guestNetworkComponent: {
      type: 'Svc_Virtual_Guest_Network_Component',
      get: (i, ctx) => {
        const guest = i.guestId ? sameAccount(ctx.store.get('guests', i.guestId), ctx) : undefined;
        return guest && networkComponents(guest).find((n) => n.ip.id === i.id);
      },
    },
    hardware: {
      type: 'Svc_Hardware',
      get: (i, ctx) =>
        i.hardwareId ? sameAccount(ctx.store.get('hardware', i.hardwareId), ctx) : undefined,
    },
  },
});

/** A datacenter's frontend (public) or backend router, as VLANs and placement groups name it. */
defineType<RouterView>(['Svc_Hardware_Router', 'Svc_Hardware_Router_Backend'], {
  locals: {
    id: (r) => r.id,
    hostname: (r) => routerHostname(r).split('.')[0],
    domain: (r) => r.datacenter.name,
    fullyQualifiedDomainName: routerHostname,
  },
  relations: {
    datacenter: { type: 'Svc_Location', get: (r) => r.datacenter },
    topLevelLocation: { type: 'Svc_Location', get: (r) => r.datacenter },
  },
});

/** Svc_Network_Pod: one per datacenter, none closing. */
defineType<PodView>('Svc_Network_Pod', {
  locals: {
    name: (p) => p.name,
    datacenterId: (p) => p.datacenter.id,
    datacenterName: (p) => p.datacenter.name,
    datacenterLongName: (p) => p.datacenter.longName,
    frontendRouterId: (p) => p.frontend.id,
    frontendRouterName: (p) => routerHostname(p.frontend),
    backendRouterId: (p) => p.backend.id,
    backendRouterName: (p) => routerHostname(p.backend),
    capabilities: () => ['SUPPORTS_SECURITY_GROUP'],
  },
});

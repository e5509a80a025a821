/** Svc_Account and Svc_User_Customer: the caller's account and its users. */
import { liveHardware } from '../hardware/model';
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, definePlainType, type ViewContext } from '../../schema';
import {
  datacenterVlans,
  guestVlans,
  orderedVlans,
  subnetOfVlan,
  type VlanView,
} from '../network/model';
import { TICKET_CLOSED, TICKET_OPEN } from '../ticket/model';
import type { AccountRec, UserRec } from './model';

/** The VLANs the account ordered and those its guests and servers are on, in id order. */
function accountVlans(a: AccountRec, ctx: ViewContext): VlanView[] {
  const byId = new Map<number, VlanView>();
  for (const v of orderedVlans(ctx.store, a.id, ctx.now)) byId.set(v.id, v);
  for (const g of ctx.store.by('guests', 'accountId', a.id))
    for (const v of guestVlans(g, ctx)) byId.set(v.id, v);
  for (const h of liveHardware(ctx.store, a.id, ctx.now))
    if (datacenterById(h.datacenterId))
      for (const v of datacenterVlans(a.id, h.datacenterId)) byId.set(v.id, v);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}

const vlansIn = (space: VlanView['space']) => (a: AccountRec, ctx: ViewContext) =>
  accountVlans(a, ctx).filter((v) => v.space === space);
const subnetsOf = (vlans: VlanView[]) => vlans.flatMap((v) => subnetOfVlan(v) ?? []);

defineType<AccountRec>('Svc_Account', {
  locals: {
    id: (a) => a.id,
    companyName: (a) => a.companyName,
    firstName: (a) => a.firstName,
    lastName: (a) => a.lastName,
    email: (a) => a.email,
    city: (a) => a.city,
    country: (a) => a.country,
    createDate: (a) => formatApiDate(a.createDate),
    accountStatusId: () => 1001,
    brandId: () => 2,
  },
  relations: {
    virtualGuests: {
      type: 'Svc_Virtual_Guest',
      many: true,
      get: (a, ctx) => ctx.store.by('guests', 'accountId', a.id),
    },
    hourlyVirtualGuests: {
      type: 'Svc_Virtual_Guest',
      many: true,
      get: (a, ctx) => ctx.store.by('guests', 'accountId', a.id).filter((g) => g.hourlyBillingFlag),
    },
    monthlyVirtualGuests: {
      type: 'Svc_Virtual_Guest',
      many: true,
      get: (a, ctx) =>
        ctx.store.by('guests', 'accountId', a.id).filter((g) => !g.hourlyBillingFlag),
    },
    hardware: {
      type: 'Svc_Hardware',
      many: true,
      get: (a, ctx) => liveHardware(ctx.store, a.id, ctx.now),
    },
    tickets: {
      type: 'Svc_Ticket',
      many: true,
      get: (a, ctx) => ctx.store.by('tickets', 'accountId', a.id),
    },
    openTickets: {
      type: 'Svc_Ticket',
      many: true,
      get: (a, ctx) =>
        ctx.store.by('tickets', 'accountId', a.id).filter((t) => t.statusId === TICKET_OPEN),
    },
    closedTickets: {
      type: 'Svc_Ticket',
      many: true,
      get: (a, ctx) =>
        ctx.store.by('tickets', 'accountId', a.id).filter((t) => t.statusId === TICKET_CLOSED),
    },
    ipAddresses: {
      type: 'Svc_Network_Subnet_IpAddress',
      many: true,
      get: (a, ctx) => ctx.store.by('ipAddresses', 'accountId', a.id),
    },
    domains: {
      type: 'Svc_Dns_Domain',
      many: true,
      get: (a, ctx) => ctx.store.by('dnsDomains', 'accountId', a.id),
    },
    users: {
      type: 'Svc_User_Customer',
      many: true,
      get: (a, ctx) => ctx.store.by('users', 'accountId', a.id),
    },
    networkVlans: { type: 'Svc_Network_Vlan', many: true, get: accountVlans },
    publicNetworkVlans: { type: 'Svc_Network_Vlan', many: true, get: vlansIn('PUBLIC') },
    privateNetworkVlans: { type: 'Svc_Network_Vlan', many: true, get: vlansIn('PRIVATE') },
    subnets: {
      type: 'Svc_Network_Subnet',
      many: true,
      get: (a, ctx) => subnetsOf(accountVlans(a, ctx)),
    },
    publicSubnets: {
      type: 'Svc_Network_Subnet',
      many: true,
      get: (a, ctx) => subnetsOf(vlansIn('PUBLIC')(a, ctx)),
    },
    privateSubnets: {
      type: 'Svc_Network_Subnet',
      many: true,
      get: (a, ctx) => subnetsOf(vlansIn('PRIVATE')(a, ctx)),
    },
  },
  onDemand: {
    virtualGuestCount: (a, ctx) => ctx.store.countBy('guests', 'accountId', a.id),
    hardwareCount: (a, ctx) => liveHardware(ctx.store, a.id, ctx.now).length,
    domainCount: (a, ctx) => ctx.store.countBy('dnsDomains', 'accountId', a.id),
    userCount: (a, ctx) => ctx.store.countBy('users', 'accountId', a.id),
    openTicketCount: (a, ctx) =>
      ctx.store.by('tickets', 'accountId', a.id).filter((t) => t.statusId === TICKET_OPEN).length,
  },
});

definePlainType('Svc_User_Customer_Status', ['id', 'keyName', 'name']);
definePlainType('Svc_User_Customer_ApiAuthentication', ['id', 'authenticationKey']);

defineType<UserRec>('Svc_User_Customer', {
  locals: {
    id: (u) => u.id,
    accountId: (u) => u.accountId,
    username: (u) => u.username,
    firstName: (u) => u.firstName,
    lastName: (u) => u.lastName,
    displayName: (u) => `${u.firstName} ${u.lastName}`,
    email: (u) => u.email,
    createDate: (u) => formatApiDate(u.createDate),
    userStatusId: () => 1001,
    isMasterUserFlag: (u) => u.isMasterUser,
  },
  relations: {
    userStatus: {
      type: 'Svc_User_Customer_Status',
      get: () => ({ id: 1001, keyName: 'ACTIVE', name: 'Active' }),
    },
    // A user sees only their own key, as in the portal.
    apiAuthenticationKeys: {
      type: 'Svc_User_Customer_ApiAuthentication',
      many: true,
      get: (u, ctx) =>
        ctx.user?.id === u.id ? [{ id: u.id * 10 + 1, authenticationKey: u.apiKey }] : [],
    },
  },
});

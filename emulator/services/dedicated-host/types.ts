/**
 * Svc_Virtual_DedicatedHost as the reference client reads one (softlayer-python
 * `DedicatedHostManager.get_host`' and `list_instances`' masks): its size (`cpuCount`,
 * `memoryCapacity` and `diskCapacity` in GB), datacenter, backend router, billing item, guests
 * and what they use (`allocationStatus`); the account lists its hosts (`dedicatedHosts`), a guest
 * names the host it is on (`dedicatedHost`).
 */
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, definePlainType, extendType, sameAccount } from '../../schema';
import type { AccountRec } from '../account/model';
import { routerById } from '../placement-group/model';
import type { GuestRec } from '../virtual-guest/model';
import { tagReferences } from '../virtual-guest/types';
import { allocation, guestsOn, hostsOf, isLive, type DedicatedHostRec } from './model';

definePlainType('Svc_Container_Virtual_DedicatedHost_AllocationStatus', [
  'cpuAllocated',
  'cpuAvailable',
  'cpuCount',
  'diskAllocated',
  'diskAvailable',
  'diskCapacity',
  'guestCount',
  'memoryAllocated',
  'memoryAvailable',
  'memoryCapacity',
]);

defineType<DedicatedHostRec>('Svc_Virtual_DedicatedHost', {
  locals: {
    id: (h) => h.id,
    accountId: (h) => h.accountId,
    name: (h) => h.name,
    notes: (h) => h.notes,
    cpuCount: (h) => h.cpuCount,
    memoryCapacity: (h) => h.memoryCapacity,
    diskCapacity: (h) => h.diskCapacity,
    createDate: (h) => formatApiDate(h.createDate),
    modifyDate: (h) => formatApiDate(h.modifyDate),
  },
  relations: {
    account: { type: 'Svc_Account', get: (h, ctx) => ctx.store.get('accounts', h.accountId) },
    datacenter: { type: 'Svc_Location', get: (h) => datacenterById(h.datacenterId) },
    backendRouter: {
      type: 'Svc_Hardware_Router_Backend',
      get: (h) => routerById(h.backendRouterId),
    },
    billingItem: {
      type: 'Svc_Billing_Item_Virtual_DedicatedHost',
      get: (h, ctx) => ctx.store.get('billingItems', h.billingItemId),
    },
    guests: { type: 'Svc_Virtual_Guest', many: true, get: (h, ctx) => guestsOn(ctx, h) },
    allocationStatus: {
      type: 'Svc_Container_Virtual_DedicatedHost_AllocationStatus',
      get: (h, ctx) => allocation(ctx, h),
    },
    tagReferences: { type: 'Svc_Tag_Reference', many: true, get: tagReferences },
  },
  onDemand: { guestCount: (h, ctx) => guestsOn(ctx, h).length },
});

extendType<AccountRec>('Svc_Account', {
  relations: {
    dedicatedHosts: {
      type: 'Svc_Virtual_DedicatedHost',
      many: true,
      get: (a, ctx) => hostsOf(ctx, a.id),
    },
  },
  onDemand: { dedicatedHostCount: (a, ctx) => hostsOf(ctx, a.id).length },
});

extendType<GuestRec>('Svc_Virtual_Guest', {
  relations: {
    dedicatedHost: {
      type: 'Svc_Virtual_DedicatedHost',
      get: (g, ctx) => {
        const host =
          g.dedicatedHostId === undefined
            ? undefined
            : sameAccount(ctx.store.get('dedicatedHosts', g.dedicatedHostId), ctx);
        return host && isLive(ctx.store, host, ctx.now) ? host : undefined;
      },
    },
  },
});

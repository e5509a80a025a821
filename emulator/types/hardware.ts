/** Svc_Hardware_Server (bare metal, seeded only) and Svc_Network_Subnet_IpAddress. */
import { datacenterById } from '../catalog';
import { formatApiDate } from '../dates';
import type { HardwareRec, IpAddressRec } from '../records';
import { defineType, type ViewContext } from '../schema';

defineType<HardwareRec>('Svc_Hardware_Server', {
  locals: {
    id: (h) => h.id,
    accountId: (h) => h.accountId,
    globalIdentifier: (h) => h.globalIdentifier,
    hostname: (h) => h.hostname,
    domain: (h) => h.domain,
    fullyQualifiedDomainName: (h) => `${h.hostname}.${h.domain}`,
    processorPhysicalCoreAmount: (h) => h.processorPhysicalCoreAmount,
    memoryCapacity: (h) => h.memoryCapacity,
    primaryIpAddress: (h) => h.primaryIpAddress,
    primaryBackendIpAddress: (h) => h.primaryBackendIpAddress,
    provisionDate: (h) => formatApiDate(h.provisionDate),
    notes: (h) => h.notes,
    bareMetalInstanceFlag: () => 0,
  },
  relations: {
    datacenter: { type: 'Svc_Location_Datacenter', get: (h) => datacenterById(h.datacenterId) },
    hardwareStatus: { type: 'Svc_Hardware_Status', get: () => ({ id: 5, status: 'ACTIVE' }) },
    tagReferences: { type: 'Svc_Tag_Reference', many: true, get: () => [] },
  },
});

const owned = <T extends { accountId: number }>(record: T | undefined, ctx: ViewContext) =>
  record && record.accountId === ctx.accountId ? record : undefined;

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
    virtualGuest: {
      type: 'Svc_Virtual_Guest',
      get: (i, ctx) => (i.guestId ? owned(ctx.store.get('guests', i.guestId), ctx) : undefined),
    },
    hardware: {
      type: 'Svc_Hardware_Server',
      get: (i, ctx) =>
        i.hardwareId ? owned(ctx.store.get('hardware', i.hardwareId), ctx) : undefined,
    },
  },
});

/** Svc_Hardware_Server (and Svc_Hardware, the same model): bare metal, seeded only. */
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, definePlainType } from '../../schema';
import { datacenterVlans } from '../network/model';
import type { HardwareRec } from './model';

definePlainType('Svc_Hardware_Status', ['id', 'status']);

defineType<HardwareRec>(['Svc_Hardware_Server', 'Svc_Hardware'], {
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
    hardwareStatusId: () => 5,
  },
  relations: {
    datacenter: { type: 'Svc_Location', get: (h) => datacenterById(h.datacenterId) },
    hardwareStatus: { type: 'Svc_Hardware_Status', get: () => ({ id: 5, status: 'ACTIVE' }) },
    networkVlans: {
      type: 'Svc_Network_Vlan',
      many: true,
      get: (h) => datacenterVlans(h.accountId, h.datacenterId),
    },
  },
});

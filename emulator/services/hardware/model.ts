/** Bare metal servers: seeded only (the API's ordering of servers is not modeled). */
import { table, type RecordsOf } from '../../store';

export interface HardwareRec {
  id: number;
  accountId: number;
  globalIdentifier: string;
  hostname: string;
  domain: string;
  datacenterId: number;
  processorPhysicalCoreAmount: number;
  memoryCapacity: number;
  primaryIpAddress: string;
  primaryBackendIpAddress: string;
  provisionDate: number;
  notes?: string;
}

export const tables = { hardware: table<HardwareRec>(200001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

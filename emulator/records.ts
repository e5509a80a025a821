/**
 * The persisted shape of every object the emulator keeps. Records hold facts (epoch-ms times,
 * ids of related records); the API views in `types/` derive everything else at read time, so a
 * guest's provisioning state is computed from `readyAt`, never from a timer.
 */
export interface AccountRec {
  id: number;
  companyName: string;
  firstName: string;
  lastName: string;
  email: string;
  city: string;
  country: string;
  createDate: number;
}

export interface SecurityQuestionRec {
  id: number;
  question: string;
  answer: string;
}

export interface UserRec {
  id: number;
  accountId: number;
  username: string;
  apiKey: string;
  password?: string;
  securityQuestions?: SecurityQuestionRec[];
  firstName: string;
  lastName: string;
  email: string;
  createDate: number;
  isMasterUser: boolean;
}

export interface TokenRec {
  id: number;
  userId: number;
  hash: string;
  createDate: number;
}

export interface TagRec {
  id: number;
  accountId: number;
  name: string;
}

/** What an upgrade order changes: the guest's size. */
export interface GuestSize {
  startCpus: number;
  maxMemory: number;
  networkSpeed: number;
  blockDevices: { id: number; device: string; capacity: number }[];
}

/**
 * The guest's last upgrade order (see ../upgrade.ts): the record's own size fields hold the size
 * before it, `size` the size it leaves from `readyAt` on, with the billing item's fees then.
 */
export interface GuestUpgradeRec {
  orderId: number;
  transactionId: number;
  createDate: number;
  readyAt: number;
  size: GuestSize;
  hourlyRecurringFee: string;
  recurringFee: string;
}

export interface GuestRec {
  id: number;
  accountId: number;
  globalIdentifier: string;
  hostname: string;
  domain: string;
  startCpus: number;
  maxMemory: number;
  hourlyBillingFlag: boolean;
  localDiskFlag: boolean;
  privateNetworkOnlyFlag: boolean;
  dedicatedAccountHostOnlyFlag: boolean;
  notes?: string;
  createDate: number;
  modifyDate: number;
  /** Provisioning finishes at this instant (createDate + the delay in force at creation). */
  readyAt: number;
  datacenterId: number;
  osCode: string;
  networkSpeed: number;
  userData: string[];
  sshKeyIds: number[];
  postInstallScriptUri?: string;
  tagRefs: { id: number; tagId: number }[];
  power: 'RUNNING' | 'HALTED';
  billingItemId: number;
  transactionId: number;
  publicIp?: { id: number; address: string; componentId: number };
  backendIp: { id: number; address: string; componentId: number };
  blockDevices: { id: number; device: string; capacity: number }[];
  /** The user who ordered the guest (absent for seeded and bulk-populated guests). */
  orderedByUserId?: number;
  /** The last upgrade order, running or done. */
  upgrade?: GuestUpgradeRec;
}

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

export interface BillingItemRec {
  id: number;
  accountId: number;
  categoryCode: string;
  description: string;
  hourlyFlag: boolean;
  hourlyRecurringFee: string;
  recurringFee: string;
  createDate: number;
  cancellationDate?: number;
  resourceTableId?: number;
}

export interface TicketRec {
  id: number;
  accountId: number;
  title: string;
  subjectId: number;
  assignedUserId: number;
  priority?: number;
  statusId: number;
  createDate: number;
  modifyDate: number;
  attachedHardwareIds: number[];
  attachedGuestIds: number[];
}

export interface TicketUpdateRec {
  id: number;
  accountId: number;
  ticketId: number;
  entry: string;
  createDate: number;
  editorType: 'USER' | 'EMPLOYEE' | 'AUTO';
  editorId?: number;
}

export interface DnsDomainRec {
  id: number;
  accountId: number;
  name: string;
  serial: number;
  updateDate: number;
}

export interface DnsRecordRec {
  id: number;
  accountId: number;
  domainId: number;
  host: string;
  data: string;
  ttl: number;
  type: string;
  mxPriority?: number;
  /** SOA timers and contact, kept when a record is written with them. */
  expire?: number;
  minimum?: number;
  refresh?: number;
  retry?: number;
  responsiblePerson?: string;
  createDate: number;
}

export interface SshKeyRec {
  id: number;
  accountId: number;
  label: string;
  /** The public key as sent, without surrounding whitespace. */
  key: string;
  /** MD5 of the decoded key body, colon-separated hex. */
  fingerprint: string;
  notes?: string;
  createDate: number;
  modifyDate: number;
}

/** Table name to record type: the store and the journal are generic over this map. */
export interface Tables {
  accounts: AccountRec;
  users: UserRec;
  tokens: TokenRec;
  tags: TagRec;
  guests: GuestRec;
  hardware: HardwareRec;
  ipAddresses: IpAddressRec;
  billingItems: BillingItemRec;
  tickets: TicketRec;
  ticketUpdates: TicketUpdateRec;
  dnsDomains: DnsDomainRec;
  dnsRecords: DnsRecordRec;
  sshKeys: SshKeyRec;
}

export type TableName = keyof Tables;

/**
 * Per-table id ranges (ids are never reused: counters only grow and are persisted) and the
 * fields indexed for lookups.
 */
export const TABLES: Record<TableName, { firstId: number; indexes: readonly string[] }> = {
  accounts: { firstId: 318001, indexes: [] },
  users: { firstId: 7001, indexes: ['accountId'] },
  tokens: { firstId: 1, indexes: ['userId'] },
  tags: { firstId: 700001, indexes: ['accountId'] },
  guests: { firstId: 100001, indexes: ['accountId'] },
  hardware: { firstId: 200001, indexes: ['accountId'] },
  ipAddresses: { firstId: 300001, indexes: ['accountId'] },
  billingItems: { firstId: 600001, indexes: ['accountId'] },
  tickets: { firstId: 500001, indexes: ['accountId'] },
  ticketUpdates: { firstId: 510001, indexes: ['ticketId'] },
  dnsDomains: { firstId: 400001, indexes: ['accountId'] },
  dnsRecords: { firstId: 410001, indexes: ['domainId'] },
  sshKeys: { firstId: 420001, indexes: ['accountId'] },
};

/** Ids handed out for sub-objects that are stored inside a record (NICs, disks, tag refs). */
export const SUB_ID_TABLE = 'subIds';

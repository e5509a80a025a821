/** Shapes of the Svc objects the managers read. Only the fields the project uses are typed. */

export interface Datacenter {
  id?: number;
  name: string;
  longName?: string;
}

export interface TransactionStatus {
  name?: string;
  friendlyName?: string;
}

export interface ActiveTransaction {
  id?: number;
  transactionStatus?: TransactionStatus;
}

export interface TagReference {
  id?: number;
  tag?: { id?: number; name: string };
}

export interface VirtualGuest {
  id: number;
  /** The account it belongs to. */
  accountId?: number;
  globalIdentifier?: string;
  hostname: string;
  domain: string;
  fullyQualifiedDomainName?: string;
  startCpus?: number;
  maxCpu?: number;
  maxMemory?: number;
  hourlyBillingFlag?: boolean;
  /** Transient: cheaper, hourly, and the API may reclaim it at any time. */
  transientGuestFlag?: boolean;
  localDiskFlag?: boolean;
  privateNetworkOnlyFlag?: boolean;
  notes?: string;
  createDate?: string;
  provisionDate?: string | null;
  primaryIpAddress?: string | null;
  primaryBackendIpAddress?: string | null;
  operatingSystemReferenceCode?: string;
  datacenter?: Datacenter;
  activeTransaction?: ActiveTransaction | null;
  /** The last OS reload's transaction (running or done). */
  lastOperatingSystemReload?: { id?: number } | null;
  powerState?: { keyName?: string; name?: string };
  tagReferences?: TagReference[];
  billingItem?: {
    id: number;
    hourlyRecurringFee?: string;
    recurringFee?: string;
    /** Set by a cancel: when the billing stops (hourly: the cancel; monthly: the anniversary). */
    cancellationDate?: string;
    nextBillDate?: string;
    /** The order line: its flavor (`preset.keyName`) when the guest was ordered as one. */
    orderItem?: { preset?: { keyName?: string } | null } | null;
  } | null;
  networkComponents?: { maxSpeed?: number; speed?: number }[];
  userData?: { value: string }[];
  sshKeys?: { id: number }[];
  blockDevices?: { device?: string; diskImage?: { capacity?: number } }[];
  /** The public interface (absent on a private-only guest) and the private one. */
  primaryNetworkComponent?: GuestNetworkComponent | null;
  primaryBackendNetworkComponent?: GuestNetworkComponent | null;
  /** The image template it was ordered from (null: none). */
  blockDeviceTemplateGroup?: { globalIdentifier?: string } | null;
  /** The placement group it was ordered into. */
  placementGroupId?: number | null;
  /** Ordered onto a host of the account's own (any of them, or the one `dedicatedHost` names). */
  dedicatedAccountHostOnlyFlag?: boolean;
  /** The account's dedicated host it was ordered onto. */
  dedicatedHost?: { id: number } | null;
}

/** One of a guest's interfaces: the security groups in force on it, its VLAN and subnet. */
export interface GuestNetworkComponent {
  id: number;
  securityGroupBindings?: { securityGroupId: number }[];
  networkVlan?: { id: number } | null;
  primarySubnet?: { id: number } | null;
}

export interface PricedOption<T> {
  itemPrice?: {
    id?: number;
    hourlyRecurringFee?: string;
    recurringFee?: string;
    item?: { description?: string };
  };
  template: T;
}

/** `Virtual_Guest.getCreateObjectOptions`: what an account may order, with prices. */
export interface CreateObjectOptions {
  processors: PricedOption<{ startCpus: number }>[];
  memory: PricedOption<{ maxMemory: number }>[];
  operatingSystems: PricedOption<{ operatingSystemReferenceCode: string }>[];
  datacenters: PricedOption<{ datacenter: { name: string } }>[];
  networkComponents: PricedOption<{ networkComponents: { maxSpeed: number }[] }>[];
  /** The flavors (presets), ordered by `supplementalCreateObjectOptions.flavorKeyName`. */
  flavors?: {
    flavor: { keyName: string; name?: string };
    template: { supplementalCreateObjectOptions: { flavorKeyName: string } };
  }[];
  blockDevices?: PricedOption<{
    blockDevices?: { device?: string | number; diskImage?: { capacity?: number } }[];
    localDiskFlag?: boolean;
  }>[];
}

export interface DnsResourceRecord {
  id: number;
  domainId: number;
  host: string;
  type: string;
  data: string;
  ttl: number;
  mxPriority?: number | null;
}

export interface DnsZone {
  id: number;
  name: string;
  serial?: string | number;
  resourceRecords?: DnsResourceRecord[];
}

export interface TicketUpdateRecord {
  id: number;
  ticketId?: number;
  entry: string;
  createDate?: string;
}

export interface Ticket {
  id: number;
  title?: string;
  createDate?: string;
  status?: { name?: string };
  updates?: TicketUpdateRecord[];
  assignedUser?: { id?: number; username?: string; firstName?: string; lastName?: string };
  attachedHardware?: { id: number; hostname?: string; datacenter?: Datacenter }[];
}

export interface Account {
  id: number;
  companyName: string;
  [field: string]: unknown;
}

export interface IpAddress {
  id: number;
  ipAddress: string;
  [field: string]: unknown;
}

export interface HardwareServer {
  id: number;
  hostname?: string;
  domain?: string;
  datacenter?: Datacenter;
  [field: string]: unknown;
}

/**
 * Svc_Virtual_Guest as the API shows it: derived from the stored record and the clock
 * (provisioning fields appear once `readyAt` has passed), with its disks, NICs, VLANs, billing
 * item, operating system, tags, statuses and transactions.
 */
import { datacenterById, findOs } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, definePlainType, sameAccount, type ViewContext } from '../../schema';
import {
  guestVlans,
  networkComponents,
  subnetOfNic,
  vlanOfNic,
  type NicView,
} from '../network/model';
import { softwareDescription as describeSoftware } from '../product-package/types';
import {
  activeTransaction,
  isProvisioned,
  lastTransaction,
  reloadTransaction,
  powerState,
  sized,
  type GuestRec,
  type TagRec,
} from './model';

const ready = (g: GuestRec, ctx: ViewContext) => isProvisioned(g, ctx.now);

export function tagReferences(g: { id: number; tagRefs: GuestRec['tagRefs'] }): TagRefView[] {
  return g.tagRefs.map((r) => ({ id: r.id, tagId: r.tagId, resourceTableId: g.id, tagTypeId: 2 }));
}

const DISK_IMAGE_BASE = 340_000_000;
const SWAP_DEVICE_BASE = 350_000_000;
const SWAP_GB = 2;

/** A block device of a guest: its stored disks and the swap disk every guest has (device 1). */
interface BlockDeviceView {
  guest: GuestRec;
  id: number;
  device: string;
  capacity: number;
}

function blockDevices(g: GuestRec): BlockDeviceView[] {
  const devices = g.blockDevices.map((d) => ({ guest: g, ...d }));
  const swap = { guest: g, id: SWAP_DEVICE_BASE + g.id, device: '1', capacity: SWAP_GB };
  return [
    ...devices.filter((d) => d.device === '0'),
    swap,
    ...devices.filter((d) => d.device !== '0'),
  ];
}

const diskKind = (b: BlockDeviceView) =>
  b.device === '0'
    ? { keyName: 'SYSTEM', name: 'System', description: 'The disk the guest boots from' }
    : b.device === '1'
      ? { keyName: 'SWAP', name: 'Swap', description: 'Swap space' }
      : { keyName: 'DATA', name: 'Data', description: 'An additional data disk' };

definePlainType('Svc_Virtual_Disk_Image_Type', ['keyName', 'name', 'description']);
definePlainType('Svc_Virtual_Guest_Block_Device_Status', ['keyName', 'name']);

defineType<BlockDeviceView>('Svc_Virtual_Disk_Image', {
  locals: {
    id: (b) => DISK_IMAGE_BASE + b.id,
    capacity: (b) => b.capacity,
    units: () => 'GB',
    name: (b) => `${b.guest.hostname}-${diskKind(b).keyName.toLowerCase()}-${b.device}`,
    description: (b) => `${b.guest.hostname}.${b.guest.domain} device ${b.device}`,
    createDate: (b) => formatApiDate(b.guest.createDate),
  },
  relations: { type: { type: 'Svc_Virtual_Disk_Image_Type', get: diskKind } },
  onDemand: {
    localDiskFlag: (b) => b.guest.localDiskFlag,
    metadataFlag: () => false,
    bootableVolumeFlag: (b) => b.device === '0',
  },
});

defineType<BlockDeviceView>('Svc_Virtual_Guest_Block_Device', {
  locals: {
    id: (b) => b.id,
    device: (b) => b.device,
    guestId: (b) => b.guest.id,
    diskImageId: (b) => DISK_IMAGE_BASE + b.id,
    mountType: () => 'Disk',
    mountMode: () => 'RW',
    bootableFlag: (b) => (b.device === '0' ? 1 : 0),
    hotPlugFlag: () => 0,
    statusId: () => 1,
    createDate: (b) => formatApiDate(b.guest.createDate),
    modifyDate: (b) => formatApiDate(b.guest.createDate),
  },
  relations: {
    diskImage: { type: 'Svc_Virtual_Disk_Image', get: (b) => b },
    guest: { type: 'Svc_Virtual_Guest', get: (b) => b.guest },
    status: {
      type: 'Svc_Virtual_Guest_Block_Device_Status',
      get: () => ({ keyName: 'ACTIVE', name: 'Active' }),
    },
  },
});

const nics = (g: GuestRec) => networkComponents(g);

defineType<GuestRec>('Svc_Virtual_Guest', {
  locals: {
    id: (g) => g.id,
    accountId: (g) => g.accountId,
    globalIdentifier: (g) => g.globalIdentifier,
    hostname: (g) => g.hostname,
    domain: (g) => g.domain,
    fullyQualifiedDomainName: (g) => `${g.hostname}.${g.domain}`,
    startCpus: (g, ctx) => sized(g, ctx.now).startCpus,
    maxCpu: (g, ctx) => sized(g, ctx.now).startCpus,
    maxCpuUnits: () => 'CORE',
    maxMemory: (g, ctx) => sized(g, ctx.now).maxMemory,
    hourlyBillingFlag: (g) => g.hourlyBillingFlag,
    localDiskFlag: (g) => g.localDiskFlag,
    privateNetworkOnlyFlag: (g) => g.privateNetworkOnlyFlag,
    dedicatedAccountHostOnlyFlag: (g) => g.dedicatedAccountHostOnlyFlag,
    transientGuestFlag: (g) => g.transientGuestFlag ?? false,
    notes: (g) => g.notes,
    createDate: (g) => formatApiDate(g.createDate),
    modifyDate: (g) => formatApiDate(g.modifyDate),
    provisionDate: (g, ctx) => (ready(g, ctx) ? formatApiDate(g.readyAt) : undefined),
    primaryIpAddress: (g, ctx) => (ready(g, ctx) ? g.publicIp?.address : undefined),
    primaryBackendIpAddress: (g, ctx) => (ready(g, ctx) ? g.backendIp.address : undefined),
    operatingSystemReferenceCode: (g, ctx) => sized(g, ctx.now).osCode,
    postInstallScriptUri: (g) => g.postInstallScriptUri,
    statusId: () => 1001,
    typeId: () => 1,
    uuid: (g) => g.globalIdentifier,
  },
  relations: {
    datacenter: { type: 'Svc_Location', get: (g) => datacenterById(g.datacenterId) },
    location: { type: 'Svc_Location', get: (g) => datacenterById(g.datacenterId) },
    activeTransaction: {
      type: 'Svc_Provisioning_Version1_Transaction',
      get: (g, ctx) => activeTransaction(g, ctx.now),
    },
    activeTransactions: {
      type: 'Svc_Provisioning_Version1_Transaction',
      many: true,
      get: (g, ctx) => {
        const t = activeTransaction(g, ctx.now);
        return t ? [t] : [];
      },
    },
    lastTransaction: {
      type: 'Svc_Provisioning_Version1_Transaction',
      get: (g, ctx) => lastTransaction(g, ctx.now),
    },
    lastOperatingSystemReload: {
      type: 'Svc_Provisioning_Version1_Transaction',
      get: (g, ctx) => reloadTransaction(g, ctx.now),
    },
    powerState: { type: 'Svc_Virtual_Guest_Power_State', get: (g, ctx) => powerState(g, ctx.now) },
    lastKnownPowerState: {
      type: 'Svc_Virtual_Guest_Power_State',
      get: (g, ctx) => powerState(g, ctx.now),
    },
    status: {
      type: 'Svc_Virtual_Guest_Status',
      get: () => ({ keyName: 'ACTIVE', name: 'Active' }),
    },
    tagReferences: { type: 'Svc_Tag_Reference', many: true, get: (g) => tagReferences(g) },
    billingItem: {
      type: 'Svc_Billing_Item_Virtual_Guest',
      get: (g, ctx) => ctx.store.get('billingItems', g.billingItemId),
    },
    networkComponents: { type: 'Svc_Virtual_Guest_Network_Component', many: true, get: nics },
    primaryNetworkComponent: {
      type: 'Svc_Virtual_Guest_Network_Component',
      get: (g) => nics(g).find((n) => n.space === 'PUBLIC'),
    },
    primaryBackendNetworkComponent: {
      type: 'Svc_Virtual_Guest_Network_Component',
      get: (g) => nics(g)[0],
    },
    frontendNetworkComponents: {
      type: 'Svc_Virtual_Guest_Network_Component',
      many: true,
      get: (g) => nics(g).filter((n) => n.space === 'PUBLIC'),
    },
    backendNetworkComponents: {
      type: 'Svc_Virtual_Guest_Network_Component',
      many: true,
      get: (g) => nics(g).filter((n) => n.space === 'PRIVATE'),
    },
    networkVlans: { type: 'Svc_Network_Vlan', many: true, get: guestVlans },
    userData: {
      type: 'Svc_Virtual_Guest_Attribute',
      many: true,
      get: (g) => g.userData.map((value) => ({ value })),
    },
    sshKeys: {
      type: 'Svc_Security_Ssh_Key',
      many: true,
      // A key deleted since the order stays installed; only its id is known then.
      get: (g, ctx) =>
        sized(g, ctx.now).sshKeyIds.map((id) => ctx.store.get('sshKeys', id) ?? { id }),
    },
    operatingSystem: {
      type: 'Svc_Software_Component_OperatingSystem',
      get: (g, ctx) => ({ guest: sized(g, ctx.now) }),
    },
    softwareComponents: {
      type: 'Svc_Software_Component',
      many: true,
      get: (g, ctx) => [{ guest: sized(g, ctx.now) }],
    },
    blockDevices: {
      type: 'Svc_Virtual_Guest_Block_Device',
      many: true,
      get: (g, ctx) => blockDevices(sized(g, ctx.now)),
    },
  },
});

definePlainType('Svc_Virtual_Guest_Power_State', ['keyName', 'name']);
definePlainType('Svc_Virtual_Guest_Status', ['keyName', 'name']);
definePlainType('Svc_Provisioning_Version1_Transaction_Status', ['name', 'friendlyName']);
definePlainType('Svc_Provisioning_Version1_Transaction_Group', ['name', 'averageTimeToComplete']);
definePlainType('Svc_Virtual_Guest_Attribute', ['value']);

defineType<Record<string, unknown>>('Svc_Provisioning_Version1_Transaction', {
  locals: {
    id: (t) => t.id,
    guestId: (t) => t.guestId,
    createDate: (t) => t.createDate,
    modifyDate: (t) => t.modifyDate,
    statusChangeDate: (t) => t.statusChangeDate,
    elapsedSeconds: (t) => t.elapsedSeconds,
  },
  relations: {
    transactionStatus: {
      type: 'Svc_Provisioning_Version1_Transaction_Status',
      get: (t) => t.transactionStatus,
    },
    transactionGroup: {
      type: 'Svc_Provisioning_Version1_Transaction_Group',
      get: (t) => t.transactionGroup,
    },
  },
});

/** The references of an account tag: one per guest that carries it. */
export const tagReferencesOf = (t: TagRec, ctx: ViewContext): TagRefView[] =>
  ctx.store
    .by('guests', 'accountId', t.accountId)
    .flatMap((g) => tagReferences(g).filter((r) => r.tagId === t.id));

defineType<TagRec>('Svc_Tag', {
  locals: {
    id: (t) => t.id,
    name: (t) => t.name,
    accountId: (t) => t.accountId,
    internal: () => 0,
  },
  relations: {
    references: { type: 'Svc_Tag_Reference', many: true, get: tagReferencesOf },
  },
});

definePlainType('Svc_Tag_Type', ['keyName', 'description']);

/** `{id, tagId, resourceTableId}`; the tag itself is looked up by id. */
export interface TagRefView {
  id: number;
  tagId: number;
  resourceTableId: number;
  tagTypeId: number;
}

defineType<TagRefView>('Svc_Tag_Reference', {
  locals: {
    id: (r) => r.id,
    tagId: (r) => r.tagId,
    resourceTableId: (r) => r.resourceTableId,
    tagTypeId: (r) => r.tagTypeId,
  },
  relations: {
    tag: { type: 'Svc_Tag', get: (r, ctx) => ctx.store.get('tags', r.tagId) },
    tagType: { type: 'Svc_Tag_Type', get: () => ({ keyName: 'GUEST', description: 'Guest' }) },
  },
});

/** Ids of objects the emulator derives instead of storing (OS components, licenses). */
const OS_COMPONENT_BASE = 300_000_000;

/** A guest's operating system, as a software component with its license and description. */
export interface OsComponentView {
  guest: GuestRec;
}

function softwareDescription(code: string): Record<string, unknown> | undefined {
  const os = findOs(code);
  return os && describeSoftware(os);
}

defineType<OsComponentView>('Svc_Software_License', {
  locals: {
    id: (o) => OS_COMPONENT_BASE + o.guest.id,
    softwareDescriptionId: (o) => softwareDescription(o.guest.osCode)?.id,
  },
  relations: {
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (o) => softwareDescription(o.guest.osCode),
    },
  },
});

defineType<OsComponentView>(['Svc_Software_Component_OperatingSystem', 'Svc_Software_Component'], {
  locals: {
    id: (o) => OS_COMPONENT_BASE + o.guest.id,
  },
  relations: {
    softwareLicense: { type: 'Svc_Software_License', get: (o) => o },
    softwareDescription: {
      type: 'Svc_Software_Description',
      get: (o) => softwareDescription(o.guest.osCode),
    },
    virtualGuest: { type: 'Svc_Virtual_Guest', get: (o) => o.guest },
  },
});

const mac = (id: number) =>
  `06:${[id >> 24, id >> 16, id >> 8, id].map((b) => (b & 255).toString(16).padStart(2, '0')).join(':')}:00`;

defineType<NicView>('Svc_Virtual_Guest_Network_Component', {
  locals: {
    id: (n) => n.ip.componentId,
    guestId: (n) => n.guest.id,
    name: () => 'eth',
    port: (n) => (n.space === 'PUBLIC' ? 1 : 0),
    maxSpeed: (n, ctx) => sized(n.guest, ctx.now).networkSpeed,
    speed: (n, ctx) => (isProvisioned(n.guest, ctx.now) ? sized(n.guest, ctx.now).networkSpeed : 0),
    status: () => 'ACTIVE',
    primaryIpAddress: (n, ctx) => (isProvisioned(n.guest, ctx.now) ? n.ip.address : undefined),
    macAddress: (n) => mac(n.ip.componentId),
    networkId: (n, ctx) => vlanOfNic(n, ctx).id,
    createDate: (n) => formatApiDate(n.guest.createDate),
    modifyDate: (n) => formatApiDate(n.guest.createDate),
  },
  relations: {
    guest: { type: 'Svc_Virtual_Guest', get: (n) => n.guest },
    networkVlan: { type: 'Svc_Network_Vlan', get: vlanOfNic },
    primarySubnet: { type: 'Svc_Network_Subnet', get: subnetOfNic },
    subnets: { type: 'Svc_Network_Subnet', many: true, get: (n, ctx) => [subnetOfNic(n, ctx)] },
    primaryIpAddressRecord: {
      type: 'Svc_Network_Subnet_IpAddress',
      get: (n, ctx) => sameAccount(ctx.store.get('ipAddresses', n.ip.id), ctx),
    },
  },
});

/**
 * Svc_Virtual_Guest as the API shows it: derived from the stored record and the clock
 * (provisioning fields appear once `readyAt` has passed), with its disks, NICs, VLANs, billing
 * item, operating system and transactions.
 */
import { datacenterById } from '../catalog';
import { formatApiDate } from '../dates';
import { activeTransaction, isProvisioned, lastTransaction, powerState } from '../provisioning';
import type { GuestRec } from '../records';
import { defineType, definePlainType, type ViewContext } from '../schema';
import { sized } from '../upgrade';
import type { TagRefView } from './common';
import { guestVlans, networkComponents } from './network';

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
    transientGuestFlag: () => false,
    notes: (g) => g.notes,
    createDate: (g) => formatApiDate(g.createDate),
    modifyDate: (g) => formatApiDate(g.modifyDate),
    provisionDate: (g, ctx) => (ready(g, ctx) ? formatApiDate(g.readyAt) : undefined),
    primaryIpAddress: (g, ctx) => (ready(g, ctx) ? g.publicIp?.address : undefined),
    primaryBackendIpAddress: (g, ctx) => (ready(g, ctx) ? g.backendIp.address : undefined),
    operatingSystemReferenceCode: (g) => g.osCode,
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
      get: (g, ctx) => g.sshKeyIds.map((id) => ctx.store.get('sshKeys', id) ?? { id }),
    },
    operatingSystem: {
      type: 'Svc_Software_Component_OperatingSystem',
      get: (g) => ({ guest: g }),
    },
    softwareComponents: {
      type: 'Svc_Software_Component',
      many: true,
      get: (g) => [{ guest: g }],
    },
    blockDevices: {
      type: 'Svc_Virtual_Guest_Block_Device',
      many: true,
      get: (g, ctx) => blockDevices(sized(g, ctx.now)),
    },
  },
});

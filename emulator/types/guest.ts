/**
 * Svc_Virtual_Guest as the API shows it: derived from the stored record and the clock
 * (provisioning fields appear once `readyAt` has passed).
 */
import { datacenterById } from '../catalog';
import { formatApiDate } from '../dates';
import { activeTransaction, isProvisioned, powerState } from '../provisioning';
import type { GuestRec } from '../records';
import { defineType, type ViewContext } from '../schema';
import type { TagRefView } from './common';

const ready = (g: GuestRec, ctx: ViewContext) => isProvisioned(g, ctx.now);

/** The guest's NICs: private (eth0) always, public (eth1) unless private-network-only. */
export function networkComponents(g: GuestRec, ctx: ViewContext): Record<string, unknown>[] {
  const up = ready(g, ctx);
  const nic = (ip: GuestRec['backendIp'], port: number) => ({
    id: ip.componentId,
    guestId: g.id,
    name: 'eth',
    port,
    maxSpeed: g.networkSpeed,
    speed: up ? g.networkSpeed : 0,
    status: 'ACTIVE',
    primaryIpAddress: up ? ip.address : undefined,
    macAddress: `06:${[
      ip.componentId >> 24,
      ip.componentId >> 16,
      ip.componentId >> 8,
      ip.componentId,
    ]
      .map((b) => (b & 255).toString(16).padStart(2, '0'))
      .join(':')}:00`,
  });
  const out = [nic(g.backendIp, 0)];
  if (g.publicIp) out.push(nic(g.publicIp, 1));
  return out;
}

export function tagReferences(g: { id: number; tagRefs: GuestRec['tagRefs'] }): TagRefView[] {
  return g.tagRefs.map((r) => ({ id: r.id, tagId: r.tagId, resourceTableId: g.id, tagTypeId: 2 }));
}

defineType<Record<string, unknown>>('Svc_Virtual_Guest_Network_Component', {
  locals: {
    id: (n) => n.id,
    guestId: (n) => n.guestId,
    name: (n) => n.name,
    port: (n) => n.port,
    maxSpeed: (n) => n.maxSpeed,
    speed: (n) => n.speed,
    status: (n) => n.status,
    primaryIpAddress: (n) => n.primaryIpAddress,
    macAddress: (n) => n.macAddress,
  },
});

defineType<{ id: number; device: string; capacity: number }>('Svc_Virtual_Guest_Block_Device', {
  locals: {
    id: (b) => b.id,
    device: (b) => b.device,
    mountType: () => 'Disk',
    bootableFlag: (b) => (b.device === '0' ? 1 : 0),
  },
  relations: {
    diskImage: {
      type: 'Svc_Virtual_Disk_Image',
      get: (b) => ({ id: b.id + 1, capacity: b.capacity, units: 'GB' }),
    },
  },
});

defineType<GuestRec>('Svc_Virtual_Guest', {
  locals: {
    id: (g) => g.id,
    accountId: (g) => g.accountId,
    globalIdentifier: (g) => g.globalIdentifier,
    hostname: (g) => g.hostname,
    domain: (g) => g.domain,
    fullyQualifiedDomainName: (g) => `${g.hostname}.${g.domain}`,
    startCpus: (g) => g.startCpus,
    maxCpu: (g) => g.startCpus,
    maxCpuUnits: () => 'CORE',
    maxMemory: (g) => g.maxMemory,
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
    uuid: (g) => g.globalIdentifier,
  },
  relations: {
    datacenter: { type: 'Svc_Location_Datacenter', get: (g) => datacenterById(g.datacenterId) },
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
    lastOperatingSystemReload: { type: 'Svc_Provisioning_Version1_Transaction', get: () => null },
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
      type: 'Svc_Billing_Item',
      get: (g, ctx) => ctx.store.get('billingItems', g.billingItemId),
    },
    networkComponents: {
      type: 'Svc_Virtual_Guest_Network_Component',
      many: true,
      get: networkComponents,
    },
    primaryNetworkComponent: {
      type: 'Svc_Virtual_Guest_Network_Component',
      get: (g, ctx) => (g.publicIp ? networkComponents(g, ctx)[1] : undefined),
    },
    primaryBackendNetworkComponent: {
      type: 'Svc_Virtual_Guest_Network_Component',
      get: (g, ctx) => networkComponents(g, ctx)[0],
    },
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
      get: (g) => ({ code: g.osCode }),
    },
    blockDevices: {
      type: 'Svc_Virtual_Guest_Block_Device',
      many: true,
      get: (g) => g.blockDevices,
    },
  },
});

/**
 * Svc_Hardware_Server (and Svc_Hardware, the same model): bare metal, seeded or ordered. An
 * ordered server shows its provisioning stage (or the stage it failed at) as its active
 * transaction, and its provision date and addresses only once it is provisioned.
 */
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { defineType, definePlainType, type TypeSpec, type ViewContext } from '../../schema';
import { datacenterVlans } from '../network/model';
import { presetById } from '../product-package/model';
import { timedTransaction } from '../transaction-view';
import { tagReferences } from '../virtual-guest/types';
import {
  FAILED_STATUS,
  STAGES,
  isProvisioned,
  osCodeOf,
  provisioning,
  reloadRunning,
  uplinkState,
  type HardwareRec,
  type UplinkSide,
} from './model';

definePlainType('Svc_Hardware_Status', ['id', 'status']);
definePlainType('Svc_Hardware_Attribute', ['value']);

/** One uplink of a server: its port's speed (ordered) and what it runs at now. */
interface Uplink {
  id: number;
  name: string;
  port: number;
  maxSpeed: number;
  speed: number;
  redundancyCapableFlag: boolean;
  redundancyEnabledFlag: boolean;
}
defineType<Uplink>('Svc_Network_Component', {
  locals: {
    id: (u) => u.id,
    name: (u) => u.name,
    port: (u) => u.port,
    maxSpeed: (u) => u.maxSpeed,
    speed: (u) => u.speed,
  },
  onDemand: {
    redundancyCapableFlag: (u) => u.redundancyCapableFlag,
    redundancyEnabledFlag: (u) => u.redundancyEnabledFlag,
  },
});

/** An ordered server's uplink on one network (seeded ones show none). */
function uplink(h: HardwareRec, side: UplinkSide, ctx: ViewContext): Uplink | undefined {
  const o = h.ordered;
  if (!o) return undefined;
  const now = uplinkState(o, h, side, ctx.now);
  return {
    id: h.id * 10 + (side === 'public' ? 1 : 0),
    name: 'eth',
    port: side === 'public' ? 1 : 0,
    maxSpeed: o.portSpeed,
    speed: now.speed,
    redundancyCapableFlag: o.redundant === true,
    redundancyEnabledFlag: now.redundant,
  };
}

const PROVISION_GROUP = { name: 'Server Provision', averageTimeToComplete: '240' };
const RELOAD_GROUP = { name: 'Server OS Reload', averageTimeToComplete: '60' };
const RELOAD_STATUS = { name: 'OS_RELOAD', friendlyName: 'Reloading the operating system' };

/** The running (or failed) provisioning stage, else a running reload. */
function activeTransaction(h: HardwareRec, ctx: ViewContext) {
  const p = provisioning(h, ctx.now);
  const o = h.ordered;
  if (o && p.state !== 'done') {
    const stageEnd = o.createDate + (p.stage + 1) * o.stageMs;
    const timed = {
      transactionId: o.transactionId,
      createDate: o.createDate,
      readyAt: p.state === 'failed' ? stageEnd : Infinity,
    };
    return timedTransaction(
      timed,
      ctx.now,
      p.state === 'failed' ? FAILED_STATUS : STAGES[p.stage],
      PROVISION_GROUP,
    );
  }
  if (h.reload && reloadRunning(h, ctx.now))
    return timedTransaction(h.reload, ctx.now, RELOAD_STATUS, RELOAD_GROUP);
  return undefined;
}

const status = (h: HardwareRec, ctx: ViewContext) => {
  const state = provisioning(h, ctx.now).state;
  if (state === 'failed') return { id: 8, status: 'DEPLOY_FAILED' };
  return state === 'running' ? { id: 7, status: 'DEPLOY' } : { id: 5, status: 'ACTIVE' };
};

const ready = (h: HardwareRec, ctx: ViewContext) => isProvisioned(h, ctx.now);

const locals: TypeSpec<HardwareRec>['locals'] = {
  id: (h) => h.id,
  accountId: (h) => h.accountId,
  globalIdentifier: (h) => h.globalIdentifier,
  hostname: (h) => h.hostname,
  domain: (h) => h.domain,
  fullyQualifiedDomainName: (h) => `${h.hostname}.${h.domain}`,
  processorPhysicalCoreAmount: (h) => h.processorPhysicalCoreAmount,
  memoryCapacity: (h) => h.memoryCapacity,
  primaryIpAddress: (h, ctx) => (ready(h, ctx) ? h.primaryIpAddress : undefined),
  primaryBackendIpAddress: (h, ctx) => (ready(h, ctx) ? h.primaryBackendIpAddress : undefined),
  provisionDate: (h, ctx) => (ready(h, ctx) ? formatApiDate(h.provisionDate) : undefined),
  notes: (h) => h.notes,
  bareMetalInstanceFlag: () => 0,
  hardwareStatusId: (h, ctx) => status(h, ctx).id,
  hourlyBillingFlag: (h) => h.ordered?.hourly,
  operatingSystemReferenceCode: (h, ctx) => osCodeOf(h, ctx.now),
};

const relations: NonNullable<TypeSpec<HardwareRec>['relations']> = {
  datacenter: { type: 'Svc_Location', get: (h) => datacenterById(h.datacenterId) },
  hardwareStatus: { type: 'Svc_Hardware_Status', get: status },
  networkVlans: {
    type: 'Svc_Network_Vlan',
    many: true,
    get: (h) => datacenterVlans(h.accountId, h.datacenterId),
  },
  billingItem: {
    type: 'Svc_Billing_Item_Hardware',
    get: (h, ctx) => h.ordered && ctx.store.get('billingItems', h.ordered.billingItemId),
  },
  tagReferences: {
    type: 'Svc_Tag_Reference',
    many: true,
    get: (h) => tagReferences({ id: h.id, tagRefs: h.tagRefs ?? [] }),
  },
  sshKeys: {
    type: 'Svc_Security_Ssh_Key',
    many: true,
    get: (h, ctx) =>
      (h.reload?.sshKeyIds ?? h.ordered?.sshKeyIds ?? []).map(
        (id) => ctx.store.get('sshKeys', id) ?? { id },
      ),
  },
  // Its uplinks at the port speed it was ordered with, or what a speed change set.
  networkComponents: {
    type: 'Svc_Network_Component',
    many: true,
    get: (h, ctx) => (['public', 'private'] as const).flatMap((side) => uplink(h, side, ctx) ?? []),
  },
  primaryNetworkComponent: {
    type: 'Svc_Network_Component',
    get: (h, ctx) => uplink(h, 'public', ctx),
  },
  primaryBackendNetworkComponent: {
    type: 'Svc_Network_Component',
    get: (h, ctx) => uplink(h, 'private', ctx),
  },
  fixedConfigurationPreset: {
    type: 'Svc_Product_Package_Preset',
    get: (h) => h.ordered && presetById(h.ordered.presetId),
  },
  userData: {
    type: 'Svc_Hardware_Attribute',
    many: true,
    get: (h) => (h.ordered?.userData === undefined ? [] : [{ value: h.ordered.userData }]),
  },
};

// The API's Svc_Hardware has no transactions; Svc_Hardware_Server (what getObject answers) has.
defineType<HardwareRec>('Svc_Hardware', { locals, relations });
defineType<HardwareRec>('Svc_Hardware_Server', {
  locals,
  relations: {
    ...relations,
    activeTransaction: { type: 'Svc_Provisioning_Version1_Transaction', get: activeTransaction },
    lastOperatingSystemReload: {
      type: 'Svc_Provisioning_Version1_Transaction',
      get: (h: HardwareRec, ctx: ViewContext) =>
        h.reload && timedTransaction(h.reload, ctx.now, RELOAD_STATUS, RELOAD_GROUP),
    },
  },
});

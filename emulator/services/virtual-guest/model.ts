/**
 * A virtual guest's state and behaviour: its records (the guest with its last upgrade, and the
 * account's tags), building one from a checked order (with its billing item, IP addresses and
 * tags, written in one transaction), removing one, its prices, and its provisioning and upgrade
 * progress. Both progress states are pure functions of the record and the clock: a guest is
 * ready once `now >= readyAt` (createDate + the delay in force when it was ordered), and keeps
 * its size while an upgrade runs. No timers, so a restart neither loses nor repeats progress.
 */
import { normalizeTags } from '../../validators';
import { randomUUID } from 'node:crypto';
import {
  ALL_DISK_SIZES,
  CPU_OPTIONS,
  DEFAULT_DATACENTER,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  cpuPrice,
  datacenterById,
  diskPositions,
  diskPrice,
  findOs,
  memoryPrice,
  money,
  monthlyFromHourly,
  networkPrice,
  osPrice,
  priceAt,
  transientPrice,
  type Datacenter,
  type OperatingSystem,
  type Price,
} from '../../catalog';
import { formatApiDate } from '../../dates';
import { publicFault } from '../../errors';
import { table, type RecordsOf, type Store, type Tables, type WriteOp } from '../../store';
import { endOfBillingMonth } from '../billing-item/model';
import { timedTransaction, type Timed } from '../transaction-view';
import {
  addressIn,
  orderedVlan,
  subnetFor,
  subnetOfVlan,
  type IpAddressRec,
  type Space,
  type SubnetView,
} from '../network/model';
import { guestBindingsGoneOps, orderedBindingOps } from '../security-group/model';
import { priceView, type PriceView } from '../product-package/model';
import { discounted, type Discounts } from '../account/discounts';

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
  /** The flavor it has after the upgrade (none once its cores or memory are sized by prices). */
  flavorKeyName?: string;
}

/**
 * The guest's last upgrade order (see `sized` below): the record's own size fields hold the size
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

/**
 * The guest's last OS reload (`reloadOperatingSystem`): from `readyAt` on the guest runs `osCode`
 * with `sshKeyIds` installed; the id, addresses, billing item, size and tags are kept.
 */
export interface GuestReloadRec {
  transactionId: number;
  createDate: number;
  readyAt: number;
  osCode: string;
  sshKeyIds: number[];
  /** The image template reloaded from; null: reloaded to a stock OS; absent: the guest's kept. */
  imageTemplateId?: number | null;
}

export interface GuestRec {
  id: number;
  accountId: number;
  globalIdentifier: string;
  hostname: string;
  domain: string;
  startCpus: number;
  maxMemory: number;
  /** The flavor (preset) it was ordered or upgraded as; its cores and memory are the flavor's. */
  flavorKeyName?: string;
  hourlyBillingFlag: boolean;
  /** Transient: cheaper, billed hourly, and the API may reclaim it (reclaimTransientOps). */
  transientGuestFlag?: boolean;
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
  /** The Product_Order order that placed it (absent for createObject, seeded, populated). */
  orderId?: number;
  /** The image template it was ordered from (../image-template/). */
  imageTemplateId?: number;
  /** The last upgrade order, running or done. */
  upgrade?: GuestUpgradeRec;
  /** The last OS reload, running or done. */
  reload?: GuestReloadRec;
  /** Cancelled: its reclaim runs until `goneAt`, then the guest is gone (see sweepReclaimed). */
  reclaim?: { transactionId: number; createDate: number; goneAt: number };
  /** 1 while reclaiming (the index sweepReclaimed finds them by). */
  reclaiming?: number;
  /** The placement group it was ordered into (it stays there until it is gone). */
  placementGroupId?: number;
  /** The dedicated host it was ordered onto (../dedicated-host/; it stays until it is gone). */
  dedicatedHostId?: number;
  /**
   * The VLANs the account ordered that its interfaces were ordered on (an interface not named
   * here is on its datacenter's VLAN of the account, ../network/model.ts).
   */
  vlanIds?: Partial<Record<Space, number>>;
}

export const tables = {
  guests: table<GuestRec>(100001, [
    'accountId',
    'reclaiming',
    'placementGroupId',
    'dedicatedHostId',
  ]),
  tags: table<TagRec>(700001, ['accountId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

/** A VLAN (and subnet) an order names for an interface; `field` is where the order named it. */
export interface ChosenVlan {
  field: string;
  vlanId: number;
  subnetId?: number;
}

/** A checked order template (see checkGuestTemplate in handlers.ts), priced from the catalog. */
export interface GuestOrder {
  hostname: string;
  domain: string;
  startCpus: number;
  maxMemory: number;
  /** Ordered as a flavor (its cores, memory and boot disk). */
  flavorKeyName?: string;
  hourly: boolean;
  /** A transient guest (priced lower; the API may reclaim it). */
  transient?: boolean;
  localDisk: boolean;
  privateOnly: boolean;
  dedicated: boolean;
  datacenter: Datacenter;
  os: OperatingSystem;
  networkSpeed: number;
  userData: string[];
  sshKeyIds: number[];
  tags: string[];
  notes?: string;
  postInstallScriptUri?: string;
  blockDevices: { device: string; capacity: number }[];
  /** Security groups bound to each interface once the guest is provisioned. */
  securityGroups: Record<Space, number[]>;
  placementGroupId?: number;
  /** The VLAN each interface is ordered on, when the order names one. */
  vlans?: Partial<Record<Space, ChosenVlan>>;
  dedicatedHostId?: number;
  prices: Price[];
  /** Ordered from an image template: its id (the OS is the template's). */
  imageTemplateId?: number;
}

// ---------------------------------------------------------------------------------------------
// Provisioning and upgrade progress

const STEPS: readonly { name: string; friendlyName: string }[] = [
  { name: 'ASSIGN_HOST', friendlyName: 'Assign Host' },
  { name: 'PROVISION_DNS', friendlyName: 'Provision DNS' },
  { name: 'CLOUD_CONFIGURE_NETWORK', friendlyName: 'Configure Cloud Network' },
  { name: 'INSTALL_OPERATING_SYSTEM', friendlyName: 'Install Operating System' },
  { name: 'CLOUD_INSTANCE_POWER_ON', friendlyName: 'Power On Cloud Instance' },
];

const GROUP = { name: 'Cloud Instance Provisioning', averageTimeToComplete: '10' };

export const isProvisioned = (guest: GuestRec, now: number) => now >= guest.readyAt;

/** The provisioning transaction: the step running at `now`, or the last one once finished. */
function provisioning(guest: GuestRec, now: number): Record<string, unknown> {
  const span = Math.max(1, guest.readyAt - guest.createDate);
  const end = Math.min(now, guest.readyAt);
  const index = Math.floor(((end - guest.createDate) / span) * STEPS.length);
  const step = STEPS[Math.max(0, Math.min(STEPS.length - 1, index))];
  const stepStart = guest.createDate + Math.floor((span * STEPS.indexOf(step)) / STEPS.length);
  return {
    id: guest.transactionId,
    guestId: guest.id,
    createDate: formatApiDate(guest.createDate),
    modifyDate: formatApiDate(end),
    statusChangeDate: formatApiDate(stepStart),
    elapsedSeconds: Math.max(0, Math.floor((end - guest.createDate) / 1000)),
    transactionStatus: { ...step },
    transactionGroup: { ...GROUP },
  };
}

/** A cancelled guest's reclaim, running until the guest is gone. */
function reclaimTransaction(
  guest: GuestRec,
  reclaim: NonNullable<GuestRec['reclaim']>,
  now: number,
): Record<string, unknown> {
  return {
    id: reclaim.transactionId,
    guestId: guest.id,
    createDate: formatApiDate(reclaim.createDate),
    modifyDate: formatApiDate(now),
    statusChangeDate: formatApiDate(reclaim.createDate),
    elapsedSeconds: Math.max(0, Math.floor((now - reclaim.createDate) / 1000)),
    transactionStatus: { name: 'RECLAIM_WAIT', friendlyName: 'Reclaim Wait' },
    transactionGroup: { name: 'Cloud Reclaim', averageTimeToComplete: '20' },
  };
}

/** The running transaction (reclaim, provisioning, then an upgrade or a reload while one runs), else null. */
export function activeTransaction(guest: GuestRec, now: number): Record<string, unknown> | null {
  if (guest.reclaim) return reclaimTransaction(guest, guest.reclaim, now);
  if (!isProvisioned(guest, now)) return provisioning(guest, now);
  if (upgradeRunning(guest, now)) return upgradeTransaction(guest, now) ?? null;
  return reloadRunning(guest, now) ? (reloadTransaction(guest, now) ?? null) : null;
}

/** The most recent transaction: the last upgrade's or reload's, else the provisioning one. */
export function lastTransaction(guest: GuestRec, now: number): Record<string, unknown> {
  const latest = [guest.upgrade, guest.reload]
    .filter((t) => t !== undefined)
    .sort((a, b) => b.createDate - a.createDate)[0];
  if (!latest) return provisioning(guest, now);
  return latest === guest.reload ? reloadTransaction(guest, now)! : upgradeTransaction(guest, now)!;
}

const POWER = {
  RUNNING: { keyName: 'RUNNING', name: 'Running' },
  HALTED: { keyName: 'HALTED', name: 'Halted' },
} as const;

/**
 * Halted until provisioned, while an upgrade of CPUs or memory reboots it and while its OS is
 * reloaded, else the last power call's.
 */
export const powerState = (guest: GuestRec, now: number) =>
  isProvisioned(guest, now) && !upgradeReboots(guest, now) && !reloadRunning(guest, now)
    ? { ...POWER[guest.power] }
    : { ...POWER.HALTED };

export const upgradeRunning = (g: GuestRec, now: number) =>
  g.upgrade !== undefined && now < g.upgrade.readyAt;

export const reloadRunning = (g: GuestRec, now: number) =>
  g.reload !== undefined && now < g.reload.readyAt;

/**
 * The guest as it is at `now`: with its last upgrade's size once that upgrade is done, and its
 * last reload's OS and SSH keys once that reload is done.
 */
export function sized(g: GuestRec, now: number): GuestRec {
  const upgraded = g.upgrade && now >= g.upgrade.readyAt ? { ...g, ...g.upgrade.size } : g;
  const r = g.reload;
  if (!r || now < r.readyAt) return upgraded;
  const image = r.imageTemplateId === undefined ? upgraded.imageTemplateId : r.imageTemplateId;
  return {
    ...upgraded,
    osCode: r.osCode,
    sshKeyIds: r.sshKeyIds,
    imageTemplateId: image ?? undefined,
  };
}

/** Whether the running upgrade changes CPUs or memory (the guest reboots for those). */
export function upgradeReboots(g: GuestRec, now: number): boolean {
  const u = g.upgrade;
  if (!u || now >= u.readyAt) return false;
  return u.size.startCpus !== g.startCpus || u.size.maxMemory !== g.maxMemory;
}

const UPGRADE_STATUS = { name: 'UPGRADE', friendlyName: 'Upgrade' };
const UPGRADE_GROUP = { name: 'Cloud Upgrade', averageTimeToComplete: '5' };
const RELOAD_STATUS = { name: 'RELOAD_OPERATING_SYSTEM', friendlyName: 'Reload Operating System' };
const RELOAD_GROUP = { name: 'Cloud Instance OS Reload', averageTimeToComplete: '10' };

/** A transaction of the guest that runs from `createDate` to `readyAt` (../transaction-view.ts). */
const transactionView = (
  g: GuestRec,
  t: Timed,
  now: number,
  status: { name: string; friendlyName: string },
  group: { name: string; averageTimeToComplete: string },
): Record<string, unknown> => ({ ...timedTransaction(t, now, status, group), guestId: g.id });

/** The upgrade's transaction (running or finished); undefined for a guest never upgraded. */
export const upgradeTransaction = (g: GuestRec, now: number) =>
  g.upgrade && transactionView(g, g.upgrade, now, UPGRADE_STATUS, UPGRADE_GROUP);

/** The last OS reload's transaction (running or finished); undefined for a guest never reloaded. */
export const reloadTransaction = (g: GuestRec, now: number) =>
  g.reload && transactionView(g, g.reload, now, RELOAD_STATUS, RELOAD_GROUP);

// ---------------------------------------------------------------------------------------------
// Building and removing guests

/**
 * Tag references for `names`, creating account tags that do not exist yet and keeping the
 * reference ids of tags the object already has.
 */
export function resolveTags(
  store: Store,
  accountId: number,
  names: readonly string[],
  options: { known?: Map<string, TagRec>; existing?: GuestRec['tagRefs'] } = {},
): { refs: GuestRec['tagRefs']; ops: WriteOp[] } {
  const known = options.known ?? tagsByName(store, accountId);
  const existing = new Map((options.existing ?? []).map((ref) => [ref.tagId, ref]));
  const ops: WriteOp[] = [];
  const refs = names.map((name) => {
    let tag = known.get(name);
    if (!tag) {
      tag = { id: store.nextId('tags'), accountId, name };
      known.set(name, tag);
      ops.push({ put: 'tags', record: tag });
    }
    return existing.get(tag.id) ?? { id: store.nextSubId(), tagId: tag.id };
  });
  return { refs, ops };
}

/** `setTags(tags)`: the comma-separated names replace the object's tags (references kept). */
export const retagged = (
  store: Store,
  accountId: number,
  tagsText: string,
  existing: GuestRec['tagRefs'] | undefined,
) => resolveTags(store, accountId, normalizeTags(tagsText.split(',')), { existing });

export function tagsByName(store: Store, accountId: number): Map<string, TagRec> {
  return new Map(store.by('tags', 'accountId', accountId).map((t) => [t.name, t]));
}

export interface BuildOptions {
  now: number;
  readyAt: number;
  globalIdentifier?: string;
  tagCache?: Map<string, TagRec>;
  /** The user placing the order (shown as the order's user record). */
  userId?: number;
  /** The Product_Order order placing it. */
  orderId?: number;
}

/** The guest record and every write that creates it. */
export function buildGuest(
  store: Store,
  accountId: number,
  order: GuestOrder,
  options: BuildOptions,
): { guest: GuestRec; ops: WriteOp[] } {
  const id = store.nextId('guests');
  const billing = billingItemOf(store, accountId, id, order, options.now);
  const vlanIds = orderedVlanIds(store, order.vlans);
  const ipRecord = (isPublic: boolean) => {
    const space = isPublic ? 'PUBLIC' : 'PRIVATE';
    const ordered = orderedVlan({ store }, vlanIds?.[space]);
    const subnet = ordered ? subnetOfVlan(ordered)! : subnetFor(accountId, order.datacenter, space);
    return newIpRecord(store, accountId, id, subnet, isPublic);
  };
  const backend = ipRecord(false);
  const pub = order.privateOnly ? undefined : ipRecord(true);
  const tags = resolveTags(store, accountId, order.tags, { known: options.tagCache });
  const guest: GuestRec = {
    id,
    accountId,
    globalIdentifier: options.globalIdentifier ?? randomUUID(),
    hostname: order.hostname,
    domain: order.domain,
    startCpus: order.startCpus,
    maxMemory: order.maxMemory,
    flavorKeyName: order.flavorKeyName,
    hourlyBillingFlag: order.hourly,
    transientGuestFlag: order.transient || undefined,
    localDiskFlag: order.localDisk,
    privateNetworkOnlyFlag: order.privateOnly,
    dedicatedAccountHostOnlyFlag: order.dedicated,
    notes: order.notes,
    createDate: options.now,
    modifyDate: options.now,
    readyAt: options.readyAt,
    datacenterId: order.datacenter.id,
    osCode: order.os.aliasOf ?? order.os.referenceCode,
    networkSpeed: order.networkSpeed,
    userData: order.userData,
    sshKeyIds: order.sshKeyIds,
    postInstallScriptUri: order.postInstallScriptUri,
    tagRefs: tags.refs,
    power: 'RUNNING',
    billingItemId: billing.id,
    transactionId: store.nextSubId(),
    backendIp: { id: backend.id, address: backend.ipAddress, componentId: store.nextSubId() },
    publicIp: pub && { id: pub.id, address: pub.ipAddress, componentId: store.nextSubId() },
    blockDevices: order.blockDevices.map((d) => ({
      id: store.nextSubId(),
      device: d.device,
      capacity: d.capacity,
    })),
    orderedByUserId: options.userId,
    orderId: options.orderId,
    placementGroupId: order.placementGroupId,
    dedicatedHostId: order.dedicatedHostId,
    vlanIds,
    imageTemplateId: order.imageTemplateId,
  };
  const ops: WriteOp[] = [
    ...tags.ops,
    { put: 'billingItems', record: billing },
    { put: 'ipAddresses', record: backend },
    ...(pub ? [{ put: 'ipAddresses' as const, record: pub }] : []),
    { put: 'guests', record: guest },
    ...orderedBindingOps(store, guest, order.securityGroups),
  ];
  return { guest, ops };
}

/** The guest's billing item: the whole order's fees (the API's children are derived from it). */
function billingItemOf(
  store: Store,
  accountId: number,
  guestId: number,
  order: GuestOrder,
  now: number,
): Tables['billingItems'] {
  const hourly = order.prices.reduce((sum, p) => sum + p.hourly, 0);
  return {
    id: store.nextId('billingItems'),
    accountId,
    categoryCode: 'guest_core',
    description: `${order.startCpus} x vCPU, ${order.maxMemory / 1024} GB RAM, ${order.os.referenceCode}`,
    hourlyFlag: order.hourly,
    hourlyRecurringFee: money(hourly, 4),
    recurringFee: money(monthlyFromHourly(hourly), 2),
    createDate: now,
    resourceTableId: guestId,
  };
}

/** The ordered VLANs (stored, not derived) an order puts the interfaces on, if any. */
function orderedVlanIds(
  store: Store,
  chosen: GuestOrder['vlans'],
): Partial<Record<Space, number>> | undefined {
  const ids = Object.entries(chosen ?? {}).flatMap(([space, vlan]) =>
    vlan && store.get('vlans', vlan.vlanId) ? [[space, vlan.vlanId] as const] : [],
  );
  return ids.length > 0 ? Object.fromEntries(ids) : undefined;
}

/** A guest's address in the subnet of the VLAN an interface is on. */
function newIpRecord(
  store: Store,
  accountId: number,
  guestId: number,
  subnet: SubnetView,
  isPublic: boolean,
): IpAddressRec {
  const ipId = store.nextId('ipAddresses');
  return {
    id: ipId,
    accountId,
    ipAddress: addressIn(subnet, ipId),
    isPublic,
    subnetId: subnet.id,
    guestId,
  };
}

/**
 * Writes that cancel a guest now; refused while a transaction (provisioning) is running and for a
 * guest already cancelled. Its billing stops at once when billed hourly, at the billing item's
 * next bill date (its anniversary) when monthly. With a reclaim delay the guest stays visible,
 * reclaiming (its `RECLAIM_WAIT` transaction), until `sweepReclaimed` removes it; else it is gone
 * at once.
 */
export function removeGuestOps(
  store: Store,
  guest: GuestRec,
  now: number,
  reclaimDelayMs: number,
): WriteOp[] {
  if (guest.reclaim) {
    throw publicFault(
      `Virtual guest ${guest.id} has already been cancelled; it is being reclaimed.`,
    );
  }
  const transaction = activeTransaction(guest, now);
  if (transaction) {
    const status = (transaction.transactionStatus as { name: string }).name;
    throw publicFault(
      `Cannot cancel virtual guest ${guest.id}: it has an active transaction (${status}). ` +
        'Wait until provisioning has finished (activeTransaction is empty), then try again.',
    );
  }
  const ops: WriteOp[] =
    reclaimDelayMs > 0
      ? [
          {
            put: 'guests',
            record: {
              ...guest,
              reclaim: {
                transactionId: store.nextSubId(),
                createDate: now,
                goneAt: now + reclaimDelayMs,
              },
              reclaiming: 1,
              modifyDate: now,
            },
          },
        ]
      : goneOps(store, guest);
  const billing = store.get('billingItems', guest.billingItemId);
  if (billing && billing.cancellationDate === undefined) {
    const billedTo = billing.hourlyFlag ? now : endOfBillingMonth(now);
    ops.push({ put: 'billingItems', record: { ...billing, cancellationDate: billedTo } });
  }
  return ops;
}

/** A guest, its addresses and its security group bindings, removed. */
const goneOps = (store: Store, guest: GuestRec): WriteOp[] => [
  { del: 'guests', id: guest.id },
  ...guestBindingsGoneOps(store, guest.id),
  ...[guest.backendIp, guest.publicIp].flatMap((ip): WriteOp[] =>
    ip ? [{ del: 'ipAddresses', id: ip.id }] : [],
  ),
];

/**
 * The API reclaims a transient guest (the admin API's `POST /_emulator/guests/<id>/reclaim`, as
 * the real API does when it needs the capacity back): the guest is gone from the account at once,
 * whatever it was doing, and its hourly billing stops now.
 */
export function reclaimTransientOps(store: Store, guest: GuestRec, now: number): WriteOp[] {
  if (!guest.transientGuestFlag)
    throw publicFault(
      `Virtual guest ${guest.id} is not transient; only transient guests are reclaimed.`,
    );
  const billing = store.get('billingItems', guest.billingItemId);
  return [
    ...goneOps(store, guest),
    ...(billing && billing.cancellationDate === undefined
      ? [{ put: 'billingItems' as const, record: { ...billing, cancellationDate: now } }]
      : []),
  ];
}

/** Removes the guests whose reclaim has ended (before each call: no timers, as for progress). */
export async function sweepReclaimed(store: Store, now: number): Promise<void> {
  const done = store
    .by('guests', 'reclaiming', 1)
    .filter((g) => g.reclaim !== undefined && g.reclaim.goneAt <= now);
  if (done.length > 0) await store.write(done.flatMap((g) => goneOps(store, g)));
}

/**
 * The prices a guest was ordered with, core first (the same the order was priced from), at the
 * account's `discounts` when given.
 */
export function guestPrices(g: GuestRec, discounts?: Discounts): Price[] {
  const datacenter = datacenterById(g.datacenterId);
  const os = findOs(g.osCode);
  const prices = [
    cpuPrice(g.startCpus),
    memoryPrice(g.maxMemory),
    ...(os ? [osPrice(os)] : []),
    networkPrice(g.networkSpeed),
    ...g.blockDevices.map((d, i) => diskPrice(d.capacity, g.localDiskFlag, i)),
  ];
  const located = datacenter ? prices.map((p) => priceAt(p, datacenter)) : prices;
  return located
    .map((p) => (g.transientGuestFlag ? transientPrice(p) : p))
    .map((p) => discounted(p, discounts));
}

// ---------------------------------------------------------------------------------------------
// What a guest may be upgraded to (Virtual_Guest.getUpgradeItemPrices, Product_Order)

export const datacenterOf = (g: GuestRec) => datacenterById(g.datacenterId) ?? DEFAULT_DATACENTER;

/**
 * The prices `g` may be upgraded to at its datacenter: other CPU counts, memory sizes and port
 * speeds (smaller ones only with `downgrades`), and for each disk position a larger size, or any
 * size for a position the guest has no disk in yet. Disks never shrink.
 */
export function upgradePrices(g: GuestRec, downgrades: boolean): PriceView[] {
  const dc = datacenterOf(g);
  const at = (price: Price, categories: string[]) => priceView(priceAt(price, dc), categories);
  const wanted = (value: number, now: number) => value !== now && (downgrades || value > now);
  const prices: PriceView[] = [
    ...CPU_OPTIONS.filter((n) => wanted(n, g.startCpus)).map((n) =>
      at(cpuPrice(n), ['guest_core']),
    ),
    ...MEMORY_OPTIONS.filter((mb) => wanted(mb, g.maxMemory)).map((mb) =>
      at(memoryPrice(mb), ['ram']),
    ),
    ...NETWORK_SPEEDS.filter((s) => wanted(s, g.networkSpeed)).map((s) =>
      at(networkPrice(s), ['port_speed']),
    ),
  ];
  for (const gb of ALL_DISK_SIZES) {
    const categories = diskPositions(gb)
      .filter((i) => (g.blockDevices[i] ? gb > g.blockDevices[i].capacity : i > 0))
      .map((i) => `guest_disk${i}`);
    if (categories.length > 0) prices.push(at(diskPrice(gb, g.localDiskFlag), categories));
  }
  return prices;
}

/** The size of a disk price id for a guest's kind of disk (local or SAN), at any location. */
export function diskSizeOf(g: GuestRec, id: number): number | undefined {
  return ALL_DISK_SIZES.find((gb) => diskPrice(gb, g.localDiskFlag).id === id % 100_000);
}

/**
 * Records behind a guest: building one from a checked order (with its billing item, IP
 * addresses and tags, written in one transaction), resolving tag names, and the operations that
 * remove a guest (deleteObject, Billing_Item.cancelService).
 */
import { randomUUID } from 'node:crypto';
import { money, monthlyFromHourly } from '../catalog';
import { publicFault } from '../errors';
import { addressIn, subnetFor } from '../network';
import { activeTransaction } from '../provisioning';
import type { BillingItemRec, GuestRec, IpAddressRec, TagRec } from '../records';
import type { Store, WriteOp } from '../store';
import type { GuestOrder } from './guest-template';

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
}

/** The guest record and every write that creates it. */
export function buildGuest(
  store: Store,
  accountId: number,
  order: GuestOrder,
  options: BuildOptions,
): { guest: GuestRec; ops: WriteOp[] } {
  const id = store.nextId('guests');
  const hourly = order.prices.reduce((sum, p) => sum + p.hourly, 0);
  const billing: BillingItemRec = {
    id: store.nextId('billingItems'),
    accountId,
    categoryCode: 'guest_core',
    description: `${order.startCpus} x vCPU, ${order.maxMemory / 1024} GB RAM, ${order.os.referenceCode}`,
    hourlyFlag: order.hourly,
    hourlyRecurringFee: money(hourly, 4),
    recurringFee: money(monthlyFromHourly(hourly), 2),
    createDate: options.now,
    resourceTableId: id,
  };
  const ipRecord = (isPublic: boolean): IpAddressRec => {
    const ipId = store.nextId('ipAddresses');
    const subnet = subnetFor(accountId, order.datacenter, isPublic ? 'PUBLIC' : 'PRIVATE');
    return {
      id: ipId,
      accountId,
      ipAddress: addressIn(subnet, ipId),
      isPublic,
      subnetId: subnet.id,
      guestId: id,
    };
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
    hourlyBillingFlag: order.hourly,
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
  };
  const ops: WriteOp[] = [
    ...tags.ops,
    { put: 'billingItems', record: billing },
    { put: 'ipAddresses', record: backend },
    ...(pub ? [{ put: 'ipAddresses' as const, record: pub }] : []),
    { put: 'guests', record: guest },
  ];
  return { guest, ops };
}

/** Writes that cancel a guest now; refused while a transaction (provisioning) is running. */
export function removeGuestOps(store: Store, guest: GuestRec, now: number): WriteOp[] {
  const transaction = activeTransaction(guest, now);
  if (transaction) {
    const status = (transaction.transactionStatus as { name: string }).name;
    throw publicFault(
      `Cannot cancel virtual guest ${guest.id}: it has an active transaction (${status}). ` +
        'Wait until provisioning has finished (activeTransaction is empty), then try again.',
    );
  }
  const ops: WriteOp[] = [{ del: 'guests', id: guest.id }];
  for (const ip of [guest.backendIp, guest.publicIp])
    if (ip) ops.push({ del: 'ipAddresses', id: ip.id });
  const billing = store.get('billingItems', guest.billingItemId);
  if (billing && billing.cancellationDate === undefined) {
    ops.push({ put: 'billingItems', record: { ...billing, cancellationDate: now } });
  }
  return ops;
}

import type { Client } from '../client';
import { SvcError, isNotFound } from '../client/errors';
import { nestedFilter, queryFilter, type Filter } from '../client/filter';
import { poll, type Pace } from '../client/poll';
import { BatchedWait } from './batched-wait';
import { IDLE_PACE, READY_PACE } from './paces';
import { gathered } from './gathered';
import type { CreateObjectOptions, VirtualGuest } from './types';
import {
  SIZE_MASK,
  type GuestSize,
  upgradeOrder,
  upgradeProgress,
  type UpgradeProgress,
  type UpgradeSpec,
} from './upgrade';

/** What a person orders: the friendly names of `Virtual_Guest.createObject`'s template fields. */
export interface CreateInstanceSpec {
  hostname: string;
  domain: string;
  cpus: number;
  /** Memory in MB. */
  memory: number;
  /** Hourly billing (default) or monthly. */
  hourly?: boolean;
  /** Local disk (default) or SAN. */
  localDisk?: boolean;
  os: string;
  datacenter?: string;
  /** Network port speed in Mbps. */
  nicSpeed?: number;
  /** Disk sizes in GB, the boot disk first (devices 0, 2, 3, ...; 1 is swap). */
  disks?: number[];
  privateNetworkOnly?: boolean;
  userData?: string;
  sshKeyIds?: number[];
  /** Set atomically with the order, so a tag can serve as an idempotency token. */
  tags?: string[];
  notes?: string;
}

export interface ListInstancesOptions {
  hourly?: boolean;
  monthly?: boolean;
  hostname?: string;
  domain?: string;
  datacenter?: string;
  tags?: string[];
  /** Only guests with a tag that starts with this (the server's `^=` filter). */
  tagPrefix?: string;
  cpus?: number;
  memory?: number;
  mask?: string;
  /** Page size of the underlying calls (all pages are fetched). */
  limit?: number;
}

export interface WaitOptions {
  timeoutMs: number;
  /** First delay between polls; it grows by half each poll up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  /** Called after each poll that found the guest not ready yet. */
  onProgress?: (guest: VirtualGuest, elapsedMs: number) => void;
}

export class WaitTimeoutError extends SvcError {
  constructor(
    readonly guestId: number,
    readonly lastStatus: string,
    timeoutMs: number,
  ) {
    super(
      `virtual guest ${guestId} was not ready after ${Math.round(timeoutMs / 1000)} s (last status: ${lastStatus})`,
    );
  }
}

export const DEFAULT_LIST_MASK =
  'id,globalIdentifier,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,primaryBackendIpAddress,' +
  'maxCpu,maxMemory,hourlyBillingFlag,provisionDate,datacenter.name,powerState,tagReferences.tag.name,' +
  'activeTransaction.transactionStatus[name,friendlyName]';

/** What a cancel reads: the billing (when it stops) and whether the guest is reclaiming. */
export const CANCEL_MASK =
  'id,hourlyBillingFlag,billingItem[id,cancellationDate,nextBillDate],' +
  'activeTransaction[id,transactionStatus[name,friendlyName]]';

/** What a guest's interface shows: its security groups (those in force), VLAN and subnet. */
export const INTERFACE_MASK =
  'id,securityGroupBindings[securityGroupId],networkVlan.id,primarySubnet.id';

export const DETAIL_MASK =
  'id,accountId,globalIdentifier,hostname,domain,fullyQualifiedDomainName,startCpus,maxCpu,maxMemory,hourlyBillingFlag,' +
  'localDiskFlag,privateNetworkOnlyFlag,notes,createDate,provisionDate,primaryIpAddress,primaryBackendIpAddress,' +
  'operatingSystemReferenceCode,datacenter[id,name],powerState,transientGuestFlag,' +
  'billingItem[id,hourlyRecurringFee,recurringFee,orderItem[preset[keyName]]],' +
  'activeTransaction[id,transactionStatus[name,friendlyName]],lastOperatingSystemReload.id,tagReferences[id,tag.name],' +
  'networkComponents[maxSpeed],userData[value],sshKeys[id],blockDevices[device,diskImage[capacity]],' +
  `primaryNetworkComponent[${INTERFACE_MASK}],primaryBackendNetworkComponent[${INTERFACE_MASK}],placementGroupId,` +
  'blockDeviceTemplateGroup.globalIdentifier,dedicatedAccountHostOnlyFlag,dedicatedHost.id';

/** Ready = provisioned, no transaction running, and the addresses it will have are assigned. */
export function isReady(guest: VirtualGuest): boolean {
  if (!guest.provisionDate || guest.activeTransaction?.id) return false;
  if (!guest.primaryBackendIpAddress) return false;
  return Boolean(guest.privateNetworkOnlyFlag || guest.primaryIpAddress);
}

/**
 * Cancelled and being reclaimed: the API shows the guest, with its `RECLAIM_WAIT` transaction,
 * for minutes after the cancel, until it is gone. Nothing may be done with it any more.
 */
export const isReclaiming = (guest: VirtualGuest): boolean =>
  guest.activeTransaction?.transactionStatus?.name === 'RECLAIM_WAIT';

export function guestStatus(guest: VirtualGuest): string {
  const status = guest.activeTransaction?.transactionStatus;
  if (status) return status.friendlyName ?? status.name ?? 'transaction running';
  return guest.provisionDate ? 'provisioned, waiting for addresses' : 'waiting for provisioning';
}

/** The tag names of a guest or server (any object the API lists with its tag references). */
export function tagNames(object: Pick<VirtualGuest, 'tagReferences'>): string[] {
  return (object.tagReferences ?? []).flatMap((ref) => (ref.tag ? [ref.tag.name] : []));
}

/** `Virtual_Guest.createObject`'s template: an order under the API's own field names. */
export type GuestTemplate = Record<string, unknown>;

/**
 * How the parts of an order that the API nests go into the template (reference client:
 * `_generate_create_dict`); the scalars go under their own names. An empty part is not sent.
 */
export const TEMPLATE_PARTS = {
  datacenter: (name: string) => ({ datacenter: { name } }),
  networkSpeed: (maxSpeed: number) => ({ networkComponents: [{ maxSpeed }] }),
  /** Devices 0, 2, 3, ... (1 is swap). */
  disks: (sizes: number[]) => ({
    blockDevices: sizes.map((capacity, i) => ({
      device: String(i === 0 ? 0 : i + 1),
      diskImage: { capacity },
    })),
  }),
  privateNetworkOnly: () => ({ privateNetworkOnlyFlag: true }),
  dedicatedAccountHostOnlyFlag: () => ({ dedicatedAccountHostOnlyFlag: true }),
  userData: (value: string) => ({ userData: [{ value }] }),
  sshKeyIds: (ids: number[]) => ({ sshKeys: ids.map((id) => ({ id })) }),
  tags: (names: string[]) => ({ tagReferences: names.map((name) => ({ tag: { name } })) }),
  notes: (notes: string) => ({ notes }),
  /** Bound to the public interface once the guest is provisioned (reference client: `create_instance`). */
  securityGroupIds: (ids: number[]) => ({
    primaryNetworkComponent: { securityGroupBindings: bindings(ids) },
  }),
  /** Bound to the private interface. */
  privateSecurityGroupIds: (ids: number[]) => ({
    primaryBackendNetworkComponent: { securityGroupBindings: bindings(ids) },
  }),
  /** A preset size instead of startCpus and maxMemory (reference client: `flavor`). */
  flavorKeyName: (flavorKeyName: string) => ({
    supplementalCreateObjectOptions: { flavorKeyName },
  }),
  /** A transient guest (reference client: `transient`): hourly, the API may reclaim it. */
  transientGuestFlag: () => ({ transientGuestFlag: true }),
  /** Made from an image template instead of an OS code (reference client: `image_id`). */
  imageTemplateId: (globalIdentifier: string) => ({
    blockDeviceTemplateGroup: { globalIdentifier },
  }),
  /** Placed on one of the account's dedicated hosts (reference client: `host_id`). */
  dedicatedHostId: (id: number) => ({ dedicatedHost: { id } }),
  publicVlanId: (id: number) => onVlan('primaryNetworkComponent', { id }),
  privateVlanId: (id: number) => onVlan('primaryBackendNetworkComponent', { id }),
  publicSubnetId: (id: number) => onVlan('primaryNetworkComponent', { primarySubnet: { id } }),
  privateSubnetId: (id: number) =>
    onVlan('primaryBackendNetworkComponent', { primarySubnet: { id } }),
};

/** The VLAN (and subnet) of an interface, as the reference client's `_create_network_components`. */
const onVlan = (nic: string, vlan: Record<string, unknown>) => ({ [nic]: { networkVlan: vlan } });

const bindings = (ids: number[]) => ids.map((id) => ({ securityGroup: { id } }));

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds a part to a template: parts that nest under one property (an interface's security groups
 * and its VLAN) are merged, not overwritten.
 */
export function addPart(template: GuestTemplate, part: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(part)) {
    const there = template[key];
    if (isPlainObject(there) && isPlainObject(value)) {
      const merged = { ...there };
      addPart(merged, value);
      template[key] = merged;
    } else template[key] = value;
  }
}

/** False for what is not sent: nothing, false, 0, '' and empty lists. */
export const isSent = (value: unknown) =>
  Boolean(value) && !(Array.isArray(value) && value.length === 0);

/**
 * What an order is when it does not say: hourly billing, local disk. The one place these defaults
 * are written: the VirtualGuest field table states them from here.
 */
export const ORDER_DEFAULTS = { hourlyBillingFlag: true, localDiskFlag: true } as const;

/**
 * How a guest is billed, from its `hourlyBillingFlag` (the one name of the concept); a flag that
 * is not given reads as the order default, hourly.
 */
export const billingMode = (hourlyBillingFlag: unknown): 'hourly' | 'monthly' =>
  (hourlyBillingFlag ?? ORDER_DEFAULTS.hourlyBillingFlag) === false ? 'monthly' : 'hourly';

/** The template of a spec in the friendly names (reference client: `create_instance`). */
export function createTemplate(spec: CreateInstanceSpec): GuestTemplate {
  const template: GuestTemplate = {
    hostname: spec.hostname,
    domain: spec.domain,
    startCpus: spec.cpus,
    maxMemory: spec.memory,
    hourlyBillingFlag: spec.hourly ?? ORDER_DEFAULTS.hourlyBillingFlag,
    localDiskFlag: spec.localDisk ?? ORDER_DEFAULTS.localDiskFlag,
    operatingSystemReferenceCode: spec.os,
  };
  const parts: [keyof typeof TEMPLATE_PARTS, unknown][] = [
    ['datacenter', spec.datacenter],
    ['networkSpeed', spec.nicSpeed],
    ['disks', spec.disks],
    ['privateNetworkOnly', spec.privateNetworkOnly],
    ['userData', spec.userData],
    ['sshKeyIds', spec.sshKeyIds],
    ['tags', spec.tags],
    ['notes', spec.notes],
  ];
  for (const [part, value] of parts) {
    if (isSent(value)) addPart(template, TEMPLATE_PARTS[part](value as never));
  }
  return template;
}

/** What one read of a guest being waited on found: the wait's result, or the guest still busy. */
type PollRead<R> = { done: R } | { pending: VirtualGuest; status: string };

/**
 * The wait of one guest: `read` until it is done, reporting progress after each read that is
 * not; past `timeoutMs`, a `WaitTimeoutError` with the last status.
 */
async function pollGuest<R>(
  id: number,
  read: () => Promise<PollRead<R>>,
  pace: Pace & { timeoutMs: number; onProgress?: WaitOptions['onProgress'] },
): Promise<R> {
  const { value } = await poll(read, (seen) => 'done' in seen, {
    ...pace,
    onPending: (seen, elapsed) => 'pending' in seen && pace.onProgress?.(seen.pending, elapsed),
  });
  if ('done' in value) return value.done;
  throw new WaitTimeoutError(id, value.status, pace.timeoutMs);
}

/** How a wait for a transaction polls (paces.ts), or as the options ask. */
const transactionPace = (options: WaitOptions) => ({
  ...READY_PACE,
  timeoutMs: options.timeoutMs,
  firstMs: options.pollMs ?? READY_PACE.firstMs,
  maxMs: options.maxPollMs ?? READY_PACE.maxMs,
  onProgress: options.onProgress,
});

/** Cloud compute instances: list, order, wait, edit, cancel. */
export class VirtualGuestManager {
  private readiness: BatchedWait<VirtualGuest> | undefined;
  private readonly taggedLookups = new Map<string, (tag: string) => Promise<VirtualGuest[]>>();

  constructor(private readonly client: Client) {}

  async listInstances(options: ListInstancesOptions = {}): Promise<VirtualGuest[]> {
    const { hourly = true, monthly = true } = options;
    const method =
      hourly && !monthly
        ? 'getHourlyVirtualGuests'
        : monthly && !hourly
          ? 'getMonthlyVirtualGuests'
          : 'getVirtualGuests';
    const conditions: [string, unknown][] = [
      ['hostname', options.hostname],
      ['domain', options.domain],
      ['datacenter.name', options.datacenter],
      ['maxCpu', options.cpus],
      ['maxMemory', options.memory],
    ];
    let filter: Filter = {};
    for (const [path, value] of conditions) {
      if (value !== undefined)
        filter = nestedFilter(
          `virtualGuests.${path}`,
          queryFilter(value as string | number),
          filter,
        );
    }
    if (options.tags?.length) {
      const condition = { operation: 'in', options: [{ name: 'data', value: options.tags }] };
      filter = nestedFilter('virtualGuests.tagReferences.tag.name', condition, filter);
    }
    if (options.tagPrefix) {
      const condition = queryFilter(`^= ${options.tagPrefix}`);
      filter = nestedFilter('virtualGuests.tagReferences.tag.name', condition, filter);
    }
    const guests: VirtualGuest[] = [];
    const pages = this.client.iterCall('Account', method, {
      mask: options.mask ?? DEFAULT_LIST_MASK,
      filter,
      chunk: options.limit ?? 100,
    });
    for await (const guest of pages) guests.push(guest as VirtualGuest);
    return guests;
  }

  /**
   * The guests that carry `tag`. The listing filter narrows the search; each guest it returns is
   * checked again for the exact tag, so a loose match on the server never counts as carrying it.
   * Lookups asked for together (with the same mask) share one listing.
   */
  listTagged(tag: string, mask: string = DEFAULT_LIST_MASK): Promise<VirtualGuest[]> {
    const withTags = mask.includes('tagReferences') ? mask : `${mask},tagReferences.tag.name`;
    let lookup = this.taggedLookups.get(withTags);
    if (!lookup) {
      lookup = gathered(
        async (tags: string[]) => {
          const found = await this.listInstances({ tags, mask: withTags });
          const byTag = new Map<string, VirtualGuest[]>(tags.map((t) => [t, []]));
          for (const guest of found.sort((a, b) => a.id - b.id)) {
            for (const name of tagNames(guest)) byTag.get(name)?.push(guest);
          }
          return byTag;
        },
        () => [],
      );
      this.taggedLookups.set(withTags, lookup);
    }
    return lookup(tag);
  }

  async getInstance(id: number, mask: string = DETAIL_MASK): Promise<VirtualGuest> {
    return (await this.client.call('Virtual_Guest', 'getObject', { id, mask })) as VirtualGuest;
  }

  /** The guest, or undefined when it does not exist (or belongs to another account). */
  async findInstance(id: number, mask: string = DETAIL_MASK): Promise<VirtualGuest | undefined> {
    try {
      return await this.getInstance(id, mask);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async getCreateOptions(): Promise<CreateObjectOptions> {
    return (await this.client.call(
      'Virtual_Guest',
      'getCreateObjectOptions',
      {},
    )) as CreateObjectOptions;
  }

  /** Prices an order without placing it (`generateOrderTemplate`). */
  async verifyCreate(spec: CreateInstanceSpec): Promise<Record<string, unknown>> {
    return this.verifyTemplate(createTemplate(spec));
  }

  async verifyTemplate(template: GuestTemplate): Promise<Record<string, unknown>> {
    return (await this.client.call('Virtual_Guest', 'generateOrderTemplate', {
      args: [template],
    })) as Record<string, unknown>;
  }

  /** Orders the guest. Billed: the client never retries it on its own. */
  async createInstance(spec: CreateInstanceSpec): Promise<VirtualGuest> {
    return this.createFromTemplate(createTemplate(spec));
  }

  /** Orders the guest of a template. Billed: the client never retries it on its own. */
  async createFromTemplate(template: GuestTemplate): Promise<VirtualGuest> {
    return (await this.client.call('Virtual_Guest', 'createObject', {
      args: [template],
    })) as VirtualGuest;
  }

  /**
   * Resolves with the guest (read with `DETAIL_MASK`) when it is ready; throws `WaitTimeoutError`
   * at the deadline. The waits of one manager share their polls (batched-wait.ts): one listing a
   * round for all the guests awaited, and the round that finds a guest ready is also its final
   * read. The pace grows gently (x1.5) so a guest that is ready in seconds is noticed within a
   * second or two, while a long provisioning settles at one round per `maxPollMs`.
   */
  waitForReady(id: number, options: WaitOptions): Promise<VirtualGuest> {
    return this.readinessOf(options).wait(id, options);
  }

  /** The manager's one batched readiness wait (made by its first waiter, at its pace). */
  private readinessOf(options: WaitOptions): BatchedWait<VirtualGuest> {
    this.readiness ??= new BatchedWait<VirtualGuest>(
      {
        list: async (ids) =>
          (await this.client.call('Account', 'getVirtualGuests', {
            mask: DETAIL_MASK,
            filter: {
              virtualGuests: {
                id: { operation: 'in', options: [{ name: 'data', value: ids.map(String) }] },
              },
            },
          })) as VirtualGuest[],
        read: (guestId) => this.getInstance(guestId, DETAIL_MASK),
        ready: isReady,
        timeoutError: (guestId, last, timeoutMs) =>
          new WaitTimeoutError(guestId, guestStatus(last), timeoutMs),
      },
      options.pollMs ?? READY_PACE.firstMs,
      options.maxPollMs ?? READY_PACE.maxMs,
    );
    return this.readiness;
  }

  /** Waits until no transaction runs on the guest (deletes are refused while one does). */
  /** Waits until no transaction runs on the guest (or, `until: 'gone'`, until it is gone). */
  async waitForIdle(
    id: number,
    timeoutMs: number,
    onProgress?: WaitOptions['onProgress'],
    until: 'idle' | 'gone' = 'idle',
  ): Promise<void> {
    await pollGuest<undefined>(
      id,
      async () => {
        const guest = await this.findInstance(
          id,
          'id,activeTransaction[id,transactionStatus[name,friendlyName]]',
        );
        if (!guest || (until === 'idle' && !guest.activeTransaction?.id))
          return { done: undefined };
        return { pending: guest, status: guestStatus(guest) };
      },
      { ...IDLE_PACE, timeoutMs, onProgress },
    );
  }

  /** Where an upgrade of the guest to `spec` stands (its size and active transaction). */
  async upgradeProgress(id: number, spec: UpgradeSpec): Promise<UpgradeProgress> {
    return upgradeProgress(await this.getInstance(id, SIZE_MASK), spec);
  }

  /**
   * The upgrade order that takes the guest from `size` (as last read) to `spec`; only for a guest
   * that `upgradeChanges` finds something to change on. Refuses a size the API does not offer.
   */
  priceUpgrade(id: number, size: GuestSize, spec: UpgradeSpec): Promise<Record<string, unknown>> {
    return upgradeOrder(this.client, id, size, spec);
  }

  /**
   * Checks an upgrade order without placing it (`Product_Order.verifyOrder`): the API's refusals
   * (a shrink, a size not offered, a transaction running) come out here.
   */
  async verifyUpgrade(order: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await this.client.call('Product_Order', 'verifyOrder', {
      args: [order],
    })) as Record<string, unknown>;
  }

  /**
   * Places an upgrade order (reference client: `VSManager.upgrade`) and returns the receipt.
   * Billed: the caller sends it at most once, and looks for its effect when the answer is lost.
   */
  async upgrade(order: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await this.client.call('Product_Order', 'placeOrder', {
      args: [order, false],
    })) as Record<string, unknown>;
  }

  /**
   * Waits until the upgrade to `spec` is done: the guest has that size and no transaction runs
   * (the UPGRADE transaction may take a moment to appear, so "not seen yet" keeps waiting).
   */
  async waitForUpgrade(id: number, spec: UpgradeSpec, options: WaitOptions): Promise<VirtualGuest> {
    return pollGuest<VirtualGuest>(
      id,
      async () => {
        const guest = await this.getInstance(id, SIZE_MASK);
        if (upgradeProgress(guest, spec) === 'done') return { done: guest };
        const status = guest.activeTransaction?.id ? guestStatus(guest) : 'upgrade not started yet';
        return { pending: guest, status };
      },
      transactionPace(options),
    );
  }

  /**
   * Reinstalls the guest's operating system in place (reference client: `reload_instance`):
   * `config` may name the new OS by its item price (`itemPrices`) and the SSH keys to install.
   * It erases the primary disk: the caller sends it at most once.
   */
  async reloadOperatingSystem(
    id: number,
    config: { itemPrices?: { id: number }[]; sshKeyIds?: number[] },
  ): Promise<void> {
    await this.client.call('Virtual_Guest', 'reloadOperatingSystem', {
      id,
      args: ['FORCE', config],
    });
  }

  /** Replaces the guest's user data (what cloud-init reads on its next first boot). */
  async setUserData(id: number, value: string | undefined): Promise<void> {
    await this.client.call('Virtual_Guest', 'setUserMetadata', {
      id,
      args: [value === undefined ? [] : [value]],
    });
  }

  /**
   * Waits until a reload newer than the one `before` names has finished and the guest is ready
   * (the reload's transaction, like provisioning; it may take a moment to appear).
   */
  async waitForReload(
    id: number,
    before: number | undefined,
    options: WaitOptions,
  ): Promise<VirtualGuest> {
    const reloaded = (guest: VirtualGuest) => {
      const reload = guest.lastOperatingSystemReload?.id;
      return reload !== undefined && reload !== null && reload !== before;
    };
    // One of the readiness rounds (batched with every other guest awaited), with its own end.
    return this.readinessOf(options).wait(id, {
      ...options,
      ready: (guest) => reloaded(guest) && isReady(guest),
      timeoutError: (guestId, last, timeoutMs) =>
        new WaitTimeoutError(
          guestId,
          reloaded(last) ? guestStatus(last) : 'reload not started yet',
          timeoutMs,
        ),
    });
  }

  /** Changes hostname, domain and notes in one `editObject`; tags through `setTags`. */
  async editInstance(
    id: number,
    changes: { hostname?: string; domain?: string; notes?: string; tags?: string[] },
  ): Promise<void> {
    const { tags, ...fields } = changes;
    const edit = Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(edit).length > 0)
      await this.client.call('Virtual_Guest', 'editObject', { id, args: [edit] });
    if (tags !== undefined) await this.setTags(id, tags);
  }

  async setTags(id: number, tags: string[]): Promise<void> {
    await this.client.call('Virtual_Guest', 'setTags', { id, args: [tags.join(',')] });
  }

  /** When a billing item's billing stops, once cancelled (undefined: still billed, or gone). */
  async billedUntil(billingItemId: number): Promise<string | undefined> {
    try {
      const item = (await this.client.call('Billing_Item', 'getObject', {
        id: billingItemId,
        mask: 'id,cancellationDate',
      })) as { cancellationDate?: string };
      return item.cancellationDate;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * Cancels the guest: hourly guests are deleted at once; monthly ones cancel their billing item,
   * as the API requires. A guest that is already gone, or being reclaimed, counts as cancelled.
   */
  async cancelInstance(id: number): Promise<void> {
    const guest = await this.findInstance(id, CANCEL_MASK);
    if (!guest || isReclaiming(guest)) return;
    try {
      if (billingMode(guest.hourlyBillingFlag) === 'monthly' && guest.billingItem?.id) {
        await this.client.call('Billing_Item', 'cancelService', { id: guest.billingItem.id });
      } else {
        await this.client.call('Virtual_Guest', 'deleteObject', { id });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

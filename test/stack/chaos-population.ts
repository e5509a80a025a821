import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../provider/client';
import { listVlans, orderContainer, placeOrder } from '../../provider/kinds/vlan/api';
import {
  createGroup as createPlacementGroup,
  listGroups as listPlacementGroups,
  routersIn,
  ruleId,
} from '../../provider/kinds/placement-group/api';
import { cancelBillingItem } from '../../provider/managers/billing-item';
import {
  DedicatedHostManager,
  HardwareManager,
  ImageManager,
  SecurityGroupManager,
  StorageManager,
  type VolumeType,
} from '../../provider/managers';
import { guestTemplate } from '../support/emulator-harness';
import { untilIdle } from '../support/idle-guest';
import { orderByHand } from '../support/volumes';
import type { OwnerResource } from './front-door';

/**
 * The kinds a chaos sequence (chaos.ts) declares beside its two guests, and mutates step by step:
 * each is added, changed in place, changed so that it is replaced, and removed. Each names what
 * the emulator holds of it (`held`: every object of the kind in the account, cancelled or not), so
 * the world checks cover it as they cover the guests, and makes a look-alike by hand (the same
 * name, the same datacenter) that the stack must never change or delete.
 *
 * The billed orders are hourly or cancelled at once, so a deleted one is gone (or marked
 * cancelled) within its delete, and nothing of one sequence's orders lingers as live.
 */

/** How a declared member stands: in-place changes made so far, and which of two shapes it has. */
export interface Version {
  changes: number;
  /** A replacing change flips it (for the security group: whether the guests are bound to it). */
  flipped: boolean;
}

/** What a sequence made by hand that a member's properties may name. */
export interface Context {
  /** Two provisioned, idle guests made over XML-RPC: what the image template captures. */
  sources: [number, number];
}

/** One object of a kind as the emulator holds it. */
export interface Held {
  id: number;
  /** Cancelled (its billing item's cancellation date set), though still listed. */
  cancelled: boolean;
  /** What a change by the stack would alter: compared before and after for hand-made ones. */
  text: string;
}

export interface Member {
  /** The kind (`svc:index:<kind>`). */
  kind: string;
  /** The resource's name in the owner program. */
  name: string;
  /** What its in-place change does and what its replacing change does, for the steps' log. */
  changes: { inPlace: string; replace: string };
  /** The API writes its lifecycle sends (service, method): where a step's faults may land. */
  writes: readonly (readonly [string, string])[];
  resource(version: Version, context: Context): OwnerResource;
  /** Every object of the kind in the account. */
  held(client: Client): Promise<Held[]>;
  /** Makes a look-alike by hand; resolves once it is ready. */
  byHand(client: Client, context: Context): Promise<void>;
  /**
   * A billed kind ordered once: what a refused leftover is called in the provider's message
   * (`cancel volume 12 if it is not wanted`), and the service it is cancelled through.
   */
  leftover?: { noun: string; service: string };
}

const DOMAIN = 'owner.example.com';
/** The guest whose datacenter the volumes are in and which they are authorized to. */
const GUEST = 'g0';
const cancelled = (o: { billingItem?: { cancellationDate?: string } }) =>
  Boolean(o.billingItem?.cancellationDate);
const text = (...fields: unknown[]) => JSON.stringify(fields);
const ORDER = ['Product_Order', 'placeOrder'] as const;
const CANCEL = ['Billing_Item', 'cancelItem'] as const;

async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 200) {
    if (await ready()) return;
    await sleep(200);
  }
  throw new Error(`${what} is not ready after 20 s`);
}

const vlan: Member = {
  kind: 'Vlan',
  name: 'net',
  changes: { inPlace: 'renamed', replace: 'another network space' },
  writes: [ORDER, CANCEL, ['Network_Vlan', 'editObject']],
  leftover: { noun: 'VLAN', service: 'Network_Vlan' },
  resource: ({ changes, flipped }) => ({
    kind: 'Vlan',
    properties: {
      datacenter: 'dal10',
      networkSpace: flipped ? 'PUBLIC' : 'PRIVATE',
      name: `net-${changes}`,
      cancelImmediately: true,
    },
  }),
  // Ordered VLANs only (a billing item): the account's derived ones come and go with its guests.
  held: async (client) =>
    (await listVlans(client))
      .filter((v) => v.billingItem)
      .map((v) => ({
        id: v.id,
        cancelled: cancelled(v),
        text: text(v.name, v.note, cancelled(v)),
      })),
  byHand: async (client) => {
    const order = { datacenter: 'dal10', networkSpace: 'PRIVATE', name: 'net-0' } as const;
    await placeOrder(client, await orderContainer(client, { ...order, containerIdentifier: 'x' }));
  },
};

const HOST_SIZE = '48_CORES_X_192_RAM_X_1_TB';
const host: Member = {
  kind: 'DedicatedHost',
  name: 'host',
  changes: { inPlace: 'renamed', replace: 'another domain' },
  writes: [ORDER, CANCEL, ['Virtual_DedicatedHost', 'editObject']],
  leftover: { noun: 'dedicated host', service: 'Virtual_DedicatedHost' },
  resource: ({ changes, flipped }) => ({
    kind: 'DedicatedHost',
    properties: {
      name: `host-${changes}`,
      domain: flipped ? `b.${DOMAIN}` : DOMAIN,
      datacenter: 'dal10',
      size: HOST_SIZE,
      hourlyBilling: true,
    },
  }),
  held: async (client) =>
    (await new DedicatedHostManager(client).listHosts()).map((h) => ({
      id: h.id,
      cancelled: cancelled(h),
      text: text(h.name, h.notes, cancelled(h)),
    })),
  byHand: async (client) => {
    const hosts = new DedicatedHostManager(client);
    const order = { name: 'host-0', domain: DOMAIN, datacenter: 'dal10', size: HOST_SIZE };
    await placeOrder(
      client,
      await hosts.orderContainer({ ...order, hourly: true, creationToken: 'by-hand' }),
    );
  },
};

const SSH = { direction: 'ingress', protocol: 'tcp', portRangeMin: 22, portRangeMax: 22 };
const HTTPS = { direction: 'ingress', protocol: 'tcp', portRangeMin: 443, portRangeMax: 443 };
/** Bound to both guests' public interfaces unless flipped (the guests then name no group). */
const group: Member = {
  kind: 'SecurityGroup',
  name: 'web',
  changes: { inPlace: 'a rule and the description', replace: 'bound to the guests or unbound' },
  writes: [
    ['Network_SecurityGroup', 'createObject'],
    ['Network_SecurityGroup', 'editObject'],
    ['Network_SecurityGroup', 'addRules'],
    ['Network_SecurityGroup', 'attachNetworkComponents'],
    ['Network_SecurityGroup', 'detachNetworkComponents'],
    ['Network_SecurityGroup', 'deleteObject'],
  ],
  resource: ({ changes }) => ({
    kind: 'SecurityGroup',
    properties: {
      name: 'web',
      description: `v${changes}`,
      rules: changes % 2 === 0 ? [SSH] : [SSH, HTTPS],
    },
  }),
  held: async (client) =>
    (await new SecurityGroupManager(client).listGroups()).map((g) => ({
      id: g.id,
      cancelled: false,
      text: text(g.name, g.description, g.rules?.length, g.networkComponentBindings?.length),
    })),
  byHand: async (client) => {
    await new SecurityGroupManager(client).createGroup({ name: 'web', description: 'v0' });
  },
};

/** Free, made with its token as its name until the handover; flipped, in another datacenter. */
const placement: Member = {
  kind: 'PlacementGroup',
  name: 'spread',
  changes: { inPlace: 'renamed', replace: 'another datacenter' },
  writes: [
    ['Virtual_PlacementGroup', 'createObject'],
    ['Virtual_PlacementGroup', 'editObject'],
    ['Virtual_PlacementGroup', 'deleteObject'],
  ],
  resource: ({ changes, flipped }) => ({
    kind: 'PlacementGroup',
    properties: { name: `spread-${changes}`, datacenter: flipped ? 'dal12' : 'dal10' },
  }),
  held: async (client) =>
    (await listPlacementGroups(client)).map((g) => ({
      id: g.id,
      cancelled: false,
      text: text(g.name, g.backendRouterId),
    })),
  byHand: async (client) => {
    const [router] = await routersIn(client, 'dal10');
    const rule = await ruleId(client, 'SPREAD');
    await createPlacementGroup(client, {
      name: 'spread-0',
      backendRouterId: router.id,
      ruleId: rule,
    });
  },
};

const PRESET = 'S1270_32GB_1X1TBSATA_NORAID';
const OS = ['UBUNTU_22_64', 'UBUNTU_24_64'];
/** An hourly server: a change of OS reloads it in place. */
const metal: Member = {
  kind: 'BareMetalServer',
  name: 'metal',
  changes: { inPlace: 'notes, and another OS reloaded in place', replace: 'another port speed' },
  writes: [
    ORDER,
    CANCEL,
    ['Hardware_Server', 'reloadOperatingSystem'],
    ['Hardware_Server', 'editObject'],
  ],
  leftover: { noun: 'server', service: 'Hardware_Server' },
  resource: ({ changes, flipped }) => ({
    kind: 'BareMetalServer',
    properties: {
      hostname: 'metal',
      domain: DOMAIN,
      preset: PRESET,
      operatingSystemReferenceCode: OS[changes % 2],
      onImageChange: 'reload',
      datacenter: 'dal10',
      networkSpeed: flipped ? 100 : 1000,
      notes: `v${changes}`,
    },
  }),
  held: async (client) =>
    (await new HardwareManager(client).listServers()).map((s) => ({
      id: s.id,
      cancelled: cancelled(s),
      text: text(s.hostname, s.domain, s.notes, s.operatingSystemReferenceCode, cancelled(s)),
    })),
  byHand: async (client) => {
    const servers = new HardwareManager(client);
    await servers.place(
      await servers.orderContainer({
        preset: PRESET,
        os: OS[0],
        portSpeed: 1000,
        datacenter: 'dal10',
        hourly: true,
        hostname: 'metal',
        domain: DOMAIN,
        sshKeyIds: [],
        tags: ['by-hand'],
      }),
    );
    await until('the hand-made server', async () =>
      (await servers.listServers()).every((s) => Boolean(s.provisionDate)),
    );
  },
};

/** A volume in guest g0's datacenter, authorized to it: in place it grows; flipped, replaced. */
function volume(
  type: VolumeType,
  name: string,
  shape: (flipped: boolean) => Record<string, unknown>,
  replace: string,
): Member {
  const kind = type === 'block' ? 'BlockVolume' : 'FileVolume';
  const base = type === 'block' ? 20 : 100;
  return {
    kind,
    name,
    changes: { inPlace: 'resized', replace },
    writes: [ORDER, CANCEL, ['Network_Storage', 'allowAccessFromHostList']],
    leftover: { noun: 'volume', service: 'Network_Storage' },
    resource: ({ changes, flipped }) => ({
      kind,
      properties: {
        datacenter: `\${${GUEST}.datacenter}`,
        capacityGb: base + 20 * changes,
        authorizedGuestIds: [`\${${GUEST}.guestId}`],
        cancelImmediately: true,
        ...shape(flipped),
      },
    }),
    held: async (client) =>
      (await new StorageManager(client).listVolumes(type)).map((v) => ({
        id: v.id,
        cancelled: cancelled(v),
        text: text(v.capacityGb, v.allowedVirtualGuests?.length ?? 0, cancelled(v)),
      })),
    byHand: async (client) => {
      const volumes = new StorageManager(client);
      const sizing = type === 'block' ? { tierIopsPerGb: 2, osFormat: 'LINUX' } : { iops: 1000 };
      const order = { type, datacenter: 'dal10', hourly: true, capacityGb: base, ...sizing };
      await orderByHand(volumes, order, `by-hand-${name}`);
    },
  };
}

const data = volume(
  'block',
  'data',
  (flipped) => ({ tierIopsPerGb: 2, hourlyBilling: true, osFormat: flipped ? 'VMWARE' : 'LINUX' }),
  'another OS format',
);
const share = volume(
  'file',
  'share',
  (flipped) => ({ iops: 1000, hourlyBilling: !flipped }),
  'billed monthly or hourly',
);

/** Captured from one of two hand-made guests; flipped, from the other (a replace). */
const image: Member = {
  kind: 'ImageTemplate',
  name: 'image',
  changes: { inPlace: 'renamed', replace: 'captured from the other guest' },
  writes: [
    ['Virtual_Guest', 'createArchiveTransaction'],
    ['Virtual_Guest_Block_Device_Template_Group', 'editObject'],
    ['Virtual_Guest_Block_Device_Template_Group', 'deleteObject'],
  ],
  resource: ({ changes, flipped }, { sources }) => ({
    kind: 'ImageTemplate',
    properties: { guestId: sources[flipped ? 1 : 0], name: `image-${changes}`, note: 'chaos' },
  }),
  held: async (client) =>
    (await new ImageManager(client).listPrivate()).map((t) => ({
      id: t.id,
      cancelled: false,
      text: text(t.name, t.note, t.status?.keyName),
    })),
  byHand: async (client, { sources }) => {
    const images = new ImageManager(client);
    await images.capture(sources[1], { name: 'image-0', note: 'by hand', additionalDisks: false });
    await until('the hand-made template', async () =>
      (await images.listPrivate()).every((t) => t.status?.keyName === 'ACTIVE'),
    );
  },
};

/**
 * What a sequence makes by hand before its first step: the two guests the image template
 * captures, and each member's look-alike.
 */
export async function handMade(client: Client): Promise<Context> {
  const source = async (hostname: string) => {
    const { id } = (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname, domain: DOMAIN })],
    })) as { id: number };
    return untilIdle(client, id);
  };
  const context: Context = { sources: [await source('source-a'), await source('source-b')] };
  for (const member of POPULATION) await member.byHand(client, context);
  return context;
}

/**
 * What a user does with the leftovers the provider refused in `message` (a killed create's
 * object whose ordered fields the program no longer declares), as the message suggests: cancels
 * each at once through its billing item. Returns what was cancelled (`volume 12`).
 */
export async function cancelRefused(client: Client, message: string): Promise<string[]> {
  const cancelled: string[] = [];
  const kinds = new Map(
    POPULATION.flatMap((m) => (m.leftover ? [[m.leftover.noun, m.leftover.service]] : [])),
  );
  for (const [noun, service] of kinds) {
    const named = new RegExp(`cancel ${noun} (\\d+) if it is not wanted`, 'g');
    for (const id of new Set([...message.matchAll(named)].map((m) => Number(m[1])))) {
      const { billingItem } = (await client.call(service, 'getObject', {
        id,
        mask: 'id,billingItem.id',
      })) as { billingItem?: { id: number } };
      if (billingItem)
        await cancelBillingItem(client, billingItem.id, {
          immediate: true,
          associated: true,
          reason: 'a leftover the provider refused',
        });
      cancelled.push(`${noun} ${id}`);
    }
  }
  return cancelled;
}

/** The population, in the order a sequence's program declares them. */
export const POPULATION: readonly Member[] = [
  vlan,
  host,
  group,
  placement,
  metal,
  data,
  share,
  image,
];

/**
 * The owner program's resources for the members declared, and what the guests add to their
 * spec for them (the security group's binding).
 */
export function declare(
  declared: ReadonlyMap<string, Version>,
  context: Context,
): { resources: Record<string, OwnerResource>; guest: Record<string, unknown> } {
  const resources: Record<string, OwnerResource> = {};
  for (const member of POPULATION) {
    const version = declared.get(member.name);
    if (version) resources[member.name] = member.resource(version, context);
  }
  const web = declared.get(group.name);
  const guest = web && !web.flipped ? { securityGroupIds: [`\${${group.name}.groupId}`] } : {};
  return { resources, guest };
}

/** The invariants' counts a sequence keeps (ChaosResult's). */
export interface Tally {
  duplicates: number;
  orphans: number;
  wrongDeletes: number;
  lostFromState: number;
  deadInState: number;
  sharedIds: number;
  problems: string[];
}

export const noProblems = (): Tally => ({
  duplicates: 0,
  orphans: 0,
  wrongDeletes: 0,
  lostFromState: 0,
  deadInState: 0,
  sharedIds: 0,
  problems: [],
});

/** What the account held of each member's kind before the sequence: seeded and hand-made. */
export type Baseline = ReadonlyMap<string, Held[]>;

export async function baseline(client: Client): Promise<Baseline> {
  const held = new Map<string, Held[]>();
  for (const member of POPULATION) held.set(member.name, await member.held(client));
  return held;
}

/** The stack's: live objects of the kind that were not there before the sequence. */
async function stacks(client: Client, member: Member, before: Baseline): Promise<Held[]> {
  const old = new Set(before.get(member.name)!.map((h) => h.id));
  return (await member.held(client)).filter((h) => !old.has(h.id) && !h.cancelled);
}

/**
 * The invariants for each member's kind once the stack settled, from what the emulator holds:
 * no more live objects than the program declares (a duplicate), each live one in the state (else
 * an orphan, billed), each id once seen in the state and still live still there, each id in the
 * state live, no id twice, and each member declared in the state once.
 */
export async function checkMembers(
  client: Client,
  before: Baseline,
  state: (kind: string) => string[],
  declared: ReadonlyMap<string, Version>,
  seen: ReadonlyMap<string, ReadonlySet<string>>,
  tally: Tally,
): Promise<void> {
  for (const member of POPULATION) {
    const ids = state(member.kind);
    const inState = new Set(ids);
    const live = await stacks(client, member, before);
    const liveIds = new Set(live.map((h) => String(h.id)));
    const excess = live.length - (declared.has(member.name) ? 1 : 0);
    if (excess > 0) {
      tally.duplicates += excess;
      tally.problems.push(
        `duplicate: ${live.length} live ${member.kind} objects for ${member.name}`,
      );
    }
    for (const id of liveIds)
      if (!inState.has(id)) {
        tally.orphans += 1;
        tally.problems.push(`orphan: ${member.kind} ${id} is live and not in the state`);
      }
    for (const id of seen.get(member.kind) ?? [])
      if (!inState.has(id) && liveIds.has(id)) {
        tally.lostFromState += 1;
        tally.problems.push(
          `lost from state: ${member.kind} ${id} is live, no longer in the state`,
        );
      }
    for (const id of inState)
      if (!liveIds.has(id)) {
        tally.deadInState += 1;
        tally.problems.push(`dead in state: ${member.kind} ${id}`);
      }
    tally.sharedIds += ids.length - inState.size;
    // The stack settled: a member declared has its object (else the checks above saw nothing).
    if (declared.has(member.name) && ids.length !== 1)
      tally.problems.push(`${member.kind} ${member.name} is declared; the state has ${ids.length}`);
  }
}

/**
 * After the stack's destroy: nothing of its own left live, and what was there before it (the
 * seeded objects and the look-alikes made by hand) neither changed nor deleted nor cancelled.
 */
export async function checkAfterDestroy(client: Client, before: Baseline, tally: Tally) {
  for (const member of POPULATION) {
    for (const h of await stacks(client, member, before)) {
      tally.orphans += 1;
      tally.problems.push(`${member.kind} ${h.id} of the stack is live after destroy`);
    }
    const now = new Map((await member.held(client)).map((h) => [h.id, h.text]));
    for (const { id, text: was } of before.get(member.name)!) {
      if (now.get(id) === was) continue;
      tally.wrongDeletes += 1;
      tally.problems.push(
        `not the stack's: ${member.kind} ${id} was ${now.has(id) ? `changed (${was} -> ${now.get(id)})` : 'deleted'}`,
      );
    }
  }
}

export type Change = 'add' | 'in-place' | 'replace' | 'remove';
/** A step's change to the members a program declares. */
export interface Mutation {
  member: string;
  change: Change;
}

/**
 * A random mutation of `declared` (member names, updated): a member not declared is added, a
 * declared one changed in place, changed so it is replaced, or removed.
 */
export function mutate(random: () => number, declared: Set<string>): Mutation {
  const member = POPULATION[Math.floor(random() * POPULATION.length)].name;
  if (!declared.has(member)) {
    declared.add(member);
    return { member, change: 'add' };
  }
  const r = random();
  const change: Change = r < 0.45 ? 'in-place' : r < 0.8 ? 'replace' : 'remove';
  if (change === 'remove') declared.delete(member);
  return { member, change };
}

/** The declared members after `m`. */
export function applyMutation(declared: Map<string, Version>, m: Mutation): void {
  const version = declared.get(m.member) ?? { changes: 0, flipped: false };
  if (m.change === 'remove') declared.delete(m.member);
  else if (m.change === 'add') declared.set(m.member, version);
  else if (m.change === 'in-place')
    declared.set(m.member, { ...version, changes: version.changes + 1 });
  else declared.set(m.member, { ...version, flipped: !version.flipped });
}

/** `vlan net: renamed`, for the steps' log. */
export function describeMutation(m: Mutation): string {
  const member = POPULATION.find((p) => p.name === m.member)!;
  const what =
    m.change === 'in-place'
      ? member.changes.inPlace
      : m.change === 'replace'
        ? member.changes.replace
        : m.change === 'add'
          ? 'added'
          : 'removed';
  return `${member.kind} ${member.name} ${m.change === 'in-place' || m.change === 'replace' ? `${m.change}: ${what}` : what}`;
}

/** The writes of the declared members, where their faults may land. */
export const writesOf = (declared: ReadonlySet<string>) =>
  POPULATION.filter((m) => declared.has(m.name)).flatMap((m) => m.writes);

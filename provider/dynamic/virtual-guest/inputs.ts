import { createHash } from 'node:crypto';
import type { CreateInstanceSpec } from '../../managers';
import { Failures, asBoolean, containsUnknown, isKnown, isUnknown } from '../checks';
import type { Catalog } from './catalog';

/** The inputs of a VirtualGuest as stored after `check` (defaults applied, values normalised). */
export interface GuestInputs {
  resourceName: string;
  /** project/stack/name of the resource: the seed of the auto-name. */
  identity: string;
  /** `<organization>/<full URN>`: the seed of the creation token (see provenance.ts). */
  provenance?: string;
  hostname: string;
  domain: string;
  startCpus: number;
  maxMemory: number;
  hourlyBillingFlag: boolean;
  localDiskFlag: boolean;
  operatingSystemReferenceCode: string;
  datacenter: string;
  networkSpeed?: number;
  /** Disk sizes in GB, the boot disk first; they grow in place, never shrink. */
  disks?: number[];
  privateNetworkOnly: boolean;
  tags: string[];
  notes?: string;
  userData?: string;
  sshKeyIds: number[];
  waitForReady: boolean;
  readyTimeoutMinutes: number;
  adoptId?: string;
  /** Tag set atomically on the order, so an unfinished create can be recovered without a second order. */
  creationToken?: string;
}

/** Changing any of these orders a different (billed) guest: the resource is replaced. */
export const REPLACE_FIELDS = [
  'hourlyBillingFlag',
  'localDiskFlag',
  'operatingSystemReferenceCode',
  'datacenter',
  'privateNetworkOnly',
  'userData',
  'sshKeyIds',
  'adoptId',
] as const;

/** Changed in place by one upgrade order (Product_Order with an upgrade container): the size. */
export const UPGRADE_FIELDS = ['startCpus', 'maxMemory', 'networkSpeed', 'disks'] as const;

/** What was ordered: the fields an order fixes (replaced or upgraded when changed). */
export const ORDER_FIELDS = [...REPLACE_FIELDS, ...UPGRADE_FIELDS] as const;

/** Changed in place: `editObject` and `setTags`. */
export const EDIT_FIELDS = ['hostname', 'domain', 'notes', 'tags'] as const;

/** Only change how the provider waits; no API call. */
export const LOCAL_FIELDS = ['waitForReady', 'readyTimeoutMinutes'] as const;

/** Checks that need no API call (types, syntax, ranges, sizes): validate.ts. */
export { TOKEN_TAG_PREFIX, checkShape } from './validate';

const DEFAULT_READY_TIMEOUT_MINUTES = 30;

function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** `<resource name>-<7 hex>`, stable for a resource of a stack (derived, not random, so re-runs agree). */
export function autoHostname(resourceName: string, identity: string): string {
  const base =
    resourceName
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 55) || 'guest';
  return `${base}-${digest('hostname', identity).slice(0, 7)}`;
}

const normaliseTags = (tags: unknown): unknown =>
  Array.isArray(tags)
    ? [...new Set(tags.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : t)))].sort()
    : tags;

/**
 * Key ids as the API lists them: numbers (an `SshKey`'s string id is accepted), each once, in
 * ascending order, so the order they are given in is not a change of the guest.
 */
const normaliseKeyIds = (ids: unknown): unknown => {
  if (!Array.isArray(ids) || containsUnknown(ids)) return ids;
  const numbers = ids.map((id) => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id));
  if (!numbers.every((id) => typeof id === 'number')) return numbers;
  return [...new Set(numbers as number[])].sort((a, b) => a - b);
};

/** Applies defaults and normalises what the platform normalises (tags are lower-cased there). */
export function withDefaults(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...news };
  const name = String(news.resourceName ?? 'guest');
  const identity = String(news.identity ?? name);
  out.hostname = news.hostname ?? olds.hostname ?? autoHostname(name, identity);
  out.hourlyBillingFlag = asBoolean(news.hourlyBillingFlag ?? true);
  out.localDiskFlag = asBoolean(news.localDiskFlag ?? true);
  out.privateNetworkOnly = asBoolean(news.privateNetworkOnly ?? false);
  out.waitForReady = asBoolean(news.waitForReady ?? true);
  out.readyTimeoutMinutes = news.readyTimeoutMinutes ?? DEFAULT_READY_TIMEOUT_MINUTES;
  out.tags = normaliseTags(news.tags ?? []);
  out.sshKeyIds = normaliseKeyIds(news.sshKeyIds ?? []);
  // No user data and empty user data are the same order (the API stores nothing for either).
  if (news.userData === '') delete out.userData;
  if (Number.isSafeInteger(news.adoptId)) out.adoptId = String(news.adoptId);
  delete out.creationToken;
  return out;
}

/** Checks against what the account is offered (getCreateObjectOptions). */
export function checkOffered(
  inputs: Record<string, unknown>,
  catalog: Catalog,
  failures: Failures,
): void {
  const offered = <T>(field: string, allowed: T[], what: string) => {
    const value = inputs[field];
    if (isKnown(value) && !isUnknown(value)) failures.oneOf(field, value as T, allowed, what);
  };
  if (Number.isInteger(inputs.startCpus))
    offered('startCpus', catalog.cpus, 'a CPU count this account is offered');
  if (Number.isInteger(inputs.maxMemory))
    offered('maxMemory', catalog.memory, 'a memory size (MB) this account is offered');
  if (typeof inputs.operatingSystemReferenceCode === 'string') {
    offered('operatingSystemReferenceCode', catalog.os, 'a known operating system code');
  }
  if (typeof inputs.datacenter === 'string')
    offered('datacenter', catalog.datacenters, 'a known datacenter');
  if (Number.isInteger(inputs.networkSpeed))
    offered('networkSpeed', catalog.nicSpeeds, 'an offered network speed (Mbps)');
  const disks = inputs.disks;
  if (Array.isArray(disks) && !failures.has('disks')) {
    if (disks.length > catalog.disks.length) {
      failures.add(
        'disks',
        `disks must have at most ${catalog.disks.length} sizes (the boot disk and ${catalog.disks.length - 1} data disks), got ${disks.length}`,
      );
    }
    disks.slice(0, catalog.disks.length).forEach((gb, i) => {
      if (isKnown(gb) && !isUnknown(gb) && !catalog.disks[i].includes(gb as number)) {
        failures.add(
          'disks',
          `disks[${i}] ${JSON.stringify(gb)} is not a ${i === 0 ? 'boot' : 'data'} disk size (GB) this account is offered; allowed: ${catalog.disks[i].join(', ')}`,
        );
      }
    });
  }
}

export function orderSpec(inputs: GuestInputs, tags: string[]): CreateInstanceSpec {
  return {
    hostname: inputs.hostname,
    domain: inputs.domain,
    cpus: inputs.startCpus,
    memory: inputs.maxMemory,
    hourly: inputs.hourlyBillingFlag,
    localDisk: inputs.localDiskFlag,
    os: inputs.operatingSystemReferenceCode,
    datacenter: inputs.datacenter,
    nicSpeed: inputs.networkSpeed,
    disks: inputs.disks,
    privateNetworkOnly: inputs.privateNetworkOnly,
    userData: inputs.userData,
    sshKeyIds: inputs.sshKeyIds,
    tags,
    notes: inputs.notes,
  };
}

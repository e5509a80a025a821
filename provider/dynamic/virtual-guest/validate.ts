import { isUnknown } from '../unknown';
import { Failures, LIMITS, describeValue, idProblem, quote } from '../validate';

/**
 * The checks of a VirtualGuest's inputs that need no API call: types, syntax, ranges and sizes.
 * They run on the inputs with defaults applied (inputs.ts `withDefaults`), before anything is
 * asked of the API; each wrong field gets one failure naming it, its rule and what was given.
 */

export const TOKEN_TAG_PREFIX = 'pulumi-svc-';

const TAG = /^[a-z0-9][a-z0-9 _.:-]*$/;
const OS_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const DATACENTER = /^[a-z0-9][a-z0-9-]*$/i;

function tagProblem(label: string, tag: unknown): string | undefined {
  if (typeof tag !== 'string') return `${label} must be a string, got ${describeValue(tag)}`;
  if (tag.length === 0 || tag.length > LIMITS.tagLength || !TAG.test(tag)) {
    return `${label} ${quote(tag)} must be 1-${LIMITS.tagLength} letters, digits, spaces or _ . : -`;
  }
  if (tag.startsWith(TOKEN_TAG_PREFIX)) {
    return `${label}: the prefix ${TOKEN_TAG_PREFIX} is reserved for creation tokens`;
  }
  return undefined;
}

export function checkShape(inputs: Record<string, unknown>, failures: Failures): void {
  failures.string('resourceName', inputs.resourceName, { maxLength: 1024 });
  failures.string('identity', inputs.identity, { maxLength: 4096 });
  const hostname = failures.hostname('hostname', inputs.hostname, true);
  const domain = failures.domain('domain', inputs.domain, true);
  if (hostname && domain) {
    const fqdn = `${inputs.hostname}.${inputs.domain}`;
    if (fqdn.length > 253) {
      failures.add(
        'hostname',
        `hostname + domain must be at most 253 characters, got ${fqdn.length}`,
      );
    }
  }
  failures.integer('startCpus', inputs.startCpus, { required: true, min: 1, max: 1024 });
  failures.integer('maxMemory', inputs.maxMemory, {
    required: true,
    min: 1,
    max: 16 * 1024 * 1024,
  });
  failures.string('operatingSystemReferenceCode', inputs.operatingSystemReferenceCode, {
    required: true,
    maxLength: 64,
    pattern: OS_CODE,
    patternRule: 'an operating system code such as UBUNTU_LATEST',
  });
  failures.string('datacenter', inputs.datacenter, {
    required: true,
    maxLength: 32,
    pattern: DATACENTER,
    patternRule: 'a datacenter name such as dal10',
  });
  failures.integer('networkSpeed', inputs.networkSpeed, { min: 1, max: 100_000 });
  failures.items('disks', inputs.disks, {
    what: 'a list of disk sizes in GB (integers), the boot disk first',
    max: 5,
    item: (label, gb) =>
      typeof gb === 'number' && Number.isSafeInteger(gb) && gb >= 1
        ? undefined
        : `${label} must be a disk size in GB (an integer of at least 1), got ${describeValue(gb)}`,
  });
  for (const flag of ['hourlyBillingFlag', 'localDiskFlag', 'privateNetworkOnly', 'waitForReady']) {
    failures.boolean(flag, inputs[flag]);
  }
  failures.number('readyTimeoutMinutes', inputs.readyTimeoutMinutes, { min: 0.01, max: 24 * 60 });
  failures.string('notes', inputs.notes, { maxLength: LIMITS.notes });
  failures.string('userData', inputs.userData, { maxLength: LIMITS.userData });
  failures.items('tags', inputs.tags, {
    what: 'a list of strings',
    max: LIMITS.tags,
    item: tagProblem,
  });
  failures.items('sshKeyIds', inputs.sshKeyIds, {
    what: 'a list of SSH key ids (integers)',
    max: LIMITS.sshKeyIds,
    item: idProblem,
  });
  const adoptId = inputs.adoptId;
  if (adoptId !== undefined && adoptId !== null && !isUnknown(adoptId)) {
    const digits = typeof adoptId === 'string' && /^[1-9][0-9]{0,15}$/.test(adoptId);
    if (!digits || !Number.isSafeInteger(Number(adoptId))) {
      failures.wrong('adoptId', 'the numeric id of an existing guest', adoptId);
    }
  }
}

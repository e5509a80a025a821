import { isUnknown } from '../../framework/unknown';
import { Failures, LIMITS, describeValue, quote } from '../../framework/failures';
import { TOKEN_TAG_PREFIX } from '../../framework/creation-token';

/**
 * The VirtualGuest rules of its field table (fields.ts) that are more than a type and a range,
 * and the one check across fields (the fully qualified name's length). They need no API call.
 */

const TAG = /^[a-z0-9][a-z0-9 _.:-]*$/;
export const OS_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** An image template's global identifier (a GUID, as the API writes it). */
export const IMAGE_ID = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
export const DATACENTER = /^[a-z0-9][a-z0-9-]*$/i;
/** A flavor's key name: `B1_2X8X25`. */
export const FLAVOR = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function tagProblem(label: string, tag: unknown): string | undefined {
  if (typeof tag !== 'string') return `${label} must be a string, got ${describeValue(tag)}`;
  if (tag.length === 0 || tag.length > LIMITS.tagLength || !TAG.test(tag)) {
    return `${label} ${quote(tag)} must be 1-${LIMITS.tagLength} letters, digits, spaces or _ . : -`;
  }
  if (tag.startsWith(TOKEN_TAG_PREFIX)) {
    return `${label}: the prefix ${TOKEN_TAG_PREFIX} is reserved for creation tokens`;
  }
  return undefined;
}

export const diskProblem = (label: string, gb: unknown): string | undefined =>
  typeof gb === 'number' && Number.isSafeInteger(gb) && gb >= 1
    ? undefined
    : `${label} must be a disk size in GB (an integer of at least 1), got ${describeValue(gb)}`;

export function checkAdoptId(failures: Failures, name: string, adoptId: unknown): void {
  if (adoptId === undefined || adoptId === null || isUnknown(adoptId)) return;
  const digits = typeof adoptId === 'string' && /^[1-9][0-9]{0,15}$/.test(adoptId);
  if (!digits || !Number.isSafeInteger(Number(adoptId))) {
    failures.wrong(name, 'the numeric id of an existing guest', adoptId);
  }
}

/** After the fields' own rules: hostname + domain fit a fully qualified name. */
export function checkFqdn(inputs: Record<string, unknown>, failures: Failures): void {
  const { hostname, domain } = inputs;
  if (failures.has('hostname') || failures.has('domain')) return;
  if (typeof hostname !== 'string' || typeof domain !== 'string') return;
  if (!hostname || !domain || isUnknown(hostname) || isUnknown(domain)) return;
  const fqdn = `${hostname}.${domain}`;
  if (fqdn.length > 253) {
    failures.add(
      'hostname',
      `hostname + domain must be at most 253 characters, got ${fqdn.length}`,
    );
  }
}

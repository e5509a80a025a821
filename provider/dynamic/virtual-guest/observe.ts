import { diskSizes, guestStatus, tagNames, type VirtualGuest } from '../../managers';
import type { Price } from './pricing';
import type { GuestInputs } from './inputs';
import { isProviderTag } from './provenance';

/** Computed outputs of a VirtualGuest, besides the inputs it echoes. */
export interface GuestOutputs {
  guestId: number;
  fullyQualifiedDomainName: string;
  primaryIpAddress: string | null;
  primaryBackendIpAddress: string | null;
  provisionDate: string | null;
  powerState: string | null;
  globalIdentifier: string | null;
  status: string;
  estimatedHourlyCost: number;
  estimatedMonthlyCost: number;
}

/** `UBUNTU_LATEST` is satisfied by whatever concrete Ubuntu the platform installed. */
function sameOs(declared: string | undefined, actual: string | undefined): boolean {
  if (!declared || !actual || declared === actual) return true;
  return declared.endsWith('_LATEST') && actual.startsWith(declared.slice(0, -'LATEST'.length));
}

/**
 * User data is sent and compared exactly as declared: never decoded (base64-looking text stays
 * text) nor re-encoded. Only line endings and trailing newlines, which a server may normalise on
 * storage, are not counted as a change when reading it back.
 */
function sameUserData(declared: string | undefined, actual: string | undefined): boolean {
  const canonical = (text: string | undefined) =>
    (text ?? '').replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return canonical(declared) === canonical(actual);
}

export function userTags(guest: VirtualGuest): string[] {
  return tagNames(guest)
    .filter((tag) => !isProviderTag(tag))
    .sort();
}

/**
 * The input fields as the API reports them now, so `refresh` notices drift. Where the API's form
 * differs without meaning a change (an `_LATEST` OS code), the declared value is kept, so a
 * refresh does not invent a diff.
 */
export function observedInputs(guest: VirtualGuest, declared: GuestInputs): GuestInputs {
  const observed: GuestInputs = {
    ...declared,
    hostname: guest.hostname,
    domain: guest.domain,
    startCpus: guest.startCpus ?? guest.maxCpu ?? declared.startCpus,
    maxMemory: guest.maxMemory ?? declared.maxMemory,
    hourlyBillingFlag: guest.hourlyBillingFlag ?? declared.hourlyBillingFlag,
    localDiskFlag: guest.localDiskFlag ?? declared.localDiskFlag,
    privateNetworkOnly: guest.privateNetworkOnlyFlag ?? declared.privateNetworkOnly,
    datacenter: guest.datacenter?.name ?? declared.datacenter,
    tags: userTags(guest),
    notes: guest.notes || undefined,
  };
  if (!sameOs(declared.operatingSystemReferenceCode, guest.operatingSystemReferenceCode)) {
    observed.operatingSystemReferenceCode = guest.operatingSystemReferenceCode!;
  }
  const speed = guest.networkComponents?.[0]?.maxSpeed;
  if (declared.networkSpeed !== undefined && speed !== undefined) observed.networkSpeed = speed;
  if (declared.disks !== undefined && guest.blockDevices) observed.disks = diskSizes(guest);
  if (guest.userData) {
    const actual = guest.userData[0]?.value || undefined;
    observed.userData = sameUserData(declared.userData, actual) ? declared.userData : actual;
  }
  if (guest.sshKeys) observed.sshKeyIds = guest.sshKeys.map((key) => key.id).sort((a, b) => a - b);
  return observed;
}

/** The outputs the API computes; `price` is what the guest is billed (pricing.ts). */
export function computedOutputs(guest: VirtualGuest, price: Price): GuestOutputs {
  return {
    guestId: guest.id,
    fullyQualifiedDomainName: guest.fullyQualifiedDomainName ?? `${guest.hostname}.${guest.domain}`,
    primaryIpAddress: guest.primaryIpAddress ?? null,
    primaryBackendIpAddress: guest.primaryBackendIpAddress ?? null,
    provisionDate: guest.provisionDate ?? null,
    powerState: guest.powerState?.keyName ?? null,
    globalIdentifier: guest.globalIdentifier ?? null,
    status: guestStatus(guest),
    estimatedHourlyCost: price.hourly,
    estimatedMonthlyCost: price.monthly,
  };
}

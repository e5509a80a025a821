import {
  ORDER_DEFAULTS,
  TEMPLATE_PARTS as part,
  diskSizes,
  guestStatus,
  type UpgradeSpec,
  type VirtualGuest,
} from '../../managers';
import { asBoolean } from '../../framework/compare';
import { UNSET, valueType, types, readFrom, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import { LIMITS, idProblem } from '../../framework/failures';
import { boundGroupIds, sameOs, sameUserData, userTags } from './api-forms';
import { autoHostname, idAsNumber, idAsString, normaliseKeyIds, normaliseTags } from './normalise';
import { DATACENTERS_RULE, DATACENTER_RULE } from './placement';
import { FLAVOR, IMAGE_ID, OS_CODE, checkAdoptId, diskProblem, tagProblem } from './rules';

/**
 * Every field of a VirtualGuest, once: the program's arguments and the resource's outputs, the
 * inputs `check` stores (defaults applied), what a change does (`diff`: replace, update in place
 * through `editObject`/`setTags`, upgrade in place through one upgrade order), how each goes
 * into the order's template, and the README's reference table.
 */

const flag = { type: types.boolean, rule: rules.flag(), normalise: asBoolean } as const;

/** What `onImageChange` takes. */
const IMAGE_CHANGES = ['replace', 'reload'] as const;

/**
 * What a guest's field states beyond the framework's `Field`: how it goes into the order, what
 * the order is priced by, and how a change is made to the running guest.
 */
export interface GuestField {
  /** How the field goes into the create order's template: under its own name, or as a part. */
  order?: true | ((value: never) => Record<string, unknown>);
  /** Part of the price of what is ordered. */
  priced?: true;
  /** The upgrade order's name of a field changed by `upgrade`, and whether that reboots. */
  upgradeAs?: keyof UpgradeSpec;
  reboots?: true;
  /** A `replace` field that `onImageChange: reload` changes in place, by an OS reload. */
  reloads?: true;
}

/** Whose price an estimate is: the account's own quote, or a list price and why. */
export type PriceSource = 'account' | `list: ${string}`;

/** Where a field lives on the `Virtual_Guest` object. */
const onGuest = readFrom<VirtualGuest>();

/**
 * The id of another object of the account the guest is ordered with (a placement group, a VLAN):
 * an integer, given as a number or its digits (another resource's id), fixed by the order.
 */
const ANOTHER_OBJECT = {
  type: types.integer,
  arg: valueType<number | string>('id'),
  input: 'optional',
  output: true,
  normalise: idAsNumber,
  rule: rules.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  change: 'replace',
} as const;

/**
 * The VLAN or subnet one of the guest's interfaces is ordered on (vlans.ts): an id, given in the
 * order, read back from the interface (left out, whatever the API chose is no drift).
 */
function networkOf(
  nic: 'primaryNetworkComponent' | 'primaryBackendNetworkComponent',
  what: 'vlan' | 'subnet',
  order: (id: number) => Record<string, unknown>,
) {
  return {
    ...ANOTHER_OBJECT,
    order,
    reason: `a guest stays on the ${what === 'vlan' ? 'VLANs' : 'subnets'} it was ordered on`,
    // A guest read without its interfaces says nothing; a private-only guest has no public one.
    read: onGuest(
      what === 'vlan' ? `${nic}.networkVlan.id` : `${nic}.primarySubnet.id`,
      (g) => {
        if (g.primaryBackendNetworkComponent === undefined) return undefined;
        const component = g[nic];
        const id = what === 'vlan' ? component?.networkVlan?.id : component?.primarySubnet?.id;
        return id ?? UNSET;
      },
      { unsetFollowsApi: true },
    ),
  } as const;
}

/**
 * A list of security group ids bound to one of the guest's interfaces: ordered with the guest,
 * changed in place (security-groups.ts), read back from the bindings in force on the interface.
 */
function securityGroupsOf(
  nic: 'primaryNetworkComponent' | 'primaryBackendNetworkComponent',
  order: (ids: number[]) => Record<string, unknown>,
) {
  return {
    type: types.list(types.integer),
    arg: types.list(valueType<number | string>('id')),
    input: 'optional',
    output: true,
    default: [] as number[],
    normalise: normaliseKeyIds,
    rule: rules.list({
      what: 'a list of security group ids (integers)',
      max: LIMITS.securityGroupsPerInterface,
      item: idProblem,
      text: `at most ${LIMITS.securityGroupsPerInterface} integer ids`,
    }),
    order,
    change: 'update',
    how: '`attachNetworkComponents` / `detachNetworkComponents`, waited for',
    // A guest read without its interfaces says nothing; a private-only guest has no public one.
    read: onGuest(`${nic}.id,${nic}.securityGroupBindings.securityGroupId`, (g) =>
      g.primaryBackendNetworkComponent === undefined ? undefined : boundGroupIds(g[nic]),
    ),
  } as const;
}

export const GUEST_FIELDS = {
  /** The Pulumi resource name (set by the resource class). */
  resourceName: {
    type: types.string,
    input: 'required',
    internal: true,
    rule: rules.text({ maxLength: 1024 }),
  },
  /** project/stack/name of the resource: the seed of the auto-name. */
  identity: {
    type: types.string,
    input: 'required',
    internal: true,
    rule: rules.text({ maxLength: 4096 }),
  },
  /** `<organization>/<full URN>`: the seed of the creation token (see provenance.ts). */
  provenance: {
    type: types.string,
    input: 'optional',
    internal: true,
  },
  /** Host name; defaults to the resource name plus a suffix that is stable for this stack. */
  hostname: {
    type: types.string,
    input: 'optional',
    output: true,
    defaultFrom: (news, olds) =>
      olds.hostname ??
      autoHostname(
        String(news.resourceName ?? 'guest'),
        String(news.identity ?? news.resourceName ?? 'guest'),
      ),
    defaultText: '`<resource name>-<7 hex>`, stable for the stack',
    rule: rules.hostname(true),
    order: true,
    change: 'update',
    how: '`editObject`',
    read: onGuest('hostname', (g) => g.hostname),
  },
  /** Domain of the guest, e.g. `example.com`. */
  domain: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.domain(true),
    order: true,
    change: 'update',
    how: '`editObject`',
    read: onGuest('domain', (g) => g.domain),
  },
  /**
   * CPU count, one the account is offered; a change upgrades the guest in place (it reboots).
   * Required unless `flavorKeyName` is given; with a flavor it is an output, the flavor's.
   */
  startCpus: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1, max: 1024 }),
    order: true,
    priced: true,
    change: 'upgrade',
    upgradeAs: 'cpus',
    reboots: true,
    how: 'upgrade order (`guest_core`), reboots',
    read: onGuest('startCpus,maxCpu', (g) => g.startCpus ?? g.maxCpu, { unsetFollowsApi: true }),
    outputWith: 'flavorKeyName',
  },
  /**
   * Memory in MB, one of the sizes the account is offered; a change upgrades in place (it reboots).
   * Required unless `flavorKeyName` is given; with a flavor it is an output, the flavor's.
   */
  maxMemory: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1, max: 16 * 1024 * 1024 }),
    order: true,
    priced: true,
    change: 'upgrade',
    upgradeAs: 'memory',
    reboots: true,
    how: 'upgrade order (`ram`), reboots',
    read: onGuest('maxMemory', (g) => g.maxMemory, { unsetFollowsApi: true }),
    outputWith: 'flavorKeyName',
  },
  /**
   * A flavor (the API's preset size, e.g. `B1_2X8X25`: 2 cores, 8 GB, a 25 GB boot disk; families
   * B1 balanced, C1 compute, M1 memory), one the account is offered, instead of `startCpus` and
   * `maxMemory`. A change to another flavor upgrades the guest in place (it reboots); its boot disk
   * only grows.
   */
  flavorKeyName: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.text({
      maxLength: 64,
      pattern: FLAVOR,
      patternRule: 'a flavor key name such as B1_2X8X25',
    }),
    order: part.flavorKeyName,
    priced: true,
    change: 'upgrade',
    upgradeAs: 'flavor',
    reboots: true,
    how: "upgrade order (the flavor's `presetId`), reboots",
    // Left out, the guest is sized by startCpus and maxMemory: a flavor the API shows is no drift.
    read: onGuest(
      'billingItem.orderItem.preset.keyName',
      (g) =>
        g.billingItem === undefined
          ? undefined
          : (g.billingItem?.orderItem?.preset?.keyName ?? UNSET),
      { unsetFollowsApi: true },
    ),
  },
  /** Hourly billing; false orders a monthly guest. Changing it replaces the guest. */
  hourlyBillingFlag: {
    ...flag,
    input: 'optional',
    output: true,
    default: ORDER_DEFAULTS.hourlyBillingFlag as boolean,
    order: true,
    priced: true,
    change: 'replace',
    read: onGuest('hourlyBillingFlag', (g) => g.hourlyBillingFlag),
  },
  /**
   * A transient guest: cheaper, billed hourly only (not with `hourlyBillingFlag: false`), never on
   * a dedicated host, and the API may reclaim it at any time. A reclaimed guest is gone: `pulumi
   * refresh` drops it from the state, and the next `pulumi up` orders a new one (its preview's
   * BILLING line says so). Changing it replaces the guest.
   */
  transientGuestFlag: {
    ...flag,
    input: 'optional',
    output: true,
    default: false,
    order: part.transientGuestFlag,
    priced: true,
    change: 'replace',
    reason: 'a guest is transient or not from its order',
    read: onGuest('transientGuestFlag', (g) => g.transientGuestFlag ?? false),
  },
  /** Local disk, or SAN (false). */
  localDiskFlag: {
    ...flag,
    input: 'optional',
    output: true,
    default: ORDER_DEFAULTS.localDiskFlag as boolean,
    order: true,
    priced: true,
    change: 'replace',
    read: onGuest('localDiskFlag', (g) => g.localDiskFlag),
  },
  /**
   * e.g. UBUNTU_LATEST, DEBIAN_12_64; one the account is offered. Give this or `imageTemplateId`.
   * As an output: the operating system the guest runs (with `imageTemplateId`, the template's).
   */
  operatingSystemReferenceCode: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.text({
      maxLength: 64,
      pattern: OS_CODE,
      patternRule: 'an operating system code such as UBUNTU_LATEST',
    }),
    order: true,
    priced: true,
    change: 'replace',
    reloads: true,
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem`)',
    read: onGuest('operatingSystemReferenceCode', (g) => g.operatingSystemReferenceCode, {
      same: sameOs,
      // Left out, the guest is made from `imageTemplateId` and runs the template's OS.
      unsetFollowsApi: true,
    }),
    outputWith: 'imageTemplateId',
  },
  /**
   * The global identifier of an image template to make the guest from (an `ImageTemplate`'s
   * `globalIdentifier`, the account's own or a public one), instead of
   * `operatingSystemReferenceCode`: the guest runs the template's operating system and disk. It
   * must be available in the guest's datacenter. Changing it replaces the guest, or, with
   * `onImageChange: reload`, reinstalls this guest from the new template in place (as a change of
   * the OS code does; a reload also goes from a template to an OS code and back).
   */
  imageTemplateId: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.text({
      maxLength: 64,
      pattern: IMAGE_ID,
      patternRule: "an image template's global identifier",
    }),
    order: part.imageTemplateId,
    priced: true,
    change: 'replace',
    reloads: true,
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem` from the template)',
    read: onGuest('blockDeviceTemplateGroup.globalIdentifier', (g) =>
      g.blockDeviceTemplateGroup === undefined
        ? undefined
        : (g.blockDeviceTemplateGroup?.globalIdentifier ?? UNSET),
    ),
  },
  /**
   * e.g. dal10; one the account is offered. Give this or `datacenters`. As an output: where the
   * guest is (with `datacenters`, the datacenter whose order succeeded).
   */
  datacenter: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: DATACENTER_RULE,
    order: part.datacenter,
    priced: true,
    change: 'replace',
    how: 'unless the guest is in one of the new `datacenters`',
    // Left unset, `datacenters` says where to order and this output says where the guest went.
    read: onGuest('datacenter.name', (g) => g.datacenter?.name, { unsetFollowsApi: true }),
    outputWith: 'datacenters',
  },
  /**
   * Datacenters to order the guest in, in order of preference, instead of `datacenter`: when the
   * API answers that one has no room, the next is tried, with the same creation token (one guest
   * at most). The preview prices the first. A change replaces the guest only when it is in none
   * of the new datacenters; otherwise the new list is recorded and nothing is ordered.
   */
  datacenters: {
    type: types.list(types.string),
    input: 'optional',
    output: true,
    rule: DATACENTERS_RULE,
    priced: true,
    change: 'replace',
    how: 'only when the guest is in none of them',
  },
  /** Network port speed in Mbps, one the account is offered; a change upgrades in place. */
  networkSpeed: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1, max: 100_000 }),
    order: part.networkSpeed,
    priced: true,
    change: 'upgrade',
    upgradeAs: 'nicSpeed',
    how: 'upgrade order (`port_speed`)',
    read: onGuest('networkComponents.maxSpeed', (g) => g.networkComponents?.[0]?.maxSpeed, {
      unsetFollowsApi: true,
    }),
  },
  /**
   * Disk sizes in GB, the boot disk first, then up to four data disks. Disks grow and are added in
   * place; shrinking or removing one is refused in check.
   */
  disks: {
    type: types.list(types.integer),
    input: 'optional',
    output: true,
    rule: rules.list({
      what: 'a list of disk sizes in GB (integers), the boot disk first',
      max: 5,
      item: diskProblem,
      text: 'sizes (GB) the account offers per disk',
    }),
    order: part.disks,
    priced: true,
    change: 'upgrade',
    upgradeAs: 'disks',
    how: 'upgrade order (`guest_disk<n>`); grow or add only',
    defaultText: "the API's 25 GB boot disk",
    read: onGuest(
      'blockDevices.device,blockDevices.diskImage.capacity',
      (g) => (g.blockDevices ? diskSizes(g) : undefined),
      { unsetFollowsApi: true },
    ),
  },
  /** Only a private (backend) network interface. */
  privateNetworkOnly: {
    ...flag,
    input: 'optional',
    output: true,
    default: false,
    order: part.privateNetworkOnly,
    priced: true,
    change: 'replace',
    read: onGuest('privateNetworkOnlyFlag', (g) => g.privateNetworkOnlyFlag),
  },
  /**
   * The placement group to order the guest into (its rule, e.g. SPREAD, keeps the group's guests
   * on different hosts); its backend router must be in the guest's datacenter, and it must have
   * room. Changing it replaces the guest (a guest joins a group only when it is ordered).
   */
  placementGroupId: {
    ...ANOTHER_OBJECT,
    order: true,
    reason: 'a guest joins a placement group only when it is ordered',
    read: onGuest('placementGroupId', (g) => g.placementGroupId ?? UNSET),
  },
  /**
   * The dedicated host to order the guest onto (a `DedicatedHost`'s `hostId`): one of the
   * account's, in the guest's datacenter, with the guest's cores, memory and disk free on it. The
   * guest is priced as the API quotes an order on that host. Changing it replaces the guest (a
   * guest is placed on a host only when it is ordered). Not with `dedicatedAccountHostOnlyFlag`.
   */
  dedicatedHostId: {
    ...ANOTHER_OBJECT,
    order: part.dedicatedHostId,
    reason: 'a guest is placed on a dedicated host only when it is ordered',
    read: onGuest('dedicatedHost.id', (g) => g.dedicatedHost?.id ?? UNSET),
  },
  /**
   * Order the guest onto a host that runs only this account's guests (the API chooses the host),
   * priced as the API quotes such an order. Changing it replaces the guest. Not with
   * `dedicatedHostId`, which names the host.
   */
  dedicatedAccountHostOnlyFlag: {
    ...flag,
    input: 'optional',
    output: true,
    default: false,
    order: part.dedicatedAccountHostOnlyFlag,
    priced: true,
    change: 'replace',
    reason: 'a guest is placed on a host only when it is ordered',
    // A guest on a named host shows the flag too: there, `dedicatedHostId` says it.
    read: onGuest('dedicatedAccountHostOnlyFlag,dedicatedHost.id', (g) =>
      g.dedicatedHost?.id === undefined ? g.dedicatedAccountHostOnlyFlag : false,
    ),
  },
  /**
   * The public VLAN to order the guest on, one of the account's in the guest's datacenter (left
   * out: the API chooses; the output is the VLAN it is on). Not with `privateNetworkOnly`.
   * Changing it replaces the guest.
   */
  publicVlanId: networkOf('primaryNetworkComponent', 'vlan', part.publicVlanId),
  /**
   * The private VLAN to order the guest on, one of the account's in the guest's datacenter (left
   * out: the API chooses; the output is the VLAN it is on). Changing it replaces the guest.
   */
  privateVlanId: networkOf('primaryBackendNetworkComponent', 'vlan', part.privateVlanId),
  /**
   * The subnet of `publicVlanId` the guest's public address comes from (left out: the API
   * chooses). Changing it replaces the guest.
   */
  publicSubnetId: networkOf('primaryNetworkComponent', 'subnet', part.publicSubnetId),
  /**
   * The subnet of `privateVlanId` the guest's private address comes from (left out: the API
   * chooses). Changing it replaces the guest.
   */
  privateSubnetId: networkOf('primaryBackendNetworkComponent', 'subnet', part.privateSubnetId),
  /**
   * Ids of security groups (each a `SecurityGroup`'s `groupId`) bound to the guest's public
   * interface; output ascending. Given at the order; a change attaches and detaches them in place
   * and waits until the API has applied it. Not with `privateNetworkOnly` (no public interface).
   */
  securityGroupIds: securityGroupsOf('primaryNetworkComponent', part.securityGroupIds),
  /**
   * Ids of security groups bound to the guest's private interface; output ascending. Given at the
   * order; a change attaches and detaches them in place.
   */
  privateSecurityGroupIds: securityGroupsOf(
    'primaryBackendNetworkComponent',
    part.privateSecurityGroupIds,
  ),
  /**
   * Tags, compared the way the API stores them: trimmed, lower-cased, each once, in sorted order
   * (`['Web', ' db ']` is stored and shown as `['db', 'web']`).
   */
  tags: {
    type: types.list(types.string),
    input: 'optional',
    output: true,
    default: [],
    normalise: normaliseTags,
    rule: rules.list({
      what: 'a list of strings',
      max: LIMITS.tags,
      item: tagProblem,
      text: `each 1-${LIMITS.tagLength} letters, digits, spaces, \`_.:-\``,
    }),
    order: part.tags,
    change: 'update',
    how: '`setTags`',
    read: onGuest('tagReferences.tag.name', userTags),
  },
  /** Free text kept with the guest. */
  notes: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.text({ maxLength: LIMITS.notes }),
    order: part.notes,
    change: 'update',
    how: '`editObject`',
    read: onGuest('notes', (g) => g.notes || UNSET),
  },
  /** User data for cloud-init, sent and compared exactly as given (never decoded or re-encoded). */
  userData: {
    type: types.string,
    input: 'optional',
    output: true,
    // No user data and empty user data are the same order (the API stores nothing for either).
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: LIMITS.userData }),
    order: part.userData,
    change: 'replace',
    reloads: true,
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem`)',
    reason:
      'cloud-init runs user data only on the first boot, so only a new guest (or one reloaded with `onImageChange: reload`) gets the new user data',
    read: onGuest(
      'userData.value',
      (g) => (g.userData ? g.userData[0]?.value || UNSET : undefined),
      {
        same: sameUserData,
      },
    ),
  },
  /** Ids of SSH keys to install (each an `SshKey`'s `keyId`); output ascending. */
  sshKeyIds: {
    type: types.list(types.integer),
    arg: types.list(valueType<number | string>('id')),
    input: 'optional',
    output: true,
    default: [],
    normalise: normaliseKeyIds,
    rule: rules.list({
      what: 'a list of SSH key ids (integers)',
      max: LIMITS.sshKeyIds,
      item: idProblem,
      text: 'integer ids',
    }),
    order: part.sshKeyIds,
    change: 'replace',
    reloads: true,
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem`)',
    reason:
      'SSH keys are installed only when a guest is provisioned (or reloaded with `onImageChange: reload`)',
    read: onGuest('sshKeys.id', (g) => g.sshKeys?.map((key) => key.id).sort((a, b) => a - b)),
  },
  /**
   * What a change of `operatingSystemReferenceCode`, `imageTemplateId`, `userData` or `sshKeyIds` does: `replace`
   * orders a new guest (new id, addresses and bill; the old one is cancelled once the new one is
   * ready), `reload` reinstalls this guest in place (same id, addresses and bill; its primary disk
   * is erased and it is down while it reloads).
   */
  onImageChange: {
    type: types.string,
    input: 'optional',
    output: true,
    // Not stored when left out, so a stack made before this input existed shows no change.
    defaultText: '`replace`',
    rule: rules.custom((failures, name, value) => {
      if (value !== undefined && failures.string(name, value))
        failures.oneOf(name, value as string, IMAGE_CHANGES, 'replace or reload');
    }, '`replace` or `reload`'),
    oneOf: {
      name: 'ImageChange',
      values: IMAGE_CHANGES,
      meanings: {
        replace:
          'Order a new guest (new id, addresses and bill); the old one is cancelled once the new one is ready.',
        reload:
          'Reinstall this guest in place (same id, addresses and bill); its primary disk is erased.',
      },
    },
    change: 'local',
  },
  /** Wait until the guest is provisioned and has its addresses. */
  waitForReady: {
    ...flag,
    input: 'optional',
    default: true,
    change: 'local',
  },
  /**
   * On delete, wait until the API has reclaimed the cancelled guest and it is gone (minutes after
   * the cancel), instead of returning once the cancel is accepted and the billing stops. Off by
   * default: the reclaim bills nothing, and a later `up` never adopts a guest still reclaiming.
   * Turn it on when something after the destroy needs the guest gone (its addresses or hostname
   * freed, an account's guest count).
   */
  waitForReclaim: {
    ...flag,
    input: 'optional',
    default: false,
    change: 'local',
  },
  /** How long to wait for readiness, in minutes (fractions allowed). */
  readyTimeoutMinutes: {
    type: types.number,
    input: 'optional',
    default: 30,
    rule: rules.number({ min: 0.01, max: 24 * 60 }),
    change: 'local',
  },
  /**
   * Take over the account's existing guest with this id instead of ordering one: no new order,
   * the stack owns that guest from then on.
   */
  adoptId: {
    type: types.string,
    arg: types.id,
    input: 'optional',
    normalise: idAsString,
    rule: rules.custom(checkAdoptId, 'the numeric id of an existing guest'),
    change: 'replace',
  },
  /**
   * Tag set atomically on the order, so an unfinished create can be recovered without a second
   * order.
   */
  creationToken: {
    type: types.string,
    input: 'optional',
    internal: true,
    // Computed by check, never taken from the program; an update keeps the one it was ordered with.
    normalise: () => undefined,
    keep: true,
  },
  /**
   * The existing guest this resource's create takes over instead of ordering one (`adoptId`'s,
   * or the guest an earlier unfinished create of it ordered); its cost is then that guest's bill.
   */
  adopts: {
    type: types.integer,
    input: 'optional',
    internal: true,
    // Found by check, never taken from the program.
    normalise: () => undefined,
  },
  /** The numeric id (the resource id is the same number as a string). */
  guestId: {
    type: types.integer,
    output: true,
    read: onGuest('id', (g) => g.id),
  },
  /** The transaction of the guest's last OS reload (null: never reloaded). */
  osReloadId: {
    type: types.nullable(types.integer),
    output: true,
    read: onGuest('lastOperatingSystemReload.id', (g) => g.lastOperatingSystemReload?.id ?? null),
  },
  /** `<hostname>.<domain>`. */
  fullyQualifiedDomainName: {
    type: types.string,
    output: true,
    read: onGuest(
      'fullyQualifiedDomainName,hostname,domain',
      (g) => g.fullyQualifiedDomainName ?? `${g.hostname}.${g.domain}`,
    ),
  },
  /** Public address, once assigned. */
  primaryIpAddress: {
    type: types.nullable(types.string),
    output: true,
    read: onGuest('primaryIpAddress', (g) => g.primaryIpAddress ?? null),
  },
  /** Private address, once assigned. */
  primaryBackendIpAddress: {
    type: types.nullable(types.string),
    output: true,
    read: onGuest('primaryBackendIpAddress', (g) => g.primaryBackendIpAddress ?? null),
  },
  /** When provisioning finished. */
  provisionDate: {
    type: types.nullable(types.string),
    output: true,
    read: onGuest('provisionDate', (g) => g.provisionDate ?? null),
  },
  /** e.g. `RUNNING`. */
  powerState: {
    type: types.nullable(types.string),
    output: true,
    read: onGuest('powerState.keyName', (g) => g.powerState?.keyName ?? null),
  },
  /** The guest’s GUID. */
  globalIdentifier: {
    type: types.nullable(types.string),
    output: true,
    read: onGuest('globalIdentifier', (g) => g.globalIdentifier ?? null),
  },
  /** Provisioning or transaction status. */
  status: {
    type: types.string,
    output: true,
    read: onGuest(
      'provisionDate,activeTransaction.transactionStatus.name,activeTransaction.transactionStatus.friendlyName',
      guestStatus,
    ),
  },
  /**
   * What the guest is billed (its billing item; before the order, the API’s price of the order);
   * for monthly guests the monthly fee / 730.
   */
  estimatedHourlyCost: {
    type: types.number,
    output: true,
    fromCheck: true,
  },
  /** What the guest is billed a month. */
  estimatedMonthlyCost: {
    type: types.number,
    output: true,
    fromCheck: true,
  },
  /**
   * Whose price the estimated costs are: `account`, this account's own (the API's quote of the
   * order, negotiated discounts included, or what the billing item bills); `list: <reason>`, the
   * list price, because the API did not quote the account's.
   */
  estimatedCostSource: {
    type: valueType<PriceSource>('string'),
    output: true,
    fromCheck: true,
  },
} satisfies Fields<GuestField>;

export type GuestFields = typeof GUEST_FIELDS;

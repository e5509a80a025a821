import { hardwareStatus, type BareMetalServer } from '../../managers';
import { UNSET, types, readFrom, valueType, type Fields } from '../../framework/fields';
import { TAKEOVER_FIELDS, TOKEN_FIELDS, rules } from '../../framework/field-rules';
import { LIMITS, idProblem } from '../../framework/failures';
import { sameOs, sameUserData, userTags } from '../virtual-guest/api-forms';
import { normaliseKeyIds, normaliseTags } from '../virtual-guest/normalise';
import { OS_CODE, tagProblem } from '../virtual-guest/rules';

/**
 * Every field of a BareMetalServer, once: what the order fixes (a change replaces the server,
 * priced in the preview), what changes in place (`editObject`, `setTags`, an OS reload with
 * `onImageChange: reload`), where each is read back on the `Hardware_Server` object.
 */

const onServer = readFrom<BareMetalServer>();

/** The slower of the server's uplinks (Mbps), when the API shows them. */
function uplinkSpeed(s: BareMetalServer): number | undefined {
  const speeds = [s.primaryNetworkComponent, s.primaryBackendNetworkComponent]
    .map((uplink) => uplink?.speed)
    .filter((speed): speed is number => speed !== undefined);
  return speeds.length > 0 ? Math.min(...speeds) : undefined;
}

/** What `onImageChange` takes. */
const IMAGE_CHANGES = ['replace', 'reload'] as const;

/** A VLAN of the account for one uplink: read back from the server, followed when left out. */
const vlanField = (space: 'PUBLIC' | 'PRIVATE', what: string) => ({
  type: types.integer,
  input: 'optional' as const,
  output: true as const,
  rule: rules.integer({ min: 1 }),
  change: 'replace' as const,
  read: onServer(
    'networkVlans.id,networkVlans.networkSpace',
    (s) => s.networkVlans?.find((v) => v.networkSpace === space)?.id,
    { unsetFollowsApi: true },
  ),
  what,
});

export const BARE_METAL_FIELDS = {
  ...TOKEN_FIELDS,
  ...TAKEOVER_FIELDS,
  /** Host name of the server. */
  hostname: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.hostname(true),
    change: 'update',
    how: '`editObject`',
    read: onServer('hostname', (s) => s.hostname),
  },
  /** Domain of the server, e.g. `example.com`. */
  domain: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.domain(true),
    change: 'update',
    how: '`editObject`',
    read: onServer('domain', (s) => s.domain),
  },
  /**
   * The configuration: a preset of the bare-metal package by its key name (`getActivePresets`),
   * e.g. `S1270_32GB_1X1TBSATA_NORAID`; some are billed monthly only. A change replaces the server.
   */
  preset: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({
      required: true,
      maxLength: 100,
      pattern: /^[A-Z0-9][A-Z0-9_]*$/,
      patternRule: 'a preset key name such as S1270_32GB_1X1TBSATA_NORAID',
    }),
    change: 'replace',
    read: onServer('fixedConfigurationPreset.keyName', (s) => s.fixedConfigurationPreset?.keyName),
  },
  /** e.g. UBUNTU_LATEST, DEBIAN_12_64; one the bare-metal package sells. */
  operatingSystemReferenceCode: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({
      required: true,
      maxLength: 64,
      pattern: OS_CODE,
      patternRule: 'an operating system code such as UBUNTU_LATEST',
    }),
    change: 'replace',
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem`)',
    read: onServer('operatingSystemReferenceCode', (s) => s.operatingSystemReferenceCode, {
      same: sameOs,
    }),
  },
  /** Datacenter short name, e.g. `dal10`; a change replaces the server. */
  datacenter: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({
      required: true,
      maxLength: 20,
      pattern: /^[a-z]{3}[0-9]{2}$/,
      patternRule: 'a datacenter short name such as dal10',
    }),
    change: 'replace',
    read: onServer('datacenter.name', (s) => s.datacenter?.name),
  },
  /**
   * Uplink speed in Mbps. The server is ordered with ports of this speed (one the package sells:
   * 100 or 1000); a lower one (10, 100, 1000 or 10000, up to `maxNetworkSpeed`) is set in place on
   * both uplinks and waited for, the bill unchanged; a higher one replaces the server. Read back
   * as the slower uplink: a speed lowered outside Pulumi is drift `refresh` shows.
   */
  networkSpeed: {
    type: types.integer,
    input: 'optional',
    output: true,
    default: 1000,
    rule: rules.integer({ min: 1, max: 100_000 }),
    change: 'update',
    how: '`setPublicNetworkInterfaceSpeed` / `setPrivateNetworkInterfaceSpeed`, waited for (up to `maxNetworkSpeed`; above it a replace)',
    read: onServer(
      `primaryNetworkComponent.speed,primaryBackendNetworkComponent.speed`,
      uplinkSpeed,
    ),
  },
  /**
   * Redundant uplinks: two bonded ports on each network, ordered as the package's redundant port
   * item (dearer). A change replaces the server.
   */
  redundantNetwork: {
    type: types.boolean,
    input: 'optional',
    output: true,
    default: false,
    rule: rules.flag(),
    change: 'replace',
    read: onServer(
      'primaryNetworkComponent.redundancyCapableFlag',
      (s) => s.primaryNetworkComponent && s.primaryNetworkComponent.redundancyCapableFlag === true,
    ),
  },
  /**
   * Billed by the hour (true, the default) or the month (false: some presets are sold monthly
   * only). A change replaces the server.
   */
  hourlyBilling: {
    type: types.boolean,
    input: 'optional',
    output: true,
    default: true,
    rule: rules.flag(),
    change: 'replace',
    read: onServer('hourlyBillingFlag', (s) => s.hourlyBillingFlag),
  },
  /**
   * Id of the account's public VLAN (in the server's datacenter) for its public uplink; left out,
   * the API picks one. A change replaces the server.
   */
  publicVlanId: vlanField('PUBLIC', 'public'),
  /** Id of the account's private VLAN for its private uplink; left out, the API picks one. */
  privateVlanId: vlanField('PRIVATE', 'private'),
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
    change: 'replace',
    how: 'or in place with `onImageChange: reload` (`reloadOperatingSystem`)',
    reason: 'SSH keys are installed only when a server is provisioned or reloaded',
    read: onServer('sshKeys.id', (s) => s.sshKeys?.map((key) => key.id).sort((a, b) => a - b)),
  },
  /** User data for cloud-init, sent exactly as given; a change replaces the server. */
  userData: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: LIMITS.userData }),
    change: 'replace',
    reason: 'user data is read only on the first boot of a new server',
    read: onServer(
      'userData.value',
      (s) => (s.userData ? s.userData[0]?.value || UNSET : undefined),
      {
        same: sameUserData,
      },
    ),
  },
  /** Tags, stored as the API stores them: trimmed, lower-cased, each once, sorted. */
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
    change: 'update',
    how: '`setTags`',
    read: onServer('tagReferences.tag.name', userTags),
  },
  /** Free text kept with the server. */
  notes: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: LIMITS.notes }),
    change: 'update',
    how: '`editObject`',
    read: onServer('notes', (s) => s.notes || UNSET),
  },
  /**
   * What a change of `operatingSystemReferenceCode` or `sshKeyIds` does: `replace` orders a new
   * server (new id, addresses and bill), `reload` reinstalls this one in place
   * (`reloadOperatingSystem`: same id, addresses and bill; its disks are erased).
   */
  onImageChange: {
    type: types.string,
    input: 'optional',
    output: true,
    default: 'replace',
    rule: rules.custom((failures, name, value) => {
      if (value !== undefined && failures.string(name, value))
        failures.oneOf(name, value as string, IMAGE_CHANGES, 'replace or reload');
    }, '`replace` or `reload`'),
    oneOf: {
      name: 'ServerImageChange',
      values: IMAGE_CHANGES,
      meanings: {
        replace: 'Order a new server (new id, addresses and bill).',
        reload:
          'Reinstall this server in place (same id, addresses and bill); its disks are erased.',
      },
    },
    change: 'local',
  },
  /**
   * On delete, cancel a monthly server at once instead of at its billing anniversary (what is
   * left of the month is owed either way); an hourly server is always cancelled at once.
   */
  cancelImmediately: {
    type: types.boolean,
    input: 'optional',
    default: false,
    rule: rules.flag(),
    change: 'local',
  },
  /**
   * How long a create, a reload or a delete waits for the server's provisioning or transaction,
   * in minutes (a bare metal server takes hours); `customTimeouts` bound it too.
   */
  readyTimeoutMinutes: {
    type: types.number,
    input: 'optional',
    default: 480,
    rule: rules.number({ min: 0.01, max: 72 * 60 }),
    change: 'local',
  },
  /** What the server costs an hour (check prices the order with `verifyOrder`). */
  estimatedHourlyCost: { type: types.number, output: true, fromCheck: true },
  /** What the server costs a month. */
  estimatedMonthlyCost: { type: types.number, output: true, fromCheck: true },
  /** The numeric id (the resource id is the same number as a string). */
  serverId: { type: types.integer, output: true, read: onServer('id', (s) => s.id) },
  /** `<hostname>.<domain>`. */
  fullyQualifiedDomainName: {
    type: types.string,
    output: true,
    read: onServer(
      'fullyQualifiedDomainName,hostname,domain',
      (s) => s.fullyQualifiedDomainName ?? `${s.hostname}.${s.domain}`,
    ),
  },
  /** Public address, once provisioned. */
  primaryIpAddress: {
    type: types.nullable(types.string),
    output: true,
    read: onServer('primaryIpAddress', (s) => s.primaryIpAddress ?? null),
  },
  /** Private address, once provisioned. */
  primaryBackendIpAddress: {
    type: types.nullable(types.string),
    output: true,
    read: onServer('primaryBackendIpAddress', (s) => s.primaryBackendIpAddress ?? null),
  },
  /** When provisioning finished. */
  provisionDate: {
    type: types.nullable(types.string),
    output: true,
    read: onServer('provisionDate', (s) => s.provisionDate ?? null),
  },
  /**
   * The speed the server's ports were ordered at (Mbps): the most an in-place change sets, and
   * what the server is billed for (check keeps it with the inputs).
   */
  maxNetworkSpeed: {
    type: types.integer,
    output: true,
    fromCheck: true,
    read: onServer('primaryNetworkComponent.maxSpeed', (s) => s.primaryNetworkComponent?.maxSpeed),
  },
  /** Physical cores of the preset. */
  cores: {
    type: types.integer,
    output: true,
    read: onServer('processorPhysicalCoreAmount', (s) => s.processorPhysicalCoreAmount),
  },
  /** Memory of the preset, in GB. */
  memoryGb: {
    type: types.integer,
    output: true,
    read: onServer('memoryCapacity', (s) => s.memoryCapacity),
  },
  /** The transaction of the last OS reload (null: never reloaded). */
  osReloadId: {
    type: types.nullable(types.integer),
    output: true,
    read: onServer('lastOperatingSystemReload.id', (s) => s.lastOperatingSystemReload?.id ?? null),
  },
  /** Provisioning or transaction status (`ready` once provisioned and idle). */
  status: {
    type: types.string,
    output: true,
    read: onServer(
      'provisionDate,hardwareStatus.status,activeTransaction.transactionStatus[name,friendlyName]',
      hardwareStatus,
    ),
  },
  /** The billing item a cancel goes through. */
  billingItemId: {
    type: types.integer,
    output: true,
    read: onServer('billingItem.id', (s) => s.billingItem?.id),
  },
} satisfies Fields<{ what?: string }>;

export type BareMetalFields = typeof BARE_METAL_FIELDS;

/** The fields an OS reload changes in place (with `onImageChange: reload`). */
export const RELOAD_FIELDS = ['operatingSystemReferenceCode', 'sshKeyIds'] as const;

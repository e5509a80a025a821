/**
 * The order template of `Virtual_Guest.createObject`, `createObjects` and
 * `generateOrderTemplate`, checked the way the real API does: required properties, value types,
 * values that must be among the offered options, host/domain syntax, unknown properties. Faults
 * name the field. A checked template is priced from the catalog at its datacenter's prices.
 */
import {
  CPU_OPTIONS,
  DATACENTERS,
  DEFAULT_DATACENTER,
  DEFAULT_NETWORK_SPEED,
  DISK_SIZES,
  EXTRA_DISK_SIZES,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  OPERATING_SYSTEMS,
  cpuPrice,
  diskPrice,
  findDatacenter,
  findOs,
  memoryPrice,
  networkPrice,
  osPrice,
  priceAt,
  transientPrice,
  type Datacenter,
} from '../../catalog';
import { invalidParams, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import { discounted } from '../account/discounts';
import type { AuthedContext } from '../context';
import {
  badValue,
  checkDomain,
  checkHostname,
  checkNotes,
  isStruct,
  listOf,
  missing,
  normalizeTags,
  notOffered,
  present,
  readFlag,
  readInt,
  readString,
  structAt,
} from '../../validators';
import type { ChosenVlan, GuestOrder } from './model';
import type { ImageRec } from '../image-template/model';
import { flavorByKey, guestFlavors, offeredIn, type PresetView } from '../product-package/model';

const TYPE = 'Svc_Virtual_Guest';
const MAX_USER_DATA = 64 * 1024;
const DATA_DEVICES = ['0', '2', '3', '4', '5'];
const REQUIRED = ['hostname', 'domain', 'hourlyBillingFlag', 'localDiskFlag'] as const;
/** Required unless the template names a flavor, which sets them. */
const SIZE = ['startCpus', 'maxMemory'] as const;
/** Template properties read below (others must be properties of the type, and are ignored). */
const HANDLED = new Set<string>([
  ...REQUIRED,
  ...SIZE,
  'transientGuestFlag',
  'complexType',
  'operatingSystemReferenceCode',
  'datacenter',
  'networkComponents',
  'privateNetworkOnlyFlag',
  'dedicatedAccountHostOnlyFlag',
  'tagReferences',
  'notes',
  'userData',
  'sshKeys',
  'blockDevices',
  'postInstallScriptUri',
  'supplementalCreateObjectOptions',
  'blockDeviceTemplateGroup',
  'primaryNetworkComponent',
  'primaryBackendNetworkComponent',
  'placementGroupId',
  'dedicatedHost',
]);

/**
 * The image template a guest is ordered from, by global identifier, for a datacenter (faults when
 * there is none the caller may use there): ../image-template/model.ts `orderableImage`.
 */
export type ImageFinder = (globalIdentifier: string, datacenterId: number) => ImageRec;

/**
 * Checks a template and prices the order from the catalog (at its datacenter's prices). A
 * template naming `blockDeviceTemplateGroup.globalIdentifier` is ordered from that image (found
 * with `images`; without it images are refused).
 */
export function checkGuestTemplate(template: unknown, images?: ImageFinder): GuestOrder {
  const { t, flavor } = checkTemplateShape(template);
  const size = readSize(t, flavor);
  const placement = readPlacement(t, images);
  if (flavor && !offeredIn(flavor, placement.datacenter))
    throw notOffered(
      'supplementalCreateObjectOptions.flavorKeyName',
      flavor.keyName,
      guestFlavors()
        .filter((f) => offeredIn(f, placement.datacenter))
        .map((f) => f.keyName),
    );
  const extras = readExtras(t);
  const blockDevices = readBlockDevices(t.blockDevices, flavor);
  const postInstallScriptUri = readPostInstallScript(t);
  const network = readInterfaces(t, size.privateOnly);
  const prices = [
    cpuPrice(size.startCpus),
    memoryPrice(size.maxMemory),
    osPrice(placement.os),
    networkPrice(placement.networkSpeed),
    ...blockDevices.map((d, i) => diskPrice(d.capacity, size.localDisk, i)),
  ]
    .map((price) => priceAt(price, placement.datacenter))
    .map((price) => (size.transient ? transientPrice(price) : price));
  return {
    ...size,
    ...placement,
    ...extras,
    notes: present(t.notes) ? checkNotes(t.notes) : undefined,
    postInstallScriptUri,
    blockDevices,
    ...network,
    prices,
  };
}

/** The order at the ordering account's prices (its negotiated discounts, ../account/discounts.ts). */
export function atAccountPrices(ctx: AuthedContext, order: GuestOrder): GuestOrder {
  const discounts = ctx.account.discounts;
  return { ...order, prices: order.prices.map((price) => discounted(price, discounts)) };
}

/**
 * Known properties only, the required ones present, and no unmodeled way of ordering; the
 * flavor named in `supplementalCreateObjectOptions.flavorKeyName`, if any.
 */
function checkTemplateShape(template: unknown): {
  t: Record<string, unknown>;
  flavor?: PresetView;
} {
  if (!isStruct(template)) throw invalidParams(`the template must be a ${TYPE} struct.`);
  const guestType = typeDef(TYPE);
  for (const key of Object.keys(template)) {
    if (!HANDLED.has(key) && !guestType.locals.has(key) && !guestType.relations.has(key)) {
      throw propertyNotValid(key, TYPE);
    }
  }
  const t = template;
  for (const field of REQUIRED) if (!present(t[field])) throw missing(field, TYPE);
  const flavor = readFlavor(t);
  for (const field of SIZE) {
    if (!flavor && !present(t[field])) throw missing(field, TYPE);
    if (flavor && present(t[field]))
      throw badValue(
        field,
        t[field],
        `The flavor ${flavor.keyName} (supplementalCreateObjectOptions.flavorKeyName) sets the cores and memory: leave startCpus and maxMemory out.`,
      );
  }
  const fromImage = present(t.blockDeviceTemplateGroup);
  if (fromImage === present(t.operatingSystemReferenceCode)) {
    if (!fromImage) throw missing('operatingSystemReferenceCode', TYPE);
    throw publicFault(
      'Give either operatingSystemReferenceCode or blockDeviceTemplateGroup.globalIdentifier (an image template), not both.',
    );
  }
  return { t, flavor };
}

/** `supplementalCreateObjectOptions.flavorKeyName`: one of the flavors getCreateObjectOptions lists. */
function readFlavor(t: Record<string, unknown>): PresetView | undefined {
  const field = 'supplementalCreateObjectOptions';
  const supplemental = present(t[field]) ? structAt(t[field], field) : {};
  if (!present(supplemental.flavorKeyName)) return undefined;
  const keyName = readString(supplemental.flavorKeyName, `${field}.flavorKeyName`);
  const flavor = flavorByKey(keyName);
  if (!flavor)
    throw notOffered(
      `${field}.flavorKeyName`,
      keyName,
      guestFlavors().map((f) => f.keyName),
    );
  return flavor;
}

const optionalFlagOf = (t: Record<string, unknown>, field: string) =>
  present(t[field]) ? readFlag(t[field], field) : false;

/**
 * A transient guest (`transientGuestFlag`): billed hourly only, never on a dedicated host; the
 * API may reclaim it at any time.
 */
function readTransient(t: Record<string, unknown>, hourly: boolean, dedicated: boolean): boolean {
  const transient = optionalFlagOf(t, 'transientGuestFlag');
  if (transient && !hourly)
    throw badValue(
      'transientGuestFlag',
      true,
      'Transient guests are billed hourly only: set hourlyBillingFlag to true, or leave transientGuestFlag out.',
    );
  if (transient && dedicated)
    throw badValue(
      'transientGuestFlag',
      true,
      'Transient guests cannot run on a dedicated host: leave dedicatedHost and dedicatedAccountHostOnlyFlag out.',
    );
  return transient;
}

function readSize(t: Record<string, unknown>, flavor: PresetView | undefined) {
  const hostname = checkHostname(t.hostname);
  const domain = checkDomain(t.domain);
  if (hostname.length + domain.length + 1 > 253) {
    throw badValue(
      'domain',
      domain,
      'The fully qualified domain name is limited to 253 characters.',
    );
  }
  const startCpus = flavor?.cpus ?? readInt(t.startCpus, 'startCpus');
  if (!CPU_OPTIONS.includes(startCpus)) throw notOffered('startCpus', startCpus, CPU_OPTIONS);
  const maxMemory = flavor?.memory ?? readInt(t.maxMemory, 'maxMemory');
  if (!MEMORY_OPTIONS.includes(maxMemory)) throw notOffered('maxMemory', maxMemory, MEMORY_OPTIONS);
  const hourly = readFlag(t.hourlyBillingFlag, 'hourlyBillingFlag');
  // A guest on a dedicated host is on the account's own host.
  const dedicated = optionalFlagOf(t, 'dedicatedAccountHostOnlyFlag') || present(t.dedicatedHost);
  return {
    hostname,
    domain,
    startCpus,
    maxMemory,
    flavorKeyName: flavor?.keyName,
    hourly,
    transient: readTransient(t, hourly, dedicated),
    localDisk: readFlag(t.localDiskFlag, 'localDiskFlag'),
    privateOnly: optionalFlagOf(t, 'privateNetworkOnlyFlag'),
    dedicated,
  };
}

/** The operating system, or the image template it comes from, at `datacenter`. */
function readOs(t: Record<string, unknown>, datacenter: Datacenter, images?: ImageFinder) {
  if (present(t.blockDeviceTemplateGroup)) {
    const field = 'blockDeviceTemplateGroup.globalIdentifier';
    const gid = readString(
      structAt(t.blockDeviceTemplateGroup, 'blockDeviceTemplateGroup').globalIdentifier,
      field,
    );
    if (!images)
      throw publicFault(
        `Image templates (${field}) are not offered here; use operatingSystemReferenceCode.`,
      );
    const image = images(gid.trim(), datacenter.id);
    return { os: findOs(image.osCode)!, imageTemplateId: image.id };
  }
  const osCode = readString(t.operatingSystemReferenceCode, 'operatingSystemReferenceCode');
  const os = findOs(osCode.trim());
  if (!os) {
    const codes = OPERATING_SYSTEMS.map((o) => o.referenceCode);
    throw notOffered('operatingSystemReferenceCode', osCode, codes);
  }
  return { os };
}

/** The operating system (or image), datacenter and port speed (the last two have defaults). */
function readPlacement(t: Record<string, unknown>, images?: ImageFinder) {
  let datacenter = DEFAULT_DATACENTER;
  if (present(t.datacenter)) {
    const name = readString(structAt(t.datacenter, 'datacenter').name, 'datacenter.name');
    const found = findDatacenter(name.trim());
    if (!found)
      throw notOffered(
        'datacenter.name',
        name,
        DATACENTERS.map((d) => d.name),
      );
    datacenter = found;
  }
  return {
    ...readOs(t, datacenter, images),
    datacenter,
    networkSpeed: readNetworkSpeed(t.networkComponents),
  };
}

function readNetworkSpeed(value: unknown): number {
  if (!present(value)) return DEFAULT_NETWORK_SPEED;
  const nics = listOf(value, 'networkComponents');
  if (nics.length > 1)
    throw badValue('networkComponents', nics, 'Give at most one entry: [{maxSpeed}].');
  if (nics.length === 0) return DEFAULT_NETWORK_SPEED;
  const speed = readInt(
    structAt(nics[0], 'networkComponents[0]').maxSpeed,
    'networkComponents[0].maxSpeed',
  );
  if (!NETWORK_SPEEDS.includes(speed))
    throw notOffered('networkComponents[0].maxSpeed', speed, NETWORK_SPEEDS);
  return speed;
}

/** Each entry of an optional list property, read by `read` (an absent list is empty). */
const eachOf = <T>(value: unknown, field: string, read: (entry: unknown, i: number) => T): T[] =>
  present(value) ? listOf(value, field).map(read) : [];

/** Tags, user data and SSH key ids. */
function readExtras(t: Record<string, unknown>) {
  const tags = normalizeTags(
    eachOf(t.tagReferences, 'tagReferences', (ref, i) => {
      const tag = structAt(structAt(ref, `tagReferences[${i}]`).tag, `tagReferences[${i}].tag`);
      return readString(tag.name, `tagReferences[${i}].tag.name`);
    }),
  );
  const userData = eachOf(t.userData, 'userData', (entry, i) => {
    const value = readString(structAt(entry, `userData[${i}]`).value, `userData[${i}].value`);
    if (value.length > MAX_USER_DATA)
      throw badValue(
        `userData[${i}].value`,
        '...',
        `User data is limited to ${MAX_USER_DATA} bytes.`,
      );
    return value;
  });
  const sshKeyIds = eachOf(t.sshKeys, 'sshKeys', (key, i) => {
    const id = readInt(structAt(key, `sshKeys[${i}]`).id, `sshKeys[${i}].id`);
    if (id <= 0) throw badValue(`sshKeys[${i}].id`, id, 'Expected a positive key id.');
    return id;
  });
  return { tags, userData, sshKeyIds };
}

/** What an order may say of an interface. */
const INTERFACE_KEYS = new Set(['securityGroupBindings', 'networkVlan', 'complexType']);

/**
 * The VLAN (and its subnet) an interface is ordered on
 * (`primary[Backend]NetworkComponent.networkVlan.id`, `...networkVlan.primarySubnet.id`); checked
 * against the account and the datacenter with the order's other references (account-refs.ts).
 */
function vlanOf(t: Record<string, unknown>, field: string): ChosenVlan | undefined {
  if (!present(t[field])) return undefined;
  const vlan = structAt(t[field], field).networkVlan;
  if (!present(vlan)) return undefined;
  const at = `${field}.networkVlan`;
  const v = structAt(vlan, at);
  const subnet = present(v.primarySubnet)
    ? readInt(structAt(v.primarySubnet, `${at}.primarySubnet`).id, `${at}.primarySubnet.id`)
    : undefined;
  return { field: at, vlanId: readInt(v.id, `${at}.id`), subnetId: subnet };
}

/**
 * The security groups bound to each interface at order time
 * (`primary[Backend]NetworkComponent.securityGroupBindings[].securityGroup.id`), the VLAN each is
 * ordered on, the placement group and the dedicated host (`dedicatedHost: {id}`).
 */
function readInterfaces(t: Record<string, unknown>, privateOnly: boolean) {
  const groupsOf = (field: string): number[] => {
    if (!present(t[field])) return [];
    const nic = structAt(t[field], field);
    for (const [key, value] of Object.entries(nic)) {
      if (!INTERFACE_KEYS.has(key) && present(value))
        throw publicFault(`${field}.${key} is not modeled by this emulator; leave it out.`);
    }
    const ids = eachOf(nic.securityGroupBindings, `${field}.securityGroupBindings`, (b, i) => {
      const at = `${field}.securityGroupBindings[${i}]`;
      return readInt(
        structAt(structAt(b, at).securityGroup, `${at}.securityGroup`).id,
        `${at}.securityGroup.id`,
      );
    });
    if (new Set(ids).size !== ids.length)
      throw badValue(`${field}.securityGroupBindings`, ids, 'Each security group may appear once.');
    return ids;
  };
  const publicGroups = groupsOf('primaryNetworkComponent');
  if (privateOnly && publicGroups.length > 0)
    throw publicFault(
      'primaryNetworkComponent.securityGroupBindings: the guest has no public interface (privateNetworkOnlyFlag); bind its groups to primaryBackendNetworkComponent.',
    );
  const vlans = {
    PUBLIC: vlanOf(t, 'primaryNetworkComponent'),
    PRIVATE: vlanOf(t, 'primaryBackendNetworkComponent'),
  };
  if (privateOnly && vlans.PUBLIC)
    throw publicFault(
      'primaryNetworkComponent.networkVlan: the guest has no public interface (privateNetworkOnlyFlag); leave the public VLAN out.',
    );
  return {
    vlans,
    securityGroups: { PUBLIC: publicGroups, PRIVATE: groupsOf('primaryBackendNetworkComponent') },
    placementGroupId: present(t.placementGroupId)
      ? readInt(t.placementGroupId, 'placementGroupId')
      : undefined,
    dedicatedHostId: present(t.dedicatedHost)
      ? readInt(structAt(t.dedicatedHost, 'dedicatedHost').id, 'dedicatedHost.id')
      : undefined,
  };
}

function readPostInstallScript(t: Record<string, unknown>): string | undefined {
  if (!present(t.postInstallScriptUri)) return undefined;
  const uri = readString(t.postInstallScriptUri, 'postInstallScriptUri');
  if (!/^https?:\/\/\S+$/.test(uri))
    throw badValue('postInstallScriptUri', uri, 'Expected an http:// or https:// URL.');
  return uri;
}

/**
 * The disks: a boot disk (device 0, added when not given: the flavor's, else the smallest) and
 * data disks on devices 2-5. A flavor's boot disk is its own size.
 */
function readBlockDevices(
  value: unknown,
  flavor: PresetView | undefined,
): { device: string; capacity: number }[] {
  const boot = { device: '0', capacity: flavor?.disk ?? DISK_SIZES[0] };
  if (!present(value)) return [boot];
  const devices = listOf(value, 'blockDevices').map(readBlockDevice);
  const given = devices.find((d) => d.device === '0');
  if (flavor && given && given.capacity !== flavor.disk)
    throw badValue(
      'blockDevices',
      given.capacity,
      `The flavor ${flavor.keyName} has a ${flavor.disk} GB boot disk (device 0); leave device 0 out or give that size.`,
    );
  if (!given) devices.unshift(boot);
  if (new Set(devices.map((d) => d.device)).size !== devices.length) {
    throw badValue(
      'blockDevices',
      devices.map((d) => d.device),
      'Each device number may appear once.',
    );
  }
  return devices.sort((a, b) => Number(a.device) - Number(b.device));
}

function readBlockDevice(entry: unknown, i: number): { device: string; capacity: number } {
  const d = structAt(entry, `blockDevices[${i}]`);
  const device = String(readInt(d.device, `blockDevices[${i}].device`));
  const capacity = readInt(
    structAt(d.diskImage, `blockDevices[${i}].diskImage`).capacity,
    `blockDevices[${i}].diskImage.capacity`,
  );
  if (device === '1')
    throw badValue(
      `blockDevices[${i}].device`,
      device,
      "Device '1' is reserved for swap; use 0, 2, 3, 4 or 5.",
    );
  if (!DATA_DEVICES.includes(device))
    throw notOffered(`blockDevices[${i}].device`, device, DATA_DEVICES);
  const sizes = device === '0' ? DISK_SIZES : EXTRA_DISK_SIZES;
  if (!sizes.includes(capacity))
    throw notOffered(`blockDevices[${i}].diskImage.capacity`, capacity, sizes);
  return { device, capacity };
}

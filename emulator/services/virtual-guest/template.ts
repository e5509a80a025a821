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

const TYPE = 'Svc_Virtual_Guest';
const MAX_USER_DATA = 64 * 1024;
const DATA_DEVICES = ['0', '2', '3', '4', '5'];
const REQUIRED = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'hourlyBillingFlag',
  'localDiskFlag',
] as const;
/** Template properties read below (others must be properties of the type, and are ignored). */
const HANDLED = new Set<string>([
  ...REQUIRED,
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
  const t = checkTemplateShape(template);
  const size = readSize(t);
  const placement = readPlacement(t, images);
  const extras = readExtras(t);
  const blockDevices = readBlockDevices(t.blockDevices);
  const postInstallScriptUri = readPostInstallScript(t);
  const network = readInterfaces(t, size.privateOnly);
  const prices = [
    cpuPrice(size.startCpus),
    memoryPrice(size.maxMemory),
    osPrice(placement.os),
    networkPrice(placement.networkSpeed),
    ...blockDevices.map((d, i) => diskPrice(d.capacity, size.localDisk, i)),
  ].map((price) => priceAt(price, placement.datacenter));
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

/** Known properties only, the required ones present, and no unmodeled way of ordering. */
function checkTemplateShape(template: unknown): Record<string, unknown> {
  if (!isStruct(template)) throw invalidParams(`the template must be a ${TYPE} struct.`);
  const guestType = typeDef(TYPE);
  for (const key of Object.keys(template)) {
    if (!HANDLED.has(key) && !guestType.locals.has(key) && !guestType.relations.has(key)) {
      throw propertyNotValid(key, TYPE);
    }
  }
  const t = template;
  for (const field of REQUIRED) if (!present(t[field])) throw missing(field, TYPE);
  const fromImage = present(t.blockDeviceTemplateGroup);
  if (fromImage === present(t.operatingSystemReferenceCode)) {
    if (!fromImage) throw missing('operatingSystemReferenceCode', TYPE);
    throw publicFault(
      'Give either operatingSystemReferenceCode or blockDeviceTemplateGroup.globalIdentifier (an image template), not both.',
    );
  }
  const supplemental = present(t.supplementalCreateObjectOptions)
    ? structAt(t.supplementalCreateObjectOptions, 'supplementalCreateObjectOptions')
    : {};
  if (present(supplemental.flavorKeyName)) {
    throw publicFault(
      'Flavors (supplementalCreateObjectOptions.flavorKeyName) are not offered; set startCpus and maxMemory.',
    );
  }
  return t;
}

const optionalFlagOf = (t: Record<string, unknown>, field: string) =>
  present(t[field]) ? readFlag(t[field], field) : false;

function readSize(t: Record<string, unknown>) {
  const hostname = checkHostname(t.hostname);
  const domain = checkDomain(t.domain);
  if (hostname.length + domain.length + 1 > 253) {
    throw badValue(
      'domain',
      domain,
      'The fully qualified domain name is limited to 253 characters.',
    );
  }
  const startCpus = readInt(t.startCpus, 'startCpus');
  if (!CPU_OPTIONS.includes(startCpus)) throw notOffered('startCpus', startCpus, CPU_OPTIONS);
  const maxMemory = readInt(t.maxMemory, 'maxMemory');
  if (!MEMORY_OPTIONS.includes(maxMemory)) throw notOffered('maxMemory', maxMemory, MEMORY_OPTIONS);
  return {
    hostname,
    domain,
    startCpus,
    maxMemory,
    hourly: readFlag(t.hourlyBillingFlag, 'hourlyBillingFlag'),
    localDisk: readFlag(t.localDiskFlag, 'localDiskFlag'),
    privateOnly: optionalFlagOf(t, 'privateNetworkOnlyFlag'),
    // A guest on a dedicated host is on the account's own host.
    dedicated: optionalFlagOf(t, 'dedicatedAccountHostOnlyFlag') || present(t.dedicatedHost),
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

/** The disks: a boot disk (device 0, added when not given) and data disks on devices 2-5. */
function readBlockDevices(value: unknown): { device: string; capacity: number }[] {
  if (!present(value)) return [{ device: '0', capacity: DISK_SIZES[0] }];
  const devices = listOf(value, 'blockDevices').map(readBlockDevice);
  if (!devices.some((d) => d.device === '0'))
    devices.unshift({ device: '0', capacity: DISK_SIZES[0] });
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

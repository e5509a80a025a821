/**
 * Checks a Virtual_Guest order template (createObject / generateOrderTemplate) the way the real
 * API does: required properties, value types (flags as booleans or the strings 'true'/'false'),
 * values that must be among the offered options, host/domain syntax, unknown properties. Faults
 * name the field. Also prices the order from the catalog.
 */
import {
  CPU_OPTIONS,
  DEFAULT_DATACENTER,
  DEFAULT_NETWORK_SPEED,
  DISK_SIZES,
  EXTRA_DISK_SIZES,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  cpuPrice,
  diskPrice,
  findDatacenter,
  findOs,
  memoryPrice,
  networkPrice,
  osPrice,
  priceAt,
  DATACENTERS,
  OPERATING_SYSTEMS,
  type Datacenter,
  type OperatingSystem,
  type Price,
} from '../catalog';
import { invalidParams, invalidValue, propertyNotValid, publicFault } from '../errors';
import { typeDef } from '../schema';

export interface GuestOrder {
  hostname: string;
  domain: string;
  startCpus: number;
  maxMemory: number;
  hourly: boolean;
  localDisk: boolean;
  privateOnly: boolean;
  dedicated: boolean;
  datacenter: Datacenter;
  os: OperatingSystem;
  networkSpeed: number;
  userData: string[];
  sshKeyIds: number[];
  tags: string[];
  notes?: string;
  postInstallScriptUri?: string;
  blockDevices: { device: string; capacity: number }[];
  prices: Price[];
}

const TYPE = 'Svc_Virtual_Guest';
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_NOTES = 1000;
const MAX_USER_DATA = 64 * 1024;
const HANDLED = new Set([
  'complexType',
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'hourlyBillingFlag',
  'localDiskFlag',
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
]);

const isStruct = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
const present = (v: unknown) => v !== undefined && v !== null;
const shown = (v: unknown) =>
  typeof v === 'string' ? `'${v.slice(0, 100)}'` : (JSON.stringify(v) ?? String(v));

const missing = (field: string) =>
  publicFault(`Property '${field}' must be set to create an instance of ${TYPE}.`);
const badValue = (field: string, value: unknown, expected: string) =>
  invalidValue(`Invalid value provided for '${field}': ${shown(value)}. ${expected}`);
const notOffered = (field: string, value: unknown, options: readonly (string | number)[]) =>
  publicFault(
    `The value ${shown(value)} for '${field}' is not offered. Choose one of: ${options.join(', ')} (see getCreateObjectOptions).`,
  );

/** Booleans, or the literal strings 'true'/'false' (and 1/0), as API clients send them. */
export function readFlag(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
  }
  throw badValue(field, value, 'Expected true or false.');
}

function readInt(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw badValue(field, value, 'Expected an integer.');
  return n;
}

function readString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badValue(field, value, 'Expected a string.');
  return value;
}

export function checkHostname(value: unknown, field = 'hostname'): string {
  const hostname = readString(value, field).trim();
  if (!LABEL.test(hostname)) {
    throw badValue(
      field,
      value,
      'A hostname is 1-63 letters, digits and hyphens and cannot start or end with a hyphen.',
    );
  }
  return hostname;
}

export function checkDomain(value: unknown, field = 'domain'): string {
  const domain = readString(value, field).trim().replace(/\.$/, '');
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw badValue(
      field,
      value,
      'A domain is two or more dot-separated labels of letters, digits and hyphens.',
    );
  }
  return domain;
}

export function checkNotes(value: unknown): string {
  const notes = readString(value, 'notes');
  if (notes.length > MAX_NOTES)
    throw badValue(
      'notes',
      `${notes.slice(0, 20)}...`,
      `Notes are limited to ${MAX_NOTES} characters.`,
    );
  return notes;
}

/** Tags as the platform stores them: trimmed, lower-cased, no empties or duplicates. */
export function normalizeTags(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of names) {
    const tag = raw.trim().toLowerCase();
    if (tag.length === 0 || out.includes(tag)) continue;
    if (tag.length > 255)
      throw badValue('tag', `${tag.slice(0, 20)}...`, 'Tags are limited to 255 characters.');
    out.push(tag);
  }
  return out;
}

function list(value: unknown, field: string): unknown[] {
  // Clients send `{}` where an empty array is meant.
  if (isStruct(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value)) throw badValue(field, value, 'Expected an array.');
  return value;
}

function structAt(value: unknown, field: string): Record<string, unknown> {
  if (!isStruct(value)) throw badValue(field, value, 'Expected a struct.');
  return value;
}

export function checkGuestTemplate(template: unknown): GuestOrder {
  if (!isStruct(template)) throw invalidParams(`the template must be a ${TYPE} struct.`);
  const guestType = typeDef(TYPE);
  for (const key of Object.keys(template)) {
    if (!HANDLED.has(key) && !guestType.locals.has(key) && !guestType.relations.has(key)) {
      throw propertyNotValid(key, TYPE);
    }
  }
  const t = template;
  for (const field of [
    'hostname',
    'domain',
    'startCpus',
    'maxMemory',
    'hourlyBillingFlag',
    'localDiskFlag',
  ]) {
    if (!present(t[field])) throw missing(field);
  }
  if (present(t.blockDeviceTemplateGroup)) {
    throw publicFault(
      'Image templates (blockDeviceTemplateGroup) are not offered; use operatingSystemReferenceCode.',
    );
  }
  if (!present(t.operatingSystemReferenceCode)) throw missing('operatingSystemReferenceCode');
  const supplemental = present(t.supplementalCreateObjectOptions)
    ? structAt(t.supplementalCreateObjectOptions, 'supplementalCreateObjectOptions')
    : {};
  if (present(supplemental.flavorKeyName)) {
    throw publicFault(
      'Flavors (supplementalCreateObjectOptions.flavorKeyName) are not offered; set startCpus and maxMemory.',
    );
  }

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
  const hourly = readFlag(t.hourlyBillingFlag, 'hourlyBillingFlag');
  const localDisk = readFlag(t.localDiskFlag, 'localDiskFlag');
  const privateOnly = present(t.privateNetworkOnlyFlag)
    ? readFlag(t.privateNetworkOnlyFlag, 'privateNetworkOnlyFlag')
    : false;
  const dedicated = present(t.dedicatedAccountHostOnlyFlag)
    ? readFlag(t.dedicatedAccountHostOnlyFlag, 'dedicatedAccountHostOnlyFlag')
    : false;

  const osCode = readString(t.operatingSystemReferenceCode, 'operatingSystemReferenceCode');
  const os = findOs(osCode.trim());
  if (!os)
    throw notOffered(
      'operatingSystemReferenceCode',
      osCode,
      OPERATING_SYSTEMS.map((o) => o.referenceCode),
    );

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

  let networkSpeed = DEFAULT_NETWORK_SPEED;
  if (present(t.networkComponents)) {
    const nics = list(t.networkComponents, 'networkComponents');
    if (nics.length > 1)
      throw badValue('networkComponents', nics, 'Give at most one entry: [{maxSpeed}].');
    if (nics.length === 1) {
      const speed = readInt(
        structAt(nics[0], 'networkComponents[0]').maxSpeed,
        'networkComponents[0].maxSpeed',
      );
      if (!NETWORK_SPEEDS.includes(speed))
        throw notOffered('networkComponents[0].maxSpeed', speed, NETWORK_SPEEDS);
      networkSpeed = speed;
    }
  }

  const tags = present(t.tagReferences)
    ? normalizeTags(
        list(t.tagReferences, 'tagReferences').map((ref, i) => {
          const tag = structAt(structAt(ref, `tagReferences[${i}]`).tag, `tagReferences[${i}].tag`);
          return readString(tag.name, `tagReferences[${i}].tag.name`);
        }),
      )
    : [];

  const userData = present(t.userData)
    ? list(t.userData, 'userData').map((entry, i) => {
        const value = readString(structAt(entry, `userData[${i}]`).value, `userData[${i}].value`);
        if (value.length > MAX_USER_DATA)
          throw badValue(
            `userData[${i}].value`,
            '...',
            `User data is limited to ${MAX_USER_DATA} bytes.`,
          );
        return value;
      })
    : [];

  const sshKeyIds = present(t.sshKeys)
    ? list(t.sshKeys, 'sshKeys').map((key, i) => {
        const id = readInt(structAt(key, `sshKeys[${i}]`).id, `sshKeys[${i}].id`);
        if (id <= 0) throw badValue(`sshKeys[${i}].id`, id, 'Expected a positive key id.');
        return id;
      })
    : [];

  const blockDevices = readBlockDevices(t.blockDevices);

  let postInstallScriptUri: string | undefined;
  if (present(t.postInstallScriptUri)) {
    postInstallScriptUri = readString(t.postInstallScriptUri, 'postInstallScriptUri');
    if (!/^https?:\/\/\S+$/.test(postInstallScriptUri)) {
      throw badValue(
        'postInstallScriptUri',
        postInstallScriptUri,
        'Expected an http:// or https:// URL.',
      );
    }
  }

  // The datacenter's prices: its pricing location group's, else the default ones.
  const prices = [
    cpuPrice(startCpus),
    memoryPrice(maxMemory),
    osPrice(os),
    networkPrice(networkSpeed),
    ...blockDevices.map((d, i) => diskPrice(d.capacity, localDisk, i)),
  ].map((price) => priceAt(price, datacenter));
  return {
    hostname,
    domain,
    startCpus,
    maxMemory,
    hourly,
    localDisk,
    privateOnly,
    dedicated,
    datacenter,
    os,
    networkSpeed,
    userData,
    sshKeyIds,
    tags,
    notes: present(t.notes) ? checkNotes(t.notes) : undefined,
    postInstallScriptUri,
    blockDevices,
    prices,
  };
}

function readBlockDevices(value: unknown): { device: string; capacity: number }[] {
  if (!present(value)) return [{ device: '0', capacity: DISK_SIZES[0] }];
  const devices = list(value, 'blockDevices').map((entry, i) => {
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
    if (!['0', '2', '3', '4', '5'].includes(device))
      throw notOffered(`blockDevices[${i}].device`, device, ['0', '2', '3', '4', '5']);
    const sizes = device === '0' ? DISK_SIZES : EXTRA_DISK_SIZES;
    if (!sizes.includes(capacity))
      throw notOffered(`blockDevices[${i}].diskImage.capacity`, capacity, sizes);
    return { device, capacity };
  });
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

import { addPart, isSent, type GuestTemplate } from '../../managers';
import type { Failures } from '../../framework/failures';
import { isKnown, isUnknown } from '../../framework/unknown';
import { fieldsWhere, fieldsChanging, type InputsOf, type StateOf } from '../../framework/fields';
import { flavorSize, type Catalog } from './catalog';
import { GUEST_FIELDS, type GuestField } from './fields';

/** The inputs of a VirtualGuest as stored after `check` (defaults applied, values normalised). */
export type GuestInputs = InputsOf<typeof GUEST_FIELDS>;

/**
 * A guest's properties by name where a value may not be checked yet (in `check`, or unknown in a
 * preview): what the rules and the diff's helpers read.
 */
export type GuestProps = { [K in keyof StateOf<typeof GUEST_FIELDS>]?: unknown };

/** Changing any of these orders a different (billed) guest: the resource is replaced. */
export const REPLACE_FIELDS = fieldsChanging(GUEST_FIELDS, 'replace');

/** Changed in place by one upgrade order (Product_Order with an upgrade container): the size. */
export const UPGRADE_FIELDS = fieldsChanging(GUEST_FIELDS, 'upgrade');

/** What was ordered: the fields an order fixes (replaced or upgraded when changed). */
export const ORDER_FIELDS = [...REPLACE_FIELDS, ...UPGRADE_FIELDS];

/** The inputs a price depends on. */
export const PRICED_FIELDS = fieldsWhere(GUEST_FIELDS, 'priced', true);

/** Why a change of these fields cannot be made to the running guest (said in preview). */
export const REPLACE_REASONS: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(GUEST_FIELDS).map(([name, field]) => [
    name,
    'reason' in field ? field.reason : undefined,
  ]),
);

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
  if (typeof inputs.flavorKeyName === 'string') checkFlavor(inputs, catalog, failures);
  if (Number.isInteger(inputs.startCpus))
    offered('startCpus', catalog.cpus, 'a CPU count this account is offered');
  if (Number.isInteger(inputs.maxMemory))
    offered('maxMemory', catalog.memory, 'a memory size (MB) this account is offered');
  if (typeof inputs.operatingSystemReferenceCode === 'string') {
    offered('operatingSystemReferenceCode', catalog.os, 'a known operating system code');
  }
  if (typeof inputs.datacenter === 'string')
    offered('datacenter', catalog.datacenters, 'a known datacenter');
  if (Array.isArray(inputs.datacenters)) {
    for (const datacenter of inputs.datacenters as unknown[]) {
      if (typeof datacenter === 'string')
        failures.oneOf('datacenters', datacenter, catalog.datacenters, 'a known datacenter');
    }
  }
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

/**
 * A flavor the account is offered (the error lists them all), and a declared boot disk that is
 * the flavor's.
 */
function checkFlavor(inputs: Record<string, unknown>, catalog: Catalog, failures: Failures): void {
  const flavor = inputs.flavorKeyName as string;
  if (isUnknown(flavor)) return;
  if (!catalog.flavors.includes(flavor)) {
    failures.add(
      'flavorKeyName',
      `flavorKeyName ${JSON.stringify(flavor)} is not a flavor this account is offered; offered: ${catalog.flavors.join(', ')}`,
    );
    return;
  }
  const boot = Array.isArray(inputs.disks) ? (inputs.disks as unknown[])[0] : undefined;
  const size = flavorSize(flavor);
  if (size && typeof boot === 'number' && boot !== size.diskGb) {
    failures.add(
      'disks',
      `disks[0] ${boot} GB is not the boot disk of flavorKeyName ${flavor} (${size.diskGb} GB): give ${size.diskGb} or leave disks out`,
    );
  }
}

/**
 * `Virtual_Guest.createObject`'s template of the inputs, carrying `tags`: the `order` fields
 * under their own names, then the parts of the others that are sent.
 */
export function guestTemplate(inputs: GuestInputs, tags: string[]): GuestTemplate {
  const values: Record<string, unknown> = { ...inputs, tags };
  const template: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(GUEST_FIELDS)) {
    const order = (field as GuestField).order;
    // Left out (a size given as a flavor), a field is not sent: an empty member is no value.
    if (order === true) {
      if (values[name] !== undefined && values[name] !== null) template[name] = values[name];
    } else if (order && isSent(values[name])) addPart(template, order(values[name] as never));
  }
  return template as GuestTemplate;
}

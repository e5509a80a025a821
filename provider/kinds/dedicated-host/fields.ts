import { MARKED_NOTE_MAX, declaredNote } from '../../framework/creation-token';
import { BILLED_ORDER_FIELDS, datacenterField, notesField } from '../../framework/billed-order';
import { types, readFrom, UNSET, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import type { DedicatedHost } from '../../managers';

/**
 * The fields of a dedicated host: a physical host of the account's own, of one size, in one
 * datacenter, billed hourly or monthly; the account's guests are placed on it by its id.
 */

const onHost = readFrom<DedicatedHost>();

/** The host size the reference client and terraform-provider-ibm order by default. */
export const DEFAULT_SIZE = '56_CORES_X_242_RAM_X_1_4_TB';

/**
 * The sizes the API sells, by what a host of each holds (cores/GB memory/GB disk): a host shows
 * its capacities, not the key name it was ordered by, so refresh and import read it back here.
 */
const SIZES: Readonly<Record<string, string>> = {
  '56/242/1200': '56_CORES_X_242_RAM_X_1_4_TB',
  '56/484/1500': '56_CORES_X_484_RAM_X_1_5_TB',
  '48/192/1000': '48_CORES_X_192_RAM_X_1_TB',
};
const sizeOf = (h: DedicatedHost) =>
  SIZES[`${h.cpuCount}/${h.memoryCapacity}/${h.diskCapacity}`] ?? UNSET;

/** What an order fixes for good: a change orders a new host. */
export const REPLACING = ['domain', 'datacenter', 'size', 'hourlyBilling'] as const;

export const DEDICATED_HOST_FIELDS = {
  /** The host's name (a DNS label); a change renames it in place. */
  name: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.hostname(true),
    change: 'update',
    how: '`editObject`',
    read: onHost('name', (h) => h.name),
  },
  /** The domain the host is ordered with; a change replaces the host. */
  domain: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.domain(true),
    change: 'replace',
    read: onHost('billingItem.domainName', (h) => h.billingItem?.domainName),
  },
  /** Datacenter short name, e.g. `dal10`; a change replaces the host (and needs it empty). */
  datacenter: datacenterField(onHost('datacenter.name', (h) => h.datacenter?.name)),
  /**
   * The host size, a key name of the DEDICATED_HOST package's `dedicated_virtual_hosts` items
   * (e.g. `56_CORES_X_242_RAM_X_1_4_TB`: 56 cores, 242 GB, 1.2 TB); a change replaces the host.
   */
  size: {
    type: types.string,
    input: 'optional',
    output: true,
    default: DEFAULT_SIZE,
    rule: rules.text({
      maxLength: 100,
      pattern: /^[0-9A-Z_]+$/,
      patternRule: 'a host size key name such as 56_CORES_X_242_RAM_X_1_4_TB',
    }),
    change: 'replace',
    read: onHost('cpuCount,memoryCapacity,diskCapacity', sizeOf),
  },
  /** Billed by the hour (true, the default) or the month (false); a change replaces the host. */
  hourlyBilling: {
    type: types.boolean,
    input: 'optional',
    output: true,
    default: true,
    rule: rules.flag(),
    change: 'replace',
    read: onHost('billingItem.hourlyFlag', (h) => h.billingItem?.hourlyFlag),
  },
  /** Free text kept with the host. */
  // Its last line is the handed mark (framework/handed-mark.ts), never read back.
  notes: notesField(
    onHost('notes', (h) => declaredNote(h.notes) || UNSET),
    MARKED_NOTE_MAX,
  ),
  /** The numeric id guests are placed on (the resource id is the same number as a string). */
  hostId: { type: types.integer, output: true, read: onHost('id', (h) => h.id) },
  /** The host's cores. */
  cpuCount: { type: types.integer, output: true, read: onHost('cpuCount', (h) => h.cpuCount) },
  /** The host's memory, in GB. */
  memoryGb: {
    type: types.integer,
    output: true,
    read: onHost('memoryCapacity', (h) => h.memoryCapacity),
  },
  /** The host's disk, in GB. */
  diskGb: {
    type: types.integer,
    output: true,
    read: onHost('diskCapacity', (h) => h.diskCapacity),
  },
  /** The backend router the host is behind (its guests are in that pod). */
  backendRouterId: {
    type: types.integer,
    output: true,
    read: onHost('backendRouter.id', (h) => h.backendRouter?.id),
  },
  /** The billing item a cancel goes through. */
  billingItemId: {
    type: types.integer,
    output: true,
    read: onHost('billingItem.id', (h) => h.billingItem?.id),
  },
  ...BILLED_ORDER_FIELDS,
} satisfies Fields;

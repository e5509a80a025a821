import { types, readFrom, UNSET, type Fields } from '../../framework/fields';
import { TOKEN_FIELDS, rules } from '../../framework/field-rules';
import { isProviderTag } from '../../framework/creation-token';
import type { ImageTemplate } from '../../managers';

/** Every field of an ImageTemplate, once (see framework/fields.ts). */

const onImage = readFrom<ImageTemplate>();

const DATACENTER = /^[a-z]{3}[0-9]{2}$/;
const sortedNames = (value: unknown) =>
  Array.isArray(value) ? [...new Set(value.map(String))].sort() : value;

export const IMAGE_TEMPLATE_FIELDS = {
  ...TOKEN_FIELDS,
  /**
   * The id of the guest the template is captured from, required to capture; it must be
   * provisioned and idle. Another guest captures a new template (a replace). The API does not
   * record it on the template: an imported template has none, and declaring one then changes
   * nothing.
   */
  guestId: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1 }),
    change: 'replace',
  },
  /** The template's name (1-100 characters). */
  name: {
    type: types.string,
    input: 'required',
    output: true,
    normalise: (value) => (typeof value === 'string' ? value.trim() : value),
    rule: rules.text({ required: true, maxLength: 100 }),
    change: 'update',
    how: '`editObject`',
    read: onImage('name', (i) => i.name),
  },
  /** Free text kept with the template. */
  note: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: 1000 }),
    change: 'update',
    how: '`editObject`',
    // While its capture runs, the note is the create's token: no note of the program's yet.
    read: onImage('note', (i) => (i.note && !isProviderTag(i.note) ? i.note : UNSET)),
  },
  /**
   * The datacenters (short names, e.g. `dal10`) the template is available in, kept as declared: a
   * datacenter added or removed outside Pulumi is drift that `up` puts back. Left out, the
   * template stays where the API puts it (the guest's datacenter).
   */
  datacenters: {
    type: types.list(types.string),
    input: 'optional',
    output: true,
    normalise: sortedNames,
    rule: rules.list({
      what: 'a list of datacenter short names',
      max: 50,
      item: (label, value) =>
        typeof value === 'string' && DATACENTER.test(value)
          ? undefined
          : `${label} must be a datacenter short name such as dal10`,
      text: 'datacenter short names such as dal10',
    }),
    change: 'update',
    how: '`setAvailableLocations`',
    read: onImage('datacenters.name', (i) => (i.datacenters ?? []).map((d) => d.name).sort(), {
      unsetFollowsApi: true,
    }),
  },
  /**
   * Capture every disk of the guest but its swap (true) or its boot disk alone (false, the
   * default), as `slcli vs capture --all`; a change captures a new template.
   */
  includeAdditionalDisks: {
    type: types.boolean,
    input: 'optional',
    default: false,
    rule: rules.flag(),
    change: 'replace',
  },
  /** How long a create waits for the capture to finish, in minutes. */
  readyTimeoutMinutes: {
    type: types.integer,
    input: 'optional',
    default: 30,
    rule: rules.integer({ min: 1, max: 720 }),
    change: 'local',
  },
  /** The numeric id (the resource id is the same number as a string). */
  templateId: { type: types.integer, output: true, read: onImage('id', (i) => i.id) },
  /** What a guest's `imageTemplateId` takes: the template's global identifier. */
  globalIdentifier: {
    type: types.string,
    output: true,
    read: onImage('globalIdentifier', (i) => i.globalIdentifier),
  },
  /** `ACTIVE` once captured. */
  status: {
    type: types.string,
    output: true,
    read: onImage('status.keyName', (i) => i.status?.keyName),
  },
  /** The captured disks' total size, in GB. */
  diskSpaceGb: {
    type: types.number,
    output: true,
    read: onImage('blockDevicesDiskSpaceTotal', (i) =>
      i.blockDevicesDiskSpaceTotal === undefined
        ? undefined
        : Number(i.blockDevicesDiskSpaceTotal) / 1024 ** 3,
    ),
  },
  /** When the capture started. */
  createDate: {
    type: types.nullable(types.string),
    output: true,
    read: onImage('createDate', (i) => i.createDate ?? null),
  },
} satisfies Fields;

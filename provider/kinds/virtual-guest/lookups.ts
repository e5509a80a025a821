import { checkIdOrName } from '../../lookups/args';
import { byIdOrName } from '../../lookups/account';
import {
  BOOLEAN,
  ID,
  STRING,
  defineLookups,
  lookup,
  objectType,
  prop,
  type ArgsOf,
} from '../../lookups/define';
import { SvcError } from '../../client/errors';
import type { GuestInputs } from './inputs';
import { computedOutputs, observedInputs, type GuestOutputs } from './observe';
import { guestPrice } from './pricing';
import { GUEST_FIELDS } from './fields';
import type { Fields } from '../../framework/fields';
import { DETAIL_MASK, VirtualGuestManager, type VirtualGuest } from '../../managers';
import type { Client } from '../../client';

/** The inputs a lookup reports: what a `VirtualGuest` resource would declare to have the guest. */
const RESULT_INPUTS = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'flavorKeyName',
  'hourlyBillingFlag',
  'transientGuestFlag',
  'localDiskFlag',
  'operatingSystemReferenceCode',
  'datacenter',
  'networkSpeed',
  'disks',
  'privateNetworkOnly',
  'dedicatedHostId',
  'dedicatedAccountHostOnlyFlag',
  'tags',
  'notes',
  'userData',
  'sshKeyIds',
] as const satisfies readonly (keyof GuestInputs)[];

/** The fields of a `VirtualGuest` resource's outputs, read from the guest as it is now. */
export type VirtualGuestResult = Pick<GuestInputs, (typeof RESULT_INPUTS)[number]> &
  GuestOutputs & {
    /** The guest's id (its `guestId`). */
    id: number;
    createDate: string | null;
  };

/** What only the API computes: the resource's outputs that are not inputs. */
const COMPUTED = Object.entries(GUEST_FIELDS as Fields)
  .filter(([, field]) => field.output === true && !('input' in field))
  .map(([name]) => name);

const RESULT = objectType<VirtualGuestResult>({
  name: 'VirtualGuestResult',
  description: 'A guest with the fields a `VirtualGuest` resource outputs.',
  properties: {
    id: prop(ID, "The guest's id (its `guestId`).", { required: true }),
    createDate: prop(STRING, 'When it was ordered (ISO 8601).'),
  },
  fromKind: { kind: 'VirtualGuest', fields: [...RESULT_INPUTS, ...COMPUTED] },
});

const INPUTS = {
  ...byIdOrName('guest'),
  mostRecent: prop(
    BOOLEAN,
    'When several guests have that hostname and domain, take the newest (else it is an error listing them).',
  ),
};

export type GetVirtualGuestArgs = ArgsOf<typeof INPUTS>;

const MASK = `${DETAIL_MASK},createDate`;

const created = (guest: VirtualGuest) => Date.parse(guest.createDate ?? '') || 0;

function pick(guests: VirtualGuest[], name: string, mostRecent: boolean): VirtualGuest {
  if (guests.length === 0) throw new SvcError(`getVirtualGuest: the account has no guest ${name}`);
  const newest = [...guests].sort((a, b) => created(b) - created(a) || b.id - a.id);
  if (guests.length === 1 || mostRecent) return newest[0];
  const listed = newest
    .map((g) => `${g.id} (created ${g.createDate ?? 'unknown'}, ${g.datacenter?.name ?? '?'})`)
    .join(', ');
  throw new SvcError(
    `getVirtualGuest: ${guests.length} guests are named ${name}: ${listed}; pass mostRecent: true for the newest, or the id of one`,
  );
}

/** What a `VirtualGuest` resource would declare to have this guest, read from the guest. */
function inputsOf(guest: VirtualGuest): Omit<VirtualGuestResult, keyof GuestOutputs> {
  const read = observedInputs(guest);
  return {
    id: guest.id,
    ...(Object.fromEntries(RESULT_INPUTS.map((field) => [field, read[field]])) as Pick<
      VirtualGuestResult,
      (typeof RESULT_INPUTS)[number]
    >),
    createDate: guest.createDate ?? null,
  };
}

/** The guest, read as a `VirtualGuest` resource reads it (costs from its billing item). */
async function getVirtualGuest(
  client: Client,
  args: GetVirtualGuestArgs,
): Promise<VirtualGuestResult> {
  const manager = new VirtualGuestManager(client);
  let guest: VirtualGuest;
  if (args.id !== undefined) {
    const found = await manager.findInstance(Number(args.id), MASK);
    if (!found) throw new SvcError(`getVirtualGuest: the account has no guest with id ${args.id}`);
    guest = found;
  } else {
    const { hostname, domain } = args as Required<Pick<GetVirtualGuestArgs, 'hostname' | 'domain'>>;
    const guests = await manager.listInstances({ hostname, domain, mask: MASK });
    guest = pick(guests, `${hostname}.${domain}`, args.mostRecent === true);
  }
  const inputs = inputsOf(guest);
  return { ...inputs, ...computedOutputs(guest, await guestPrice(manager, guest, inputs)) };
}

/** The lookups of VirtualGuest (registered with the kind in kinds/index.ts). */
export const VIRTUAL_GUEST_LOOKUPS = defineLookups({
  getVirtualGuest: lookup({
    description:
      'One guest of the account, by id or by hostname and domain, with the fields a `VirtualGuest` resource outputs (costs from its billing item, as the resource does).',
    inputs: INPUTS,
    result: RESULT,
    example: {
      title: 'A guest by its name',
      name: 'web',
      args: { hostname: 'web', domain: 'example.com', mostRecent: true },
      exports: ['primaryIpAddress', 'estimatedMonthlyCost'],
    },
    check: (a, failures) => {
      checkIdOrName(failures, a, "a guest's");
      if (a.mostRecent !== undefined) failures.boolean('mostRecent', a.mostRecent);
    },
    call: getVirtualGuest,
  }),
});

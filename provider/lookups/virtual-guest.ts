import { checkIdOrName, lookupArgs } from './args';
import { SvcError } from '../client/errors';
import type { GuestInputs } from '../kinds/virtual-guest/inputs';
import { computedOutputs, observedInputs, type GuestOutputs } from '../kinds/virtual-guest/observe';
import { billedPrice, priceOrder } from '../kinds/virtual-guest/pricing';
import { DETAIL_MASK, VirtualGuestManager, type VirtualGuest } from '../managers';
import type { Client } from '../client';

export interface GetVirtualGuestArgs {
  /** The guest's id; or give `hostname` and `domain`. */
  id?: number | string;
  hostname?: string;
  domain?: string;
  /** When several guests have that hostname and domain, take the newest (else it is an error listing them). */
  mostRecent?: boolean;
}

/** The inputs a lookup reports: what a `VirtualGuest` resource would declare to have the guest. */
const RESULT_INPUTS = [
  'hostname',
  'domain',
  'startCpus',
  'maxMemory',
  'hourlyBillingFlag',
  'localDiskFlag',
  'operatingSystemReferenceCode',
  'datacenter',
  'networkSpeed',
  'disks',
  'privateNetworkOnly',
  'tags',
  'notes',
  'userData',
  'sshKeyIds',
] as const satisfies readonly (keyof GuestInputs)[];

/** The fields of a `VirtualGuest` resource's outputs, read from the guest as it is now. */
export type VirtualGuestResult = Pick<GuestInputs, (typeof RESULT_INPUTS)[number]> &
  GuestOutputs & {
    /** The resource id form of `guestId`. */
    id: string;
    createDate: string | null;
  };

const MASK = `${DETAIL_MASK},createDate`;

/** The arguments, checked by the lookups' shared rules (a ValidationError before any call). */
function checkArgs(args: unknown): GetVirtualGuestArgs {
  return lookupArgs<GetVirtualGuestArgs>(
    'getVirtualGuest',
    args,
    ['id', 'hostname', 'domain', 'mostRecent'],
    (a, failures) => {
      checkIdOrName(failures, a, "a guest's");
      if (a.mostRecent !== undefined) failures.boolean('mostRecent', a.mostRecent);
    },
  );
}

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
    id: String(guest.id),
    ...(Object.fromEntries(RESULT_INPUTS.map((field) => [field, read[field]])) as Pick<
      VirtualGuestResult,
      (typeof RESULT_INPUTS)[number]
    >),
    createDate: guest.createDate ?? null,
  };
}

/**
 * One guest of the account, by id or by hostname and domain, with the fields a `VirtualGuest`
 * resource outputs (costs from its billing item, as the resource does).
 */
export async function getVirtualGuest(
  client: Client,
  input: GetVirtualGuestArgs,
): Promise<VirtualGuestResult> {
  const args = checkArgs(input);
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
  const price = billedPrice(guest) ?? (await priceOrder(manager, inputs));
  return { ...inputs, ...computedOutputs(guest, price) };
}

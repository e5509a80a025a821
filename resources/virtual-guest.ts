import type { ArgsOf } from '../provider/framework/fields';
import { GUEST_FIELDS } from '../provider/kinds/virtual-guest/fields';
import { VIRTUAL_GUEST_LOOKUPS } from '../provider/kinds/virtual-guest/lookups';
import { programForms } from './lookup-forms';
import { resourceClass, type ResourceClass } from './resource-class';

/** The arguments of a VirtualGuest: see its field table (provider/kinds/virtual-guest/fields.ts). */
export type VirtualGuestArgs = ArgsOf<typeof GUEST_FIELDS>;

/**
 * A cloud compute instance (`Svc_Virtual_Guest`), billed while it exists. Created once through
 * `Virtual_Guest.createObject`, then hostname, domain, notes and tags change in place, CPUs,
 * memory, port speed and disks through one upgrade order (same guest, id and addresses); any
 * other change to what was ordered replaces it. `pulumi preview` prints one BILLING line per
 * change with the old and new cost.
 */
export const VirtualGuest: ResourceClass<typeof GUEST_FIELDS> = resourceClass(
  'VirtualGuest',
  GUEST_FIELDS,
);
export type VirtualGuest = InstanceType<typeof VirtualGuest>;

export type {
  GetVirtualGuestArgs,
  VirtualGuestResult,
} from '../provider/kinds/virtual-guest/lookups';
/** One guest by id or by hostname and domain, with a `VirtualGuest` resource's outputs. */
export const { getVirtualGuest, getVirtualGuestOutput } = programForms(VIRTUAL_GUEST_LOOKUPS);

import type { Connection } from '../../framework/connection';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';
import { findObject } from './account-object';
import { choices } from './placement';

/**
 * `placementGroupId`: the placement group a guest is ordered into (the order's
 * `placementGroupId`); it stays there until it is gone, so a change replaces the guest. The API
 * refuses an order into a group behind a backend router of another pod than the guest's
 * datacenter, or into a group its rule holds full; `check` says so first, naming the field.
 */

/** `Svc_Virtual_PlacementGroup` as the check reads it. */
interface PlacementGroup {
  id: number;
  name?: string;
  guestCount?: number;
  rule?: { keyName?: string } | null;
  backendRouter?: { fullyQualifiedDomainName?: string; datacenter?: { name?: string } } | null;
}

const MASK =
  'id,name,guestCount,rule.keyName,backendRouter[fullyQualifiedDomainName,datacenter.name]';

/** The most guests a group of each rule holds (the API's SPREAD rule: one host per guest, 5). */
export const RULE_LIMITS: Readonly<Record<string, number>> = { SPREAD: 5 };

interface PlacementInputs {
  placementGroupId?: unknown;
  datacenter?: unknown;
  datacenters?: unknown;
}

/**
 * The group is the account's, behind a router in the datacenter the guest is ordered in (each of
 * `datacenters`), with room for one more guest when this one is not in it yet.
 */
export async function checkPlacementGroup(
  c: Connection,
  inputs: PlacementInputs,
  olds: PlacementInputs,
  failures: Failures,
): Promise<void> {
  const id = inputs.placementGroupId;
  if (typeof id !== 'number') return;
  const field = 'placementGroupId';
  const group = await findObject<PlacementGroup>(c, 'Virtual_PlacementGroup', id, MASK);
  if (!group) {
    failures.add(field, `${field}: there is no placement group ${id} on this account`);
    return;
  }
  const named = `placement group ${id} (${JSON.stringify(group.name ?? '')})`;
  const pod = group.backendRouter?.datacenter?.name;
  const elsewhere = choices(inputs).filter((dc) => isKnown(dc) && pod !== undefined && dc !== pod);
  if (elsewhere.length > 0)
    failures.add(
      field,
      `${field}: ${named} is behind backend router ${group.backendRouter?.fullyQualifiedDomainName ?? '?'} in ${pod}, another pod than ${elsewhere.join(', ')}: order the guest in ${pod}, or use a group of its datacenter's pod`,
    );
  const rule = group.rule?.keyName ?? '';
  const limit = RULE_LIMITS[rule];
  const joining = olds.placementGroupId !== id;
  if (joining && limit !== undefined && (group.guestCount ?? 0) >= limit)
    failures.add(
      field,
      `${field}: ${named} is full: its ${rule} rule holds at most ${limit} guests and it has ${group.guestCount}`,
    );
}

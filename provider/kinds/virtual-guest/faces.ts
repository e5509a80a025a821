import { billingMode, isReclaiming, tagNames, type VirtualGuest } from '../../managers';
import { readMask } from '../../framework/fields';
import type { AdoptionFace, AuditFace, BillingFace, Props } from '../faces';
import { owedOnCancel } from './anniversary';
import { GUEST_FIELDS } from './fields';
import { PRICED_FIELDS, UPGRADE_FIELDS } from './inputs';
import { observedInputs } from './observe';
import { billedPrice } from './pricing';
import { isProviderTag, tagProvenance } from '../../framework/creation-token';
import { replacedBy } from './reload';

/**
 * The guest as the tools see it (faces.ts): priced from its cost fields, resized by an upgrade
 * order, replaced as its diff replaces it, billed by its billing item, owing the rest of a
 * monthly cycle when cancelled, its provenance in its tags.
 */

/** The fields a state records that the account can change behind Pulumi's back. */
const DRIFT_FIELDS = ['hostname', 'domain', 'startCpus', 'maxMemory', 'tags'] as const;

/**
 * What the audit reads of every guest: the drift fields and the bill, its datacenter (the
 * adoption's filters and names) and its transaction (a guest being reclaimed is left out).
 */
const AUDIT_MASK = [
  'id',
  readMask(GUEST_FIELDS, [...DRIFT_FIELDS, 'hourlyBillingFlag']),
  'billingItem.hourlyRecurringFee,billingItem.recurringFee',
  'datacenter.name,activeTransaction.transactionStatus.name',
].join(',');

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** Tags as the drift compares them: the user's own, in the API's form, sorted. */
const userTags = (tags: unknown): string[] =>
  (Array.isArray(tags) ? tags : [])
    .map((tag) => String(tag).trim().toLowerCase())
    .filter((tag) => !isProviderTag(tag))
    .sort();

function drift(recorded: Props, guest: VirtualGuest): Record<string, [unknown, unknown]> {
  const now = observedInputs(guest);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const field of DRIFT_FIELDS) {
    const then = field === 'tags' ? userTags(recorded.tags) : recorded[field];
    if (then !== undefined && JSON.stringify(then) !== JSON.stringify(now[field]))
      changes[field] = [then, now[field]];
  }
  return changes;
}

/** What this provider's tags say of a guest (the audit's orphans are those not `none`). */
const provenance: AuditFace<VirtualGuest>['provenance'] = (guest) => tagProvenance(tagNames(guest));

const AUDIT_LIST = { service: 'Account', method: 'getVirtualGuests', mask: AUDIT_MASK };

export const GUEST_BILLING: BillingFace<VirtualGuest> = {
  pricedBy: PRICED_FIELDS,
  resizedBy: UPGRADE_FIELDS,
  replacedBy,
  cost: (props) => ({
    mode: billingMode(props?.hourlyBillingFlag),
    hourly: number(props?.estimatedHourlyCost),
    monthly: number(props?.estimatedMonthlyCost),
    source: typeof props?.estimatedCostSource === 'string' ? props.estimatedCostSource : undefined,
  }),
  // `adopts`: check found the existing guest this create takes over (see the field table).
  adopts: (inputs) => inputs?.adopts !== undefined,
  owedOnCancel,
  audit: {
    list: AUDIT_LIST,
    ended: isReclaiming,
    name: (guest) => `${guest.hostname}.${guest.domain}`,
    billed: billedPrice,
    drift,
    provenance,
  },
};

/**
 * A guest is adopted only when nothing of this provider is on it: one with its tags was ordered
 * by a stack (the audit's orphan, taken over by that stack or with `adoptId`), one being
 * reclaimed is ending.
 */
export const GUEST_ADOPTION: AdoptionFace<VirtualGuest> = {
  list: AUDIT_LIST,
  adoptable: (guest) => !isReclaiming(guest) && provenance(guest) === 'none',
  name: (guest) => `${guest.hostname}-${guest.domain}`,
  nameWord: 'guest',
  describedBy: {
    datacenter: (guest) => guest.datacenter?.name ?? '',
    hostname: (guest) => guest.hostname,
    domain: (guest) => guest.domain,
    tag: tagNames,
  },
};

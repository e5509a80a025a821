import { DEDICATED_HOST_MASK, type DedicatedHost } from '../../managers';
import { owedOnCancel } from '../billing-ending';
import { isNoteMarked, isProviderTag, provenanceOf } from '../../framework/creation-token';
import type { AdoptionFace, BillingFace, Props } from '../faces';
import { REPLACING } from './fields';

/**
 * A dedicated host as the tools see it (../faces.ts), priced like a guest: from its estimated
 * cost, never resized (another size replaces it), billed by its billing item, owing the rest of
 * a monthly cycle when cancelled, ordered by this provider when it carries a creation token.
 */

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The fields a state records that the account can change behind Pulumi's back. */
const DRIFT_FIELDS = ['name', 'datacenter'] as const;

const observed = (h: DedicatedHost): Props => ({ name: h.name, datacenter: h.datacenter?.name });

export const DEDICATED_HOST_BILLING: BillingFace<DedicatedHost> = {
  pricedBy: ['datacenter', 'size', 'hourlyBilling'],
  resizedBy: [],
  replacedBy: (olds, news) => REPLACING.filter((f) => f in news && news[f] !== olds[f]),
  cost: (props) => ({
    mode: props?.hourlyBilling === false ? 'monthly' : 'hourly',
    hourly: number(props?.estimatedHourlyCost),
    monthly: number(props?.estimatedMonthlyCost),
    source: 'account',
  }),
  // `adopts`: check found the host an earlier unfinished create of this resource ordered.
  adopts: (inputs) => inputs?.adopts !== undefined,
  owedOnCancel: (client, id, now) => owedOnCancel(client, 'Virtual_DedicatedHost', id, now),
  audit: {
    list: { service: 'Account', method: 'getDedicatedHosts', mask: DEDICATED_HOST_MASK },
    ended: (h) => h.billingItem?.cancellationDate !== undefined,
    name: (h) => h.name ?? `dedicated host ${h.id}`,
    billed: (h) =>
      h.billingItem
        ? {
            hourly: Number(h.billingItem.hourlyRecurringFee ?? 0),
            monthly: Number(h.billingItem.recurringFee ?? 0),
          }
        : undefined,
    drift: (recorded, h) => {
      const now = observed(h);
      return Object.fromEntries(
        DRIFT_FIELDS.filter((f) => recorded[f] !== undefined && recorded[f] !== now[f]).map((f) => [
          f,
          [recorded[f], now[f]],
        ]),
      );
    },
    // The token is a tag written with the order; the handed mark, its notes' last line.
    provenance: (h) =>
      provenanceOf(
        (h.tagReferences ?? []).some((r) => r.tag && isProviderTag(r.tag.name)),
        isNoteMarked(h.notes),
      ),
  },
};

/**
 * A dedicated host as the audit adopts it: one no state holds, unless it carries this provider's
 * creation token (an unfinished create of a stack, which its next `up` finds), by its name,
 * described by its datacenter and name.
 */
export const DEDICATED_HOST_ADOPTION: AdoptionFace<DedicatedHost> = {
  list: DEDICATED_HOST_BILLING.audit.list,
  adoptable: (h) =>
    !DEDICATED_HOST_BILLING.audit.ended(h) && DEDICATED_HOST_BILLING.audit.provenance(h) === 'none',
  name: (h) => `dh-${h.name ?? h.id}`,
  nameWord: 'dh',
  describedBy: {
    datacenter: (h) => h.datacenter?.name ?? '',
    hostname: (h) => h.name ?? '',
  },
};

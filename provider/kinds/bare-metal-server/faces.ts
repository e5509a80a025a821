import { isCancelled, tagNames, type BareMetalServer } from '../../managers';
import { readMask } from '../../framework/fields';
import { tagProvenance } from '../../framework/creation-token';
import { userTags } from '../virtual-guest/api-forms';
import { owedOnCancel } from '../billing-ending';
import type { AdoptionFace, BillingFace, Props } from '../faces';
import { BARE_METAL_FIELDS } from './fields';
import { replacedBy } from './changes';
import { PRICED_FIELDS, costOf } from './order';
import { SERVICE } from './provider';

/**
 * A bare metal server as the tools see it (../faces.ts): priced from its estimated cost, never
 * resized in place (a change of what it is replaces it), billed by its billing item, owing the
 * rest of a monthly cycle when cancelled, ordered by this provider when it carries a creation
 * token among its tags.
 */

/** The fields a state records that the account can change behind Pulumi's back. */
const DRIFT_FIELDS = ['hostname', 'domain', 'notes', 'tags'] as const;

const AUDIT_MASK = [
  'id',
  readMask(BARE_METAL_FIELDS, [...DRIFT_FIELDS, 'hourlyBilling', 'datacenter']),
  'billingItem[id,hourlyFlag,hourlyRecurringFee,recurringFee,cancellationDate]',
].join(',');

/** The account's servers as the audit reads them, once for its billing and its adoption. */
const AUDIT_LIST = { service: 'Account', method: 'getHardware', mask: AUDIT_MASK };

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

const provenance = (s: BareMetalServer) => tagProvenance(tagNames(s));

function observed(s: BareMetalServer): Props {
  return { hostname: s.hostname, domain: s.domain, notes: s.notes || undefined, tags: userTags(s) };
}

export const BARE_METAL_BILLING: BillingFace<BareMetalServer> = {
  pricedBy: PRICED_FIELDS,
  resizedBy: [],
  replacedBy: (olds, news) => replacedBy(olds, news),
  cost: (props) => ({
    mode: props?.hourlyBilling === false ? 'monthly' : 'hourly',
    hourly: number(props?.estimatedHourlyCost),
    monthly: number(props?.estimatedMonthlyCost),
    source: 'account',
  }),
  // `adopts`: check found the server an earlier unfinished create of this resource ordered.
  adopts: (inputs) => inputs?.adopts !== undefined,
  owedOnCancel: (client, id, now) => owedOnCancel(client, SERVICE, id, now),
  audit: {
    list: AUDIT_LIST,
    ended: isCancelled,
    name: (s) => `${s.hostname}.${s.domain}`,
    billed: (s) => {
      if (!s.billingItem) return undefined;
      const cost = costOf(
        s.billingItem.hourlyFlag === true,
        s.billingItem.hourlyRecurringFee,
        s.billingItem.recurringFee,
      );
      return { hourly: cost.estimatedHourlyCost, monthly: cost.estimatedMonthlyCost };
    },
    drift: (recorded, s) => {
      const now = observed(s);
      return Object.fromEntries(
        DRIFT_FIELDS.filter(
          (f) =>
            recorded[f] !== undefined && JSON.stringify(recorded[f]) !== JSON.stringify(now[f]),
        ).map((f) => [f, [recorded[f], now[f]]]),
      );
    },
    provenance,
  },
};

/**
 * A server as the audit adopts it, by its name: any live one no state holds but those carrying
 * this provider's creation token (an unfinished create's, which its stack's next `up` takes over).
 */
export const BARE_METAL_ADOPTION: AdoptionFace<BareMetalServer> = {
  list: AUDIT_LIST,
  adoptable: (s) => !isCancelled(s) && provenance(s) === 'none',
  name: (s) => `${s.hostname}-${s.domain}`,
  nameWord: 'server',
  describedBy: {
    datacenter: (s) => s.datacenter?.name ?? '',
    hostname: (s) => s.hostname,
    domain: (s) => s.domain,
    tag: tagNames,
  },
};

import type { Client } from '../../client';
import { isNoteMarked, isProviderTag, provenanceOf } from '../../framework/creation-token';
import { owedOnCancel } from '../billing-ending';
import type { AdoptionFace, BillingFace, Props } from '../faces';
import { VLAN_MASK, type Vlan } from './api';
import { REPLACING } from './fields';

/**
 * A VLAN as the tools see it (../faces.ts): priced from its order's estimate, never resized,
 * replaced by another datacenter, network space or router, billed by its billing item by the
 * month (what a cancel still owes is the rest of its month), ordered by this provider when its
 * billing item carries a creation token. The VLANs the API assigns by itself (no billing item)
 * are neither billed nor adoptable.
 */

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
const LIST = { service: 'Account', method: 'getNetworkVlans', mask: VLAN_MASK };
const ordered = (v: Vlan) => v.billingItem !== undefined && v.billingItem !== null;
const tagged = (v: Vlan) => isProviderTag(v.billingItem?.notes ?? '');

export const VLAN_BILLING: BillingFace<Vlan> = {
  pricedBy: ['datacenter', 'networkSpace'],
  resizedBy: [],
  replacedBy: (olds, news) => REPLACING.filter((f) => f in news && news[f] !== olds[f]),
  cost: (props?: Props) => ({
    mode: 'monthly',
    hourly: number(props?.estimatedHourlyCost),
    monthly: number(props?.estimatedMonthlyCost),
    source: 'account',
  }),
  // `adopts`: check found the VLAN an earlier unfinished create of this resource ordered.
  adopts: (inputs) => inputs?.adopts !== undefined,
  owedOnCancel: (client: Client, id: number, now: number) =>
    owedOnCancel(client, 'Network_Vlan', id, now),
  audit: {
    list: LIST,
    ended: (v) => !ordered(v) || v.billingItem?.cancellationDate !== undefined,
    name: (v) => v.name || v.fullyQualifiedName || `vlan ${v.id}`,
    billed: (v) =>
      v.billingItem
        ? {
            hourly: Number(v.billingItem.hourlyRecurringFee ?? 0),
            monthly: Number(v.billingItem.recurringFee ?? 0),
          }
        : undefined,
    drift: (recorded, v) => {
      const now: Props = { name: v.name || undefined, notes: v.note || undefined };
      return Object.fromEntries(
        (['name', 'notes'] as const)
          .filter((f) => recorded[f] !== undefined && recorded[f] !== now[f])
          .map((f) => [f, [recorded[f], now[f]]]),
      );
    },
    provenance: (v) => provenanceOf(tagged(v), isNoteMarked(v.note)),
  },
};

/** A VLAN the account ordered by hand, as the audit adopts it (one of this provider's is an orphan). */
export const VLAN_ADOPTION: AdoptionFace<Vlan> = {
  list: LIST,
  adoptable: (v) => ordered(v) && !v.billingItem?.cancellationDate && !tagged(v),
  name: (v) => `vlan-${v.name || v.fullyQualifiedName || v.id}`,
  nameWord: 'vlan',
  describedBy: { datacenter: (v) => v.primaryRouter?.datacenter?.name ?? '' },
};

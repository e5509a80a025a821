import type { Client } from '../../client';
import { VOLUME_LISTS, VOLUME_MASK, type Volume, type VolumeType } from '../../managers';
import type { AdoptionFace, AuditFace, BillingFace, Props } from '../faces';
import { isNoteMarked, isProviderTag, provenanceOf } from '../../framework/creation-token';
import { BLOCK_VOLUME_FIELDS, REPLACING } from './fields';
import { UNSET } from '../../framework/fields';
import { owedOnCancel as owedOnCancelOf } from '../billing-ending';

/**
 * A volume as the tools see it (../faces.ts): priced from its estimated cost (its snapshot space
 * included), resized in place by an upgrade order (a snapshot space order for more of it), replaced by another datacenter, billing or OS format, billed by its
 * billing item, owing the rest of a monthly cycle when cancelled, ordered by this provider when
 * its order carried a creation token (the container identifier among its properties).
 */

const SIZE_FIELDS = ['capacityGb', 'tierIopsPerGb', 'iops', 'snapshotCapacityGb'] as const;
const DRIFT_FIELDS = [
  'capacityGb',
  'snapshotCapacityGb',
  'authorizedGuestIds',
  'authorizedIpAddresses',
  'snapshotSchedules',
] as const;

/** What the audit compares with a state's record: each drift field as the table reads it. */
const observed = (v: Volume): Props =>
  Object.fromEntries(
    DRIFT_FIELDS.map((f) => {
      const value = BLOCK_VOLUME_FIELDS[f].read.from(v as never);
      return [f, value === UNSET ? undefined : value];
    }),
  );

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

const owedOnCancel = (client: Client, id: number, now: number) =>
  owedOnCancelOf(client, 'Network_Storage', id, now);

/** The account's volumes of one type, read once for the audit and the adoption. */
const listOf = (type: VolumeType) => ({
  service: 'Account',
  method: VOLUME_LISTS[type],
  mask: VOLUME_MASK,
});

/** Cancelled: neither billed nor owned once its anniversary comes. */
const ended = (v: Volume) => v.billingItem?.cancellationDate !== undefined;

/**
 * Ordered by this provider: its order carried a creation token (a property of the volume); handed
 * to a state once its notes end with the handed mark.
 */
const provenance: AuditFace<Volume>['provenance'] = (v) =>
  provenanceOf(
    (v.properties ?? []).some((p) => isProviderTag(p.value)),
    isNoteMarked(v.notes),
  );

/** The face of one volume type: its audit lists only that type's volumes. */
export const volumeBilling = (type: VolumeType): BillingFace<Volume> => ({
  pricedBy: ['datacenter', ...SIZE_FIELDS, 'hourlyBilling'],
  resizedBy: SIZE_FIELDS,
  replacedBy: (olds, news) => {
    const switched = (olds.iops === undefined) !== (news.iops === undefined);
    return [
      ...REPLACING.filter((f) => f in news && news[f] !== olds[f]),
      ...(switched ? ['tierIopsPerGb', 'iops'] : []),
    ];
  },
  cost: (props) => ({
    mode: props?.hourlyBilling === true ? 'hourly' : 'monthly',
    hourly: number(props?.estimatedHourlyCost),
    monthly: number(props?.estimatedMonthlyCost),
    source: 'account',
  }),
  // `adopts`: check found the volume an earlier unfinished create of this resource ordered.
  adopts: (inputs) => inputs?.adopts !== undefined,
  owedOnCancel,
  audit: {
    list: listOf(type),
    ended,
    name: (v) => v.username,
    billed: (v) =>
      v.billingItem
        ? {
            hourly: Number(v.billingItem.hourlyRecurringFee ?? 0),
            monthly: Number(v.billingItem.recurringFee),
          }
        : undefined,
    drift: (recorded, v) => {
      const now = observed(v);
      return Object.fromEntries(
        DRIFT_FIELDS.filter(
          (f) =>
            recorded[f] !== undefined && JSON.stringify(recorded[f]) !== JSON.stringify(now[f]),
        ).map((f) => [f, [recorded[f], now[f]]]),
      );
    },
    provenance,
  },
});

/**
 * A volume as the audit adopts it: one ordered by this provider is a stack's (the audit's
 * orphan), one cancelled is ending; named by its type and user name, described by its
 * datacenter.
 */
export const volumeAdoption = (type: VolumeType): AdoptionFace<Volume> => ({
  list: listOf(type),
  adoptable: (v) => !ended(v) && provenance(v) === 'none',
  name: (v) => `${type}-${v.username}`,
  nameWord: type,
  describedBy: { datacenter: (v) => v.serviceResource?.datacenter?.name ?? '' },
});

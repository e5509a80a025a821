import type { VirtualGuest } from '../provider/managers';
import { tagNames } from '../provider/managers';
import { TOKEN_TAG_PREFIX } from '../provider/kinds/virtual-guest/inputs';
import { readMask } from '../provider/framework/fields';
import { GUEST_FIELDS } from '../provider/kinds/virtual-guest/fields';
import { kindOf } from '../provider/kinds/tokens';
import { observedInputs } from '../provider/kinds/virtual-guest/observe';
import { billedPrice } from '../provider/kinds/virtual-guest/pricing';
import { OWNED_TAG } from '../provider/kinds/virtual-guest/provenance';
import type { ImportEntry } from './adopt';
import type { StateResource } from './pulumi';

/**
 * `pulumi-svc audit`: the account's guests held against the states of the given stacks.
 * - orphans: guests that carry this provider's provenance (a `pulumi-svc-` tag, set atomically
 *   with the order) but whose id is in no state: billed, and no stack will ever delete them.
 *   `unfinished` ones were never handed to a state (no owned tag: a create that died after its
 *   order; the next `up` of that stack takes it over); the others were, and were dropped since;
 * - gone: state entries whose guest the account no longer has;
 * - drift: guests whose size, names or tags differ from what their state recorded, or whose bill
 *   differs from the cost the state recorded (with both monthly amounts);
 * - unowned: guests, keys, zones and records no stack owns (adopt.ts), as the entries of the
 *   bulk import file that adopts them.
 */

/** The fields a state records that the account can change behind Pulumi's back. */
const DRIFT_FIELDS = ['hostname', 'domain', 'startCpus', 'maxMemory', 'tags'] as const;

/** What the audit reads of every guest of the account. */
export const AUDIT_MASK = `id,${readMask(GUEST_FIELDS, [...DRIFT_FIELDS, 'hourlyBillingFlag'])},billingItem.hourlyRecurringFee,billingItem.recurringFee`;

export interface StackState {
  stack: string;
  resources: StateResource[];
}

export interface Orphan {
  id: number;
  fqdn: string;
  hourlyCost: number | undefined;
  /** Ordered by a create that never finished (see the module comment). */
  unfinished: boolean;
}

export interface Gone {
  stack: string;
  urn: string;
  id: string;
}

export interface Drift {
  stack: string;
  urn: string;
  id: number;
  /** field: [recorded in the state, now in the account] */
  changes: Record<string, [unknown, unknown]>;
  /** What the state recorded the guest costs a month and what its billing item bills now, when they differ. */
  cost?: CostDrift;
}

export interface CostDrift {
  recordedMonthly: number;
  billedMonthly: number;
  monthlyDelta: number;
}

/** The guest's bill now against the state's record (an upgrade or a price change behind Pulumi). */
function costDrift(recorded: Record<string, unknown>, guest: VirtualGuest): CostDrift | undefined {
  const then = recorded.estimatedMonthlyCost;
  const now = billedPrice(guest)?.monthly;
  if (typeof then !== 'number' || now === undefined) return undefined;
  const monthlyDelta = Math.round((now - then) * 100) / 100;
  return monthlyDelta === 0
    ? undefined
    : { recordedMonthly: then, billedMonthly: now, monthlyDelta };
}

export interface AuditReport {
  stacks: string[];
  guests: number;
  orphans: Orphan[];
  gone: Gone[];
  drift: Drift[];
  /** What no audited stack owns (narrowed by the filters), as import-file entries. */
  unowned: ImportEntry[];
}

const normalTags = (tags: unknown): string[] =>
  (Array.isArray(tags) ? tags : [])
    .map((tag) => String(tag).trim().toLowerCase())
    .filter((tag) => !tag.startsWith(TOKEN_TAG_PREFIX))
    .sort();

/** What the guest is billed an hour, as its billing item says (a monthly fee spread over the month). */
const hourlyCost = (guest: VirtualGuest): number | undefined => billedPrice(guest)?.hourly;

/** Those fields as the guest shows them now (the field table's read-backs). */
function observed(guest: VirtualGuest): Record<string, unknown> {
  const now = observedInputs(guest);
  return Object.fromEntries(DRIFT_FIELDS.map((field) => [field, now[field]]));
}

export function audit(
  states: StackState[],
  guests: VirtualGuest[],
  unowned: ImportEntry[] = [],
): AuditReport {
  const live = new Map(guests.map((guest) => [String(guest.id), guest]));
  const owned = new Set<string>();
  const gone: Gone[] = [];
  const drift: Drift[] = [];
  for (const { stack, resources } of states) {
    for (const resource of resources) {
      if (kindOf(resource.type) !== 'VirtualGuest' || !resource.id) continue;
      owned.add(resource.id);
      const guest = live.get(resource.id);
      if (!guest) {
        gone.push({ stack, urn: resource.urn, id: resource.id });
        continue;
      }
      const recorded = resource.outputs ?? {};
      const changes: Drift['changes'] = {};
      for (const [field, now] of Object.entries(observed(guest))) {
        const then = field === 'tags' ? normalTags(recorded.tags) : recorded[field];
        if (then !== undefined && JSON.stringify(then) !== JSON.stringify(now))
          changes[field] = [then, now];
      }
      const cost = costDrift(recorded, guest);
      if (Object.keys(changes).length > 0 || cost)
        drift.push({ stack, urn: resource.urn, id: guest.id, changes, ...(cost ? { cost } : {}) });
    }
  }
  const orphans = guests
    .filter((guest) => !owned.has(String(guest.id)))
    .filter((guest) => tagNames(guest).some((tag) => tag.startsWith(TOKEN_TAG_PREFIX)))
    .map((guest) => ({
      id: guest.id,
      fqdn: `${guest.hostname}.${guest.domain}`,
      hourlyCost: hourlyCost(guest),
      unfinished: !tagNames(guest).includes(OWNED_TAG),
    }));
  return {
    stacks: states.map((s) => s.stack),
    guests: guests.length,
    orphans,
    gone,
    drift,
    unowned,
  };
}

const name = (urn: string) => urn.split('::').pop() ?? urn;

/** The unowned objects, counted per kind: `3 VirtualGuest, 1 DnsZone`. */
const perKind = (entries: ImportEntry[]) =>
  [...new Set(entries.map((e) => e.type))]
    .map((type) => `${entries.filter((e) => e.type === type).length} ${type.split(':').pop()}`)
    .join(', ');

/** What no stack owns, and how to adopt it (`importFile`: where its import file was written). */
function unownedSection(unowned: ImportEntry[], importFile: string | undefined): string[] {
  const adopt = importFile
    ? [
        `  Written to ${importFile}: \`pulumi import --file ${importFile}\` in the stack that adopts them`,
        '  (on the provider plugin) writes their program; remove `protect` where the stack may delete one.',
      ]
    : [
        '  `pulumi-svc audit --import-file adopt.json` writes the file `pulumi import --file` adopts them from.',
      ];
  return [
    '',
    `Objects no audited stack owns (${unowned.length}: ${perKind(unowned)}):`,
    ...unowned.map((e) => `  ${e.type.split(':').pop()}  ${e.id}  ${e.name}`),
    ...adopt,
  ];
}

/** The report for people: one section per finding, and what to do about each. */
export function formatAudit(report: AuditReport, importFile?: string): string {
  const lines = [
    `Audited ${report.guests} guest(s) of the account against ${report.stacks.length} stack(s): ${report.stacks.join(', ') || '-'}`,
  ];
  const findings =
    report.orphans.length + report.gone.length + report.drift.length + report.unowned.length;
  if (findings === 0) {
    lines.push(
      'Nothing to report: every guest, key, zone and record is in a state, and matches it.',
    );
    if (importFile) lines.push(`Nothing to adopt: ${importFile} lists no resource.`);
    return lines.join('\n');
  }
  if (report.unowned.length > 0) lines.push(...unownedSection(report.unowned, importFile));
  if (report.orphans.length > 0) {
    const total = report.orphans.reduce((sum, o) => sum + (o.hourlyCost ?? 0), 0);
    lines.push(
      '',
      `Billed guests no stack owns (${report.orphans.length}, $${total.toFixed(4)}/hour):`,
      ...report.orphans.map(
        (o) =>
          `  ${o.id}  ${o.fqdn}  ${o.hourlyCost === undefined ? '-' : `$${o.hourlyCost.toFixed(4)}/hour`}` +
          `  ${o.unfinished ? 'unfinished create' : 'dropped from its stack'}`,
      ),
      '  An unfinished create is taken over by the next `pulumi up` of its stack (no new order) if that',
      '  resource is still declared as it was ordered; otherwise adopt it with `adoptId` or cancel it.',
      '  Take the others over with `adoptId`, or cancel them if nothing needs them.',
    );
  }
  if (report.gone.length > 0) {
    lines.push(
      '',
      `State entries whose guest is gone (${report.gone.length}):`,
      ...report.gone.map((g) => `  ${g.stack}  ${name(g.urn)}  id ${g.id}`),
      '  `pulumi refresh` on those stacks drops them; the next `pulumi up` orders anew.',
    );
  }
  if (report.drift.length > 0) {
    lines.push(
      '',
      `Guests changed outside Pulumi (${report.drift.length}):`,
      ...report.drift.map(
        (d) =>
          `  ${d.stack}  ${name(d.urn)}  id ${d.id}: ` +
          [
            ...Object.entries(d.changes).map(
              ([field, [then, now]]) =>
                `${field} ${JSON.stringify(then)} -> ${JSON.stringify(now)}`,
            ),
            ...(d.cost
              ? [
                  `billed $${d.cost.recordedMonthly.toFixed(2)} -> $${d.cost.billedMonthly.toFixed(2)}/month (${d.cost.monthlyDelta >= 0 ? '+' : '-'}$${Math.abs(d.cost.monthlyDelta).toFixed(2)})`,
                ]
              : []),
          ].join(', '),
      ),
      '  `pulumi refresh` records what is there; `pulumi up` then puts back what the program declares.',
    );
  }
  return lines.join('\n');
}

import type { ApiObject, Props } from '../provider/kinds/faces';
import type { ImportEntry, Leftover } from './adopt';
import { BILLING_FACES, billedKind, faceOf, type BillingFaces } from './billed-kinds';
import type { StackState } from './pulumi';

/**
 * `pulumi-svc audit`: the account's objects of every billed kind (each kind's audit face)
 * held against the states of the given stacks.
 * - orphans: objects that carry this provider's provenance (for a guest, a `pulumi-svc-` tag set
 *   atomically with the order) but whose id is in no state: billed, and no stack will ever
 *   delete them. `unfinished` ones were never handed to a state (a create that died after its
 *   order; the next `up` of that stack takes it over); the others were, and were dropped since;
 * - gone: state entries whose object the account no longer has;
 * - drift: objects whose fields differ from what their state recorded, or whose bill differs
 *   from the cost the state recorded (with both monthly amounts);
 * - unowned: guests, keys, zones and records no stack owns (adopt.ts), as the entries of the
 *   bulk import file that adopts them;
 * - leftovers: objects of the kinds that bill nothing that an unfinished create left (its
 *   creation token still in a text field) and no stack owns: never adopted, so listed apart.
 */

/** The account's objects of each billed kind, as its audit face lists them. */
export type BilledObjects = Readonly<Record<string, readonly ApiObject[]>>;

export interface Orphan {
  kind: string;
  id: number;
  /** How its kind names it (a guest: its FQDN). */
  fqdn: string;
  hourlyCost: number | undefined;
  /** Ordered by a create that never finished (see the module comment). */
  unfinished: boolean;
}

export interface Gone {
  kind: string;
  stack: string;
  urn: string;
  id: string;
}

export interface Drift {
  kind: string;
  stack: string;
  urn: string;
  id: number;
  /** field: [recorded in the state, now in the account] */
  changes: Record<string, [unknown, unknown]>;
  /** What the state recorded the object costs a month and what its billing item bills now, when they differ. */
  cost?: CostDrift;
}

export interface CostDrift {
  recordedMonthly: number;
  billedMonthly: number;
  monthlyDelta: number;
}

/** The bill now against the state's record (an upgrade or a price change behind Pulumi). */
function costDrift(
  recorded: Props,
  billed: { monthly: number } | undefined,
): CostDrift | undefined {
  const then = recorded.estimatedMonthlyCost;
  const now = billed?.monthly;
  if (typeof then !== 'number' || now === undefined) return undefined;
  const monthlyDelta = Math.round((now - then) * 100) / 100;
  return monthlyDelta === 0
    ? undefined
    : { recordedMonthly: then, billedMonthly: now, monthlyDelta };
}

export interface AuditReport {
  stacks: string[];
  /** How many objects of the billed kinds the account has (the key's name is from when only guests were). */
  guests: number;
  orphans: Orphan[];
  gone: Gone[];
  drift: Drift[];
  /** What no audited stack owns (narrowed by the filters), as import-file entries. */
  unowned: ImportEntry[];
  /** What an unfinished create left of a kind that bills nothing, in no audited state. */
  leftovers: Leftover[];
}

/** What the audit found of the adoptable kinds (adopt.ts). */
export type AdoptionFindings = Pick<AuditReport, 'unowned' | 'leftovers'>;

export function audit(
  states: StackState[],
  objects: BilledObjects,
  adoption: Partial<AdoptionFindings> = {},
  faces: BillingFaces = BILLING_FACES,
): AuditReport {
  const key = (kind: string, id: string | number) => `${kind}:${id}`;
  const live = new Map(
    Object.entries(objects).flatMap(([kind, list]) =>
      list.map((object) => [key(kind, object.id), object] as const),
    ),
  );
  const owned = new Set<string>();
  const gone: Gone[] = [];
  const drift: Drift[] = [];
  for (const { stack, resources } of states) {
    for (const resource of resources) {
      const billed = billedKind(resource.type, faces);
      if (!billed || !resource.id) continue;
      const { kind, face } = billed;
      owned.add(key(kind, resource.id));
      const object = live.get(key(kind, resource.id));
      if (!object) {
        gone.push({ kind, stack, urn: resource.urn, id: resource.id });
        continue;
      }
      const recorded = resource.outputs ?? {};
      const changes = face.audit.drift(recorded, object);
      const cost = costDrift(recorded, face.audit.billed(object));
      if (Object.keys(changes).length > 0 || cost)
        drift.push({
          kind,
          stack,
          urn: resource.urn,
          id: object.id,
          changes,
          ...(cost ? { cost } : {}),
        });
    }
  }
  const orphans = Object.entries(objects).flatMap(([kind, list]) => {
    const face = faceOf(kind, faces)?.audit;
    if (!face) return [];
    return list.flatMap((object) => {
      const provenance = face.provenance(object);
      if (owned.has(key(kind, object.id)) || provenance === 'none') return [];
      const hourlyCost = face.billed(object)?.hourly;
      return [
        {
          kind,
          id: object.id,
          fqdn: face.name(object),
          hourlyCost,
          unfinished: provenance === 'unfinished',
        },
      ];
    });
  });
  return {
    stacks: states.map((s) => s.stack),
    guests: Object.values(objects).reduce((n, list) => n + list.length, 0),
    orphans,
    gone,
    drift,
    unowned: adoption.unowned ?? [],
    leftovers: adoption.leftovers ?? [],
  };
}

/** Whether the audit found anything: an orphan, a vanished entry, drift, unowned or leftovers. */
export const hasFindings = (r: AuditReport): boolean =>
  r.orphans.length + r.gone.length + r.drift.length + r.unowned.length + r.leftovers.length > 0;

const name = (urn: string) => urn.split('::').pop() ?? urn;

/** A kind's name from an import entry's type token. */
const kindOfEntry = (entry: ImportEntry) => entry.type.split(':').pop()!;

/** Objects' kinds, counted per kind: `3 VirtualGuest, 1 DnsZone`. */
const perKind = (kinds: string[]) =>
  [...new Set(kinds)].map((k) => `${kinds.filter((x) => x === k).length} ${k}`).join(', ');

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
    `Objects no audited stack owns (${unowned.length}: ${perKind(unowned.map(kindOfEntry))}):`,
    ...unowned.map((e) => `  ${kindOfEntry(e)}  ${e.id}  ${e.name}`),
    ...adopt,
  ];
}

/** What unfinished creates left of the kinds that bill nothing, and what becomes of it. */
function leftoverSection(leftovers: Leftover[]): string[] {
  return [
    '',
    `Left by an unfinished create (${leftovers.length}: ${perKind(leftovers.map((l) => l.kind))}):`,
    ...leftovers.map((l) => `  ${l.kind}  ${l.id}  ${l.name}`),
    '  The next `pulumi up` of its stack takes each over if that resource is still declared;',
    '  otherwise delete it (it bills nothing). None is put in an import file.',
  ];
}

/** The report for people: one section per finding, and what to do about each. */
export function formatAudit(report: AuditReport, importFile?: string): string {
  const lines = [
    `Audited ${report.guests} billed object(s) of the account against ${report.stacks.length} stack(s): ${report.stacks.join(', ') || '-'}`,
  ];
  if (!hasFindings(report)) {
    lines.push(
      'Nothing to report: every guest, key, zone and record is in a state, and matches it.',
    );
    if (importFile) lines.push(`Nothing to adopt: ${importFile} lists no resource.`);
    return lines.join('\n');
  }
  if (report.unowned.length > 0) lines.push(...unownedSection(report.unowned, importFile));
  if (report.leftovers.length > 0) lines.push(...leftoverSection(report.leftovers));
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

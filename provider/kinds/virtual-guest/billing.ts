import { billingMode } from '../../managers';
import { isUnknown } from '../../framework/unknown';
import { sayOnce } from '../../framework/log';
import { REPLACE_REASONS, type GuestInputs } from './inputs';
import { choices, describeChoices } from './placement';
import type { PriceSource } from './pricing';
import { describeEnding, type Ending } from '../billing-ending';

export { describeEnding, type Ending };

/**
 * The BILLING lines of a preview: exactly one per guest whose billing changes, naming the kind
 * of change (create, replace, upgrade), the fields and the old and new hourly and monthly cost.
 * `check` announces creates and `diff` replacements and upgrades; the engine calls `check` once
 * more, with no old inputs, for the new half of a replacement, which must not print a second line.
 */
export interface BilledCost {
  estimatedHourlyCost: number;
  estimatedMonthlyCost: number;
  estimatedCostSource?: PriceSource;
}

type Priced = Partial<BilledCost> & { hourlyBillingFlag?: unknown };

const money = (value: number | undefined, digits: number) =>
  value === undefined ? '$(unpriced)' : `$${value.toFixed(digits)}`;

/** Whose price a figure is, in words: `account price`, or `list price: <reason>`. */
export function describeSource(source: unknown): string | undefined {
  if (source === 'account') return 'account price';
  return typeof source === 'string' && source.startsWith('list: ')
    ? `list price${source.slice(4)}`
    : undefined;
}

/** `$0.0515/hour ($37.60/month, account price)`, or what is not known yet. */
export function describeCost(
  inputs: Priced,
  unknown = 'unknown until its inputs are known',
): string {
  if (inputs.estimatedHourlyCost === undefined) return unknown;
  const source = describeSource(inputs.estimatedCostSource);
  return `${money(inputs.estimatedHourlyCost, 4)}/hour (${money(inputs.estimatedMonthlyCost, 2)}/month${source ? `, ${source}` : ''})`;
}

const billing = (inputs: Priced) => billingMode(inputs.hourlyBillingFlag);

const shown = (value: unknown) =>
  isUnknown(value)
    ? '(known after apply)'
    : Array.isArray(value)
      ? `[${value.join(', ')}]`
      : String(value);

function describeOrder(inputs: GuestInputs): string {
  const { startCpus, maxMemory, disks, operatingSystemReferenceCode: os } = inputs;
  const disk = disks === undefined ? '' : `, disks ${shown(disks)} GB`;
  const image = os === undefined ? `image template ${shown(inputs.imageTemplateId)}` : shown(os);
  const size =
    inputs.flavorKeyName === undefined
      ? `${shown(startCpus)} CPU, ${shown(maxMemory)} MB`
      : `flavor ${shown(inputs.flavorKeyName)}`;
  const transient =
    inputs.transientGuestFlag === true ? ' (transient: the API may reclaim it)' : '';
  return `${size}${disk}, ${image} in ${describeChoices(inputs)}${transient}`;
}

/**
 * With `datacenters`, after the price of the first choice: what each other one would bill.
 * Datacenters may be priced differently (location price groups), and an order that falls back is
 * billed the price of where it lands.
 */
export async function describeFallbacks(
  inputs: GuestInputs,
  first: BilledCost,
  priceIn: (datacenter: string) => Promise<BilledCost>,
): Promise<string> {
  const [head, ...others] = choices(inputs);
  if (others.length === 0) return '';
  const differing: string[] = [];
  for (const datacenter of others) {
    // A fallback the API will not quote must not stop the create, which may never need it.
    const cost = await priceIn(datacenter).catch((err: Error) => err);
    if (cost instanceof Error) differing.push(`${datacenter} cannot be priced (${cost.message})`);
    else if (describeCost(cost) !== describeCost(first))
      differing.push(`${datacenter} ${describeCost(cost)}`);
  }
  return differing.length === 0
    ? ` (priced in ${head}; the same in ${others.join(', ')})`
    : ` (priced in ${head}; if it falls back: ${differing.join(', ')})`;
}

/** Resources whose replacement `diff` announced in this provider process (by identity). */
const replacing = new Set<string>();
const identityOf = (inputs: { provenance?: unknown; identity?: unknown; resourceName?: unknown }) =>
  String(inputs.provenance ?? inputs.identity ?? inputs.resourceName);

/** Whether `diff` announced this resource's replacement, whose line covers the new guest. */
export const announcedAsReplacement = (inputs: GuestInputs) => replacing.has(identityOf(inputs));

/**
 * Printed by `check` for a guest about to be created (preview and up): a new order, or an
 * existing guest taken over (`adopts`: adoptId's, or the one an earlier unfinished create of this
 * resource ordered), which bills nothing new; or, when earlier creates left a conflict, nothing.
 */
export function announceCreate(
  name: string,
  inputs: GuestInputs & BilledCost,
  conflict?: string,
  fallbacks = '',
): void {
  if (announcedAsReplacement(inputs)) return; // the replace line said it
  if (conflict) {
    sayOnce(`BILLING create VirtualGuest "${name}" orders nothing: ${conflict}`);
    return;
  }
  const verb =
    inputs.adopts === undefined
      ? 'orders a new guest'
      : inputs.adoptId
        ? `adopts existing guest ${inputs.adopts} (no new order; it is billed already)`
        : `adopts guest ${inputs.adopts}, which an earlier unfinished create of it ordered (no new order; it is billed already)`;
  sayOnce(
    `BILLING create VirtualGuest "${name}" ${verb}: ${describeOrder(inputs)}; ${billing(inputs)}, ${describeCost(inputs)}${fallbacks}`,
  );
}

/**
 * Printed by `diff` when a change replaces the guest: a new guest is bought and the old one
 * cancelled, with what the old one still owes and what both cost an hour while they run together.
 */
export function announceReplace(
  name: string,
  fields: string[],
  olds: Priced,
  news: GuestInputs & Partial<BilledCost>,
  ending: Ending,
): void {
  replacing.add(identityOf(news));
  const both =
    olds.estimatedHourlyCost === undefined || news.estimatedHourlyCost === undefined
      ? ''
      : ` ${money(Math.round((olds.estimatedHourlyCost + news.estimatedHourlyCost) * 10_000) / 10_000, 4)}/hour meanwhile`;
  sayOnce(
    `BILLING replace VirtualGuest "${name}" (changed: ${fields.join(', ')}): orders a new ` +
      `${billing(news)} guest (${describeOrder(news)}) at ${describeCost(news)}, cancels the old one at ${describeCost(olds, 'unknown')} (${describeEnding(ending)}); ` +
      `both run together until the old one is cancelled,${both || ' cost unknown'} (with deleteBeforeReplace the service is down in between instead)`,
  );
  for (const field of fields.filter((f) => REPLACE_REASONS[f])) {
    sayOnce(
      `VirtualGuest "${name}" is replaced because ${field} changed: ${REPLACE_REASONS[field]}`,
    );
  }
}

/** Printed by `diff` when the size changes in place: one upgrade order, the same guest. */
export function announceUpgrade(
  name: string,
  fields: string[],
  olds: Record<string, unknown> & Priced,
  news: GuestInputs & Partial<BilledCost>,
  reboots: boolean,
): void {
  const changes = describeChanges(fields, olds, news);
  sayOnce(
    `BILLING upgrade VirtualGuest "${name}" in place (${changes.join(', ')}): ${describeCost(olds, 'unknown')} -> ${describeCost(news)}; ` +
      `same guest, id and addresses${reboots ? '; the guest reboots for the CPU or memory change' : ''}`,
  );
}

/**
 * Printed by `read` (a refresh, `pulumi preview --refresh`) when the guest's billing item bills
 * another amount than the state recorded: it was resized outside Pulumi (an upgrade order over
 * the API or the portal). `changes` names what the API shows changed (`startCpus 1 -> 2`).
 */
export function announceCostDrift(
  what: string,
  recorded: Priced,
  billed: BilledCost,
  changes: string[],
): void {
  const before = recorded.estimatedMonthlyCost;
  if (typeof before !== 'number' || Math.abs(billed.estimatedMonthlyCost - before) < 0.005) return;
  const delta = billed.estimatedMonthlyCost - before;
  const sign = delta >= 0 ? '+' : '-';
  const why =
    changes.length > 0
      ? `changed outside Pulumi: ${changes.join(', ')}`
      : 'its billing item changed outside Pulumi';
  sayOnce(
    `COST DRIFT ${what}: billed ${money(billed.estimatedMonthlyCost, 2)}/month now, the state recorded ${money(before, 2)}/month (${sign}${money(Math.abs(delta), 2)}/month); ${why}`,
  );
}

/** `startCpus 1 -> 2` for each of `fields` that differs between `olds` and `news`. */
export function describeChanges(
  fields: readonly string[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): string[] {
  return fields
    .filter((f) => JSON.stringify(olds[f] ?? null) !== JSON.stringify(news[f] ?? null))
    .map((f) => `${f} ${shown(olds[f] ?? '-')} -> ${shown(news[f] ?? '-')}`);
}

import { SvcAPIError } from '../../client';
import { changedBetween, type Rule } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import { Failures, describeValue } from '../../framework/failures';
import { containsUnknown, isUnknown } from '../../framework/unknown';
import { DATACENTER } from './rules';

/**
 * Where a guest is ordered: `datacenter`, or `datacenters`, datacenters in order of preference
 * (the IBM provider's `datacenter_choice`), tried in turn while the API answers that one has no
 * room, every order with the resource's one creation token (create.ts). Exactly one of the two is
 * given. The output `datacenter` is where the guest is; a change of either replaces the guest
 * only when that is in none of the new choices.
 */

/** The fields that say where the guest is ordered. */
const PLACEMENT = ['datacenter', 'datacenters'] as const;
export const PLACEMENT_FIELDS: readonly string[] = PLACEMENT;

/** The most alternatives a resource names. */
export const MAX_DATACENTERS = 8;

/** One datacenter name: the rule of `datacenter`, and of each item of `datacenters`. */
export const DATACENTER_RULE: Rule = rules.text({
  maxLength: 32,
  pattern: DATACENTER,
  patternRule: 'a datacenter name such as dal10',
});

function datacenterProblem(label: string, value: unknown): string | undefined {
  const failures = new Failures();
  DATACENTER_RULE.check(failures, label, value, {});
  return failures.list[0]?.reason;
}

/** `datacenters`: 1 to MAX_DATACENTERS distinct names, each valid as `datacenter` is. */
export const DATACENTERS_RULE: Rule = rules.custom((failures, name, value) => {
  const rule = { what: 'a list of datacenter names', max: MAX_DATACENTERS };
  if (!failures.items(name, value, { ...rule, item: datacenterProblem })) return;
  const names = value as unknown[];
  if (names.length === 0) failures.add(name, `${name} must name at least one datacenter, got []`);
  const twice = names.find((dc, i) => !isUnknown(dc) && names.indexOf(dc) !== i);
  if (twice !== undefined)
    failures.add(name, `${name} must name each datacenter once, got ${describeValue(twice)} twice`);
}, `1-${MAX_DATACENTERS} distinct names, each as \`datacenter\``);

const given = (value: unknown) => value !== undefined && value !== null;

/** Where a guest's properties say to order it (values not yet checked, or unknown in a preview). */
interface Placement {
  datacenter?: unknown;
  datacenters?: unknown;
}

/** Exactly one of `datacenter` and `datacenters` (a check across fields, after their rules). */
export function checkPlacement(inputs: Placement, failures: Failures): void {
  const { datacenter, datacenters } = inputs;
  if (given(datacenter) && given(datacenters)) {
    failures.add(
      'datacenters',
      `give either datacenter or datacenters, not both: got datacenter ${describeValue(datacenter)} and datacenters ${describeValue(datacenters)}`,
    );
  } else if (!given(datacenter) && !given(datacenters)) {
    failures.add(
      'datacenter',
      'datacenter (one datacenter) or datacenters (datacenters to try in order) is required',
    );
  }
}

/** The datacenters to order in, in order: `datacenters`, else `[datacenter]`. */
export function choices(inputs: Placement): string[] {
  if (Array.isArray(inputs.datacenters)) return inputs.datacenters as string[];
  return given(inputs.datacenter) ? [inputs.datacenter as string] : [];
}

/** `dal10`, or `dal10, else dal12, wdc07`. */
export function describeChoices(inputs: Placement): string {
  if (isUnknown(inputs.datacenters) || isUnknown(inputs.datacenter)) return '(known after apply)';
  const [first, ...others] = choices(inputs);
  return others.length === 0 ? String(first) : `${first}, else ${others.join(', ')}`;
}

/** Why a guest in `at` is not where the inputs may order it, or undefined when it is. */
export function placementMismatch(at: string | undefined, inputs: Placement): string | undefined {
  const allowed = choices(inputs);
  if (at === undefined || containsUnknown(allowed) || allowed.includes(at)) return undefined;
  return `datacenter ${JSON.stringify(at)} (declared ${allowed.map((dc) => JSON.stringify(dc)).join(' or ')})`;
}

/** The placement fields whose change replaces the guest (olds.datacenter: where it is). */
export function placementReplaces(olds: Placement, news: Placement): (typeof PLACEMENT)[number][] {
  const changed = changedBetween({}, olds, news, PLACEMENT).filter((field) => given(news[field]));
  if (changed.length === 0) return [];
  const at = olds.datacenter as string | undefined;
  const unknown = containsUnknown(choices(news));
  return unknown || placementMismatch(at, news) ? changed : [];
}

/** The API's answer to an order in a datacenter with no room (any API's prefix). */
export const isCapacityFault = (err: unknown): err is SvcAPIError =>
  err instanceof SvcAPIError &&
  /_Virtual_Host_Pool_Insufficient(Capacity|Resources)$/.test(String(err.faultCode));

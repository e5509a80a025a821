import type { Failures } from '../../framework/failures';
import type { Bag } from '../../framework/fields';
import { checkObjectList } from '../../framework/object-list';
import { isUnknown } from '../../framework/unknown';
import type { SecurityGroupRule, SecurityGroupRuleSpec } from '../../managers';
import { SECURITY_GROUP_RULE_FIELDS } from './rule-fields';

/**
 * A group's rules as one list: each declared rule checked by the rule table, compared with the
 * API's without regard to order or ids, and the API's made to match in place (rules that differ
 * are edited, extra ones removed, missing ones added).
 */

const RULE_KEYS = Object.keys(SECURITY_GROUP_RULE_FIELDS) as (keyof SecurityGroupRuleSpec)[];

/** A rule in its declared form: the table's fields that are set, defaults applied. */
export function declaredRule(rule: Partial<SecurityGroupRuleSpec>): SecurityGroupRuleSpec {
  const out: Bag = {};
  for (const key of RULE_KEYS) {
    const value = rule[key];
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  out.ethertype ??= 'IPv4';
  return out as unknown as SecurityGroupRuleSpec;
}

const keyOf = (rule: SecurityGroupRuleSpec) =>
  JSON.stringify(RULE_KEYS.map((k) => declaredRule(rule)[k] ?? null));

/** The same rules, in any order. */
export function sameRules(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const keys = (list: SecurityGroupRuleSpec[]) => list.map(keyOf).sort().join('\n');
  return keys(a) === keys(b);
}

/** Checks each rule with the rule table; failures are named `rules[i].field`. */
export function checkRules(value: unknown, failures: Failures): unknown {
  const checked = checkObjectList(
    SECURITY_GROUP_RULE_FIELDS,
    'rules',
    value,
    failures,
    '{ direction, protocol?, ... }',
  );
  return Array.isArray(checked)
    ? checked.map((rule) =>
        rule && typeof rule === 'object' && !isUnknown(rule) ? declaredRule(rule as Bag) : rule,
      )
    : checked;
}

/** What makes the group's rules `declared`: rules edited in place, removed and added. */
export interface RulePlan {
  edit: SecurityGroupRule[];
  remove: number[];
  add: SecurityGroupRuleSpec[];
}

export function planRules(
  declared: readonly SecurityGroupRuleSpec[],
  actual: readonly SecurityGroupRule[],
): RulePlan {
  const unused = [...actual];
  const missing: SecurityGroupRuleSpec[] = [];
  for (const want of declared) {
    const match = unused.findIndex((r) => keyOf(r) === keyOf(want));
    if (match >= 0) unused.splice(match, 1);
    else missing.push(want);
  }
  const paired = Math.min(missing.length, unused.length);
  // An edit names every field: what the rule no longer sets is sent empty.
  const cleared = Object.fromEntries(RULE_KEYS.map((k) => [k, '']));
  return {
    edit: missing.slice(0, paired).map((want, i) => ({
      ...(cleared as object),
      ...declaredRule(want),
      id: unused[i].id,
    })) as SecurityGroupRule[],
    remove: unused.slice(paired).map((r) => r.id),
    add: missing.slice(paired),
  };
}

export const isEmptyPlan = (plan: RulePlan) =>
  plan.edit.length + plan.remove.length + plan.add.length === 0;

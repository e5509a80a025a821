import { isKnown } from './unknown';
import { TOKEN_TAG_PREFIX } from './creation-token';
import { types, type Rule } from './fields';
import type { ListRule, NumberRule, StringRule } from './failures';

/**
 * The check rules of field tables (fields.ts here), each the `Failures` check of its kind plus the
 * README's wording of its limit.
 */

const n = (value: number) => value.toLocaleString('en-US');

function range({ min, max }: NumberRule): string | undefined {
  if (min !== undefined && max !== undefined) return `${n(min)}-${n(max)}`;
  if (min !== undefined) return `at least ${n(min)}`;
  return max === undefined ? undefined : `at most ${n(max)}`;
}

/** A datacenter's short name, as every kind and lookup that takes one checks it. */
export const DATACENTER_NAME: StringRule = {
  maxLength: 20,
  pattern: /^[a-z]{3}[0-9]{2}$/,
  patternRule: 'a datacenter short name such as dal10',
};

/**
 * A text field a create writes the creation token into until its handover (a security group's
 * description, a placement group's name): what a program writes there must not look like one.
 */
export const NOT_A_TOKEN: StringRule = {
  pattern: new RegExp(`^(?!${TOKEN_TAG_PREFIX})`),
  patternRule: `text not starting with ${TOKEN_TAG_PREFIX} (the provider's creation tokens)`,
};

export const rules = {
  text: (rule: StringRule = {}): Rule => ({
    check: (failures, name, value) => failures.string(name, value, rule),
    text: [
      rule.patternRule,
      rule.maxLength === undefined ? undefined : `at most ${n(rule.maxLength)} characters`,
    ]
      .filter(Boolean)
      .join(', '),
  }),
  integer: (rule: NumberRule = {}): Rule => ({
    check: (failures, name, value) => failures.integer(name, value, rule),
    text: range(rule),
  }),
  number: (rule: NumberRule = {}): Rule => ({
    check: (failures, name, value) => failures.number(name, value, rule),
    text: range(rule),
  }),
  flag: (): Rule => ({ check: (failures, name, value) => failures.boolean(name, value) }),
  list: (rule: ListRule & { text?: string }): Rule => ({
    check: (failures, name, value) => failures.items(name, value, rule),
    text: [`at most ${n(rule.max)}`, rule.text].filter(Boolean).join(', '),
  }),
  hostname: (required: boolean, also: StringRule = {}): Rule => ({
    check: (failures, name, value) => {
      if (failures.hostname(name, value, required)) failures.string(name, value, also);
    },
    text: ['one DNS label, at most 63 characters', also.patternRule].filter(Boolean).join(', '),
  }),
  domain: (required: boolean): Rule => ({
    check: (failures, name, value) => failures.domain(name, value, required),
    text: 'a domain name, at most 253 characters',
  }),
  /** One of `values` (the field's `oneOf` list); `what` names such a value in the message. */
  oneOf: (values: readonly string[], what: string): Rule => ({
    check: (failures, name, value) => void failures.oneOf(name, value as string, values, what),
    text: values.join(', '),
  }),
  /** A rule of its own; `inputs` are all the checked inputs. */
  custom: (check: Rule['check'], text?: string): Rule => ({ check, text }),
};

const ADOPT_ID = /^[1-9][0-9]*$/;

/**
 * `adoptId` of a resource that takes over an existing object of the account (`an SSH key`, `a
 * zone`): the numeric id, stored as a string; a change replaces the resource.
 */
export const adoptIdField = (object: string) => ({
  type: types.string,
  arg: types.id,
  input: 'optional' as const,
  normalise: (value: unknown) => (typeof value === 'number' ? String(value) : value),
  rule: rules.custom((failures, name, value) => {
    if (isKnown(value) && !ADOPT_ID.test(String(value))) {
      failures.add(
        name,
        `adoptId must be the numeric id of ${object} of the account, got ${JSON.stringify(value)}`,
      );
    }
  }, `the numeric id of ${object} of the account`),
  change: 'replace' as const,
});

/**
 * The fields the resource class sets on a kind whose create carries a creation token
 * (creation-token.ts): its name, its identity and the token's seed, and the token itself, which
 * `check` computes and every update keeps.
 */
export const TOKEN_FIELDS = {
  /** The Pulumi resource name (set by the resource class). */
  resourceName: {
    type: types.string,
    input: 'required' as const,
    internal: true as const,
    rule: rules.text({ maxLength: 1024 }),
  },
  /** project/stack/name of the resource. */
  identity: { type: types.string, input: 'required' as const, internal: true as const },
  /** `<organization>/<full URN>`: the seed of the creation token. */
  provenance: { type: types.string, input: 'optional' as const, internal: true as const },
  /** What finds the object of an unfinished create: computed by check and kept. */
  creationToken: {
    type: types.string,
    input: 'optional' as const,
    internal: true as const,
    normalise: () => undefined,
    keep: true as const,
  },
};

/**
 * The object a create takes over instead of ordering one (an earlier unfinished create's), found
 * by check so the preview and the billing report say so (provider/kinds/order-once.ts).
 */
export const TAKEOVER_FIELDS = {
  adopts: {
    type: types.integer,
    input: 'optional' as const,
    internal: true as const,
    // Found by check, never taken from the program.
    normalise: () => undefined,
  },
};

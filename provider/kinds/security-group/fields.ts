import {
  UNSET,
  valueType,
  types,
  readFrom,
  type ArgsOf,
  type Fields,
} from '../../framework/fields';
import { NOT_A_TOKEN, TOKEN_FIELDS, rules } from '../../framework/field-rules';
import type { SecurityGroup, SecurityGroupRuleSpec } from '../../managers';
import type { SECURITY_GROUP_RULE_FIELDS } from './rule-fields';
import { declaredRule, sameRules } from './rules';

/** Every field of a SecurityGroup, once (see framework/fields.ts). */

const onGroup = readFrom<SecurityGroup>();

/** A rule as the program declares it (the rule table's fields, with their docs). */
export type SecurityGroupRuleArgs = ArgsOf<typeof SECURITY_GROUP_RULE_FIELDS>;

const RULES_MASK =
  'rules[id,direction,ethertype,protocol,portRangeMin,portRangeMax,remoteIp,remoteGroupId]';

export const SECURITY_GROUP_FIELDS = {
  ...TOKEN_FIELDS,
  /** The group's name on the account. */
  name: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, maxLength: 100 }),
    change: 'update',
    how: '`editObject`',
    read: onGroup('name', (g) => g.name ?? ''),
  },
  /** What the group is for. */
  description: {
    type: types.string,
    input: 'optional',
    output: true,
    normalise: (value) => (value === '' ? undefined : value),
    rule: rules.text({ maxLength: 255, ...NOT_A_TOKEN }),
    change: 'update',
    how: '`editObject`',
    read: onGroup('description', (g) => g.description || UNSET),
  },
  /**
   * Every rule of the group (`direction`, `ethertype`, `protocol`, `portRangeMin`,
   * `portRangeMax`, `remoteIp` or `remoteGroupId`), in any order. The group owns its whole list:
   * a rule added or removed outside Pulumi shows as drift in `refresh` and is undone by `up`.
   */
  rules: {
    type: valueType<SecurityGroupRuleSpec[]>('rule[]'),
    arg: valueType<SecurityGroupRuleArgs[]>('rule[]'),
    input: 'optional',
    output: true,
    default: [],
    change: 'update',
    how: '`editRules`, `removeRules`, `addRules` to match',
    read: onGroup(RULES_MASK, (g) => (g.rules ?? []).map(declaredRule), { same: sameRules }),
  },

  /** The numeric id, for a guest's `securityGroupIds` (the resource id is the same number). */
  groupId: { type: types.integer, output: true, read: onGroup('id', (g) => g.id) },
  /** The network components the group is bound to now (guests' interfaces). */
  boundComponentIds: {
    type: types.list(types.integer),
    output: true,
    read: onGroup('networkComponentBindings.networkComponentId', (g) =>
      (g.networkComponentBindings ?? []).map((b) => b.networkComponentId),
    ),
  },
  /** When the group was created. */
  createDate: {
    type: types.nullable(types.string),
    output: true,
    read: onGroup('createDate', (g) => g.createDate ?? null),
  },
} satisfies Fields;

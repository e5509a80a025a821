import { types, readFrom, type Fields } from '../../framework/fields';
import { DATACENTER_NAME, NOT_A_TOKEN, TOKEN_FIELDS, rules } from '../../framework/field-rules';

/** Every field of a PlacementGroup, once (see framework/fields.ts). */

/** `Svc_Virtual_PlacementGroup` as the kind reads it. */
export interface PlacementGroup {
  id: number;
  name?: string;
  backendRouterId?: number;
  createDate?: string;
  backendRouter?: {
    id: number;
    fullyQualifiedDomainName?: string;
    topLevelLocation?: { name: string };
  };
  rule?: { id: number; keyName: string };
  guests?: { id: number; hostname?: string }[];
}

export const PLACEMENT_GROUP_MASK =
  'id,name,backendRouterId,createDate,backendRouter[id,fullyQualifiedDomainName,topLevelLocation.name],rule[id,keyName],guests[id,hostname]';

const onGroup = readFrom<PlacementGroup>();

/** The rules the API offers (`Virtual_PlacementGroup_Rule.getAllObjects`). */
export const PLACEMENT_RULES = ['SPREAD'] as const;

export const PLACEMENT_GROUP_FIELDS = {
  ...TOKEN_FIELDS,
  /** The group's name on the account: one DNS label (letters, digits, hyphens). */
  name: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.hostname(true, NOT_A_TOKEN),
    change: 'update',
    how: '`editObject`',
    read: onGroup('name', (g) => g.name ?? ''),
  },
  /**
   * Datacenter short name, e.g. `dal10`: the group is made behind one of its backend routers,
   * and only guests ordered in that datacenter's pod can join it. A change replaces the group.
   */
  datacenter: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.text({ required: true, ...DATACENTER_NAME }),
    change: 'replace',
    read: onGroup(
      'backendRouter.topLevelLocation.name',
      (g) => g.backendRouter?.topLevelLocation?.name,
    ),
  },
  /**
   * The backend router (pod) to make the group behind, one `getAvailableRouters` offers in the
   * datacenter; left out, the datacenter's first. A change replaces the group.
   */
  backendRouterId: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 1 }),
    change: 'replace',
    read: onGroup('backendRouterId', (g) => g.backendRouterId, { unsetFollowsApi: true }),
  },
  /** How the group places its guests: `SPREAD`, each guest on a host of its own. A change replaces the group. */
  rule: {
    type: types.string,
    input: 'optional',
    output: true,
    default: 'SPREAD',
    rule: rules.oneOf(PLACEMENT_RULES, 'a placement rule'),
    oneOf: {
      name: 'PlacementGroupRule',
      values: PLACEMENT_RULES,
      meanings: { SPREAD: 'Each guest of the group on a host of its own.' },
    },
    change: 'replace',
    read: onGroup('rule.keyName', (g) => g.rule?.keyName),
  },

  /** The numeric id, for a guest's `placementGroupId` (the resource id is the same number). */
  placementGroupId: { type: types.integer, output: true, read: onGroup('id', (g) => g.id) },
  /** The backend router the group is behind, e.g. `bcr01a.dal10`. */
  backendRouterHostname: {
    type: types.string,
    output: true,
    read: onGroup(
      'backendRouter.fullyQualifiedDomainName',
      (g) => g.backendRouter?.fullyQualifiedDomainName,
    ),
  },
  /** The guests in the group now (they join when they are ordered). */
  guestIds: {
    type: types.list(types.integer),
    output: true,
    read: onGroup('guests.id', (g) =>
      (g.guests ?? []).map((guest) => guest.id).sort((a, b) => a - b),
    ),
  },
  /** When the group was made. */
  createDate: {
    type: types.nullable(types.string),
    output: true,
    read: onGroup('createDate', (g) => g.createDate ?? null),
  },
} satisfies Fields;

import {
  INTEGER,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
  ID,
} from '../../lookups/define';
import { DATACENTER_NAME } from '../../framework/field-rules';
import { listGroups } from './api';
import type { PlacementGroup } from './fields';

/** A group as a `PlacementGroup` resource outputs it. */
export interface PlacementGroupResult {
  id: number;
  name: string;
  datacenter?: string;
  backendRouterId?: number;
  backendRouterHostname?: string;
  rule?: string;
  guestIds: number[];
}

const RESULT = objectType<PlacementGroupResult>({
  name: 'PlacementGroupResult',
  description: 'A placement group with the fields a `PlacementGroup` resource outputs.',
  properties: { id: prop(ID, "The group's id (its `placementGroupId`).", { required: true }) },
  fromKind: {
    kind: 'PlacementGroup',
    fields: ['name', 'datacenter', 'backendRouterId', 'backendRouterHostname', 'rule', 'guestIds'],
  },
});

const result = (g: PlacementGroup): PlacementGroupResult => ({
  id: g.id,
  name: g.name ?? '',
  datacenter: g.backendRouter?.topLevelLocation?.name,
  backendRouterId: g.backendRouterId,
  backendRouterHostname: g.backendRouter?.fullyQualifiedDomainName,
  rule: g.rule?.keyName,
  guestIds: (g.guests ?? []).map((guest) => guest.id).sort((a, b) => a - b),
});

/** The lookups of PlacementGroup (registered with the kind in kinds/index.ts). */
export const PLACEMENT_GROUP_LOOKUPS = defineLookups({
  getPlacementGroups: lookup({
    description:
      "The account's placement groups with their router and the guests in them, all or those of one name or datacenter.",
    inputs: {
      name: prop(STRING, 'Only the groups of this name.'),
      datacenter: prop(STRING, 'Only the groups in this datacenter, e.g. `dal10`.'),
      backendRouterId: prop(INTEGER, 'Only the groups behind this backend router.'),
    },
    result: listOf(RESULT),
    example: {
      title: 'The placement groups of dal10',
      name: 'dal10Groups',
      args: { datacenter: 'dal10' },
      exports: ['items'],
    },
    check: (a, failures) => {
      failures.string('name', a.name, { maxLength: 63 });
      failures.string('datacenter', a.datacenter, DATACENTER_NAME);
      failures.integer('backendRouterId', a.backendRouterId, { min: 1 });
    },
    call: async (client, { name, datacenter, backendRouterId }) =>
      (await listGroups(client))
        .map(result)
        .filter(
          (g) =>
            (name === undefined || g.name === name) &&
            (datacenter === undefined || g.datacenter === datacenter) &&
            (backendRouterId === undefined || g.backendRouterId === backendRouterId),
        ),
  }),
});

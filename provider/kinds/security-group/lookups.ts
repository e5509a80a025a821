import { SecurityGroupManager, type SecurityGroup } from '../../managers';
import { ID, STRING, defineLookups, listOf, lookup, objectType, prop } from '../../lookups/define';
import { declaredRule } from './rules';

/** A group as a `SecurityGroup` resource outputs it. */
export interface SecurityGroupResult {
  id: number;
  name: string;
  description?: string;
  rules: ReturnType<typeof declaredRule>[];
  boundComponentIds: number[];
}

const RESULT = objectType<SecurityGroupResult>({
  name: 'SecurityGroupResult',
  description: 'A security group with the fields a `SecurityGroup` resource outputs.',
  properties: { id: prop(ID, "The group's id (its `groupId`).", { required: true }) },
  fromKind: {
    kind: 'SecurityGroup',
    fields: ['name', 'description', 'rules', 'boundComponentIds'],
  },
});

const result = (g: SecurityGroup): SecurityGroupResult => ({
  id: g.id,
  name: g.name ?? '',
  ...(g.description ? { description: g.description } : {}),
  rules: (g.rules ?? []).map(declaredRule),
  boundComponentIds: (g.networkComponentBindings ?? []).map((b) => b.networkComponentId),
});

/** The lookups of SecurityGroup (registered with the kind in kinds/index.ts). */
export const SECURITY_GROUP_LOOKUPS = defineLookups({
  getSecurityGroups: lookup({
    description:
      "The account's security groups with their rules and the network components bound to them, all or those of one name.",
    inputs: { name: prop(STRING, 'Only the groups of this name.') },
    result: listOf(RESULT),
    example: {
      title: 'The groups named web',
      name: 'webGroups',
      args: { name: 'web' },
      exports: ['items'],
    },
    check: (a, failures) => failures.string('name', a.name, { maxLength: 100 }),
    call: async (client, { name }) =>
      (await new SecurityGroupManager(client).listGroups())
        .filter((g) => name === undefined || g.name === name)
        .map(result),
  }),
});

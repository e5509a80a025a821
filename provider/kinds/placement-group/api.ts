import type { Client } from '../../client';
import { unlessNotFound } from '../../managers/not-found';
import { PLACEMENT_GROUP_MASK, type PlacementGroup } from './fields';

/**
 * The calls of `Svc_Virtual_PlacementGroup` the kind and its lookup make: the account's groups,
 * one group, the backend routers a datacenter offers for groups, the rules.
 */

const SERVICE = 'Virtual_PlacementGroup';

export interface BackendRouter {
  id: number;
  fullyQualifiedDomainName?: string;
  topLevelLocation?: { name: string };
}

export const listGroups = async (client: Client): Promise<PlacementGroup[]> =>
  (await client.call('Account', 'getPlacementGroups', {
    mask: PLACEMENT_GROUP_MASK,
  })) as PlacementGroup[];

export const findGroup = (client: Client, id: number): Promise<PlacementGroup | undefined> =>
  unlessNotFound(
    client.call(SERVICE, 'getObject', {
      id,
      mask: PLACEMENT_GROUP_MASK,
    }) as Promise<PlacementGroup>,
  );

/** The backend routers of `datacenter` that take placement groups. */
export async function routersIn(client: Client, datacenter: string): Promise<BackendRouter[]> {
  const routers = (await client.call(SERVICE, 'getAvailableRouters', {
    mask: 'id,fullyQualifiedDomainName,topLevelLocation.name',
  })) as BackendRouter[];
  return routers.filter((r) => r.topLevelLocation?.name === datacenter);
}

/** The id of the rule of this key name, as the API numbers it. */
export async function ruleId(client: Client, keyName: string): Promise<number> {
  const offered = (await client.call('Virtual_PlacementGroup_Rule', 'getAllObjects', {
    mask: 'id,keyName',
  })) as { id: number; keyName: string }[];
  const found = offered.find((r) => r.keyName === keyName);
  if (!found)
    throw new Error(
      `rule: the API offers no placement rule ${keyName}; it offers ${offered.map((r) => r.keyName).join(', ')}`,
    );
  return found.id;
}

export const createGroup = (
  client: Client,
  template: { name: string; backendRouterId: number; ruleId: number },
) => client.call(SERVICE, 'createObject', { args: [template] }) as Promise<PlacementGroup>;

export async function renameGroup(client: Client, id: number, name: string): Promise<void> {
  await client.call(SERVICE, 'editObject', { id, args: [{ name }] });
}

export async function deleteGroup(client: Client, id: number): Promise<void> {
  await client.call(SERVICE, 'deleteObject', { id });
}

/**
 * Placement groups: guests of one account kept apart by a rule (SPREAD: each on its own host),
 * all behind one backend router, so in one pod. A guest joins a group only when it is ordered
 * and leaves it only when it is gone; the group holds at most `MAX_GUESTS` and is deleted only
 * empty.
 */
import type { Datacenter } from '../../catalog';
import { publicFault } from '../../errors';
import { table, type RecordsOf } from '../../store';
import type { AuthedContext } from '../context';
import { PODS, routerHostname, type RouterView } from '../network/model';

export interface PlacementGroupRec {
  id: number;
  accountId: number;
  name: string;
  backendRouterId: number;
  ruleId: number;
  createDate: number;
  modifyDate: number;
}

export const tables = { placementGroups: table<PlacementGroupRec>(670001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

export interface PlacementRule {
  id: number;
  keyName: string;
  name: string;
}

/** The rules the API offers (Virtual_PlacementGroup_Rule.getAllObjects). */
export const RULES: readonly PlacementRule[] = [{ id: 1, keyName: 'SPREAD', name: 'SPREAD' }];

/** The most guests one group holds. */
export const MAX_GUESTS = 5;

/** The backend routers a group may be created behind: one per pod. */
export const BACKEND_ROUTERS: readonly RouterView[] = PODS.map((p) => p.backend);

export const routerById = (id: number) => BACKEND_ROUTERS.find((r) => r.id === id);

/** The guests in a group, reclaiming ones included (they leave once gone). */
export const guestsIn = (ctx: { store: AuthedContext['store'] }, group: PlacementGroupRec) =>
  ctx.store.by('guests', 'placementGroupId', group.id);

/**
 * Faults unless guests ordered in `datacenters` (one entry a guest) fit in the caller's group
 * `id`: the group exists on the account, its router is in the guests' pod, and it has room.
 */
export function checkPlacement(
  ctx: AuthedContext,
  id: number,
  datacenters: readonly Datacenter[],
): void {
  const group = ctx.store.get('placementGroups', id);
  if (!group || group.accountId !== ctx.account.id)
    throw publicFault(`placementGroupId: placement group ${id} does not exist on this account.`);
  const router = routerById(group.backendRouterId)!;
  const datacenter = datacenters.find((d) => d.id !== router.datacenter.id);
  if (datacenter)
    throw publicFault(
      `placementGroupId: placement group ${id} is behind backend router ${routerHostname(router)} (pod ${router.datacenter.name}.pod01); a guest ordered in ${datacenter.name} cannot join it. Order the guest in ${router.datacenter.name}, or use a group of that pod.`,
    );
  const held = guestsIn(ctx, group).length;
  if (held + datacenters.length > MAX_GUESTS)
    throw publicFault(
      `placementGroupId: placement group ${id} is full: it holds ${held} of at most ${MAX_GUESTS} guests.`,
    );
}

/**
 * Room per datacenter: a datacenter with a capacity (`Settings.datacenterCapacity`, default none:
 * unlimited) holds at most that many active guests, of every account (a guest being reclaimed
 * has left its host). An order that does not fit is refused before anything is written, with the
 * fault the real API answers for a datacenter with no room behind its router,
 * `SoftLayer_Exception_Virtual_Host_Pool_InsufficientCapacity` (named `Svc_` here like every
 * fault of this API; it was `..._InsufficientResources` before 2018).
 */
import type { Datacenter } from '../../catalog';
import { ApiFault } from '../../errors';
import type { AuthedContext } from '../context';

export const CAPACITY_FAULT = 'Svc_Exception_Virtual_Host_Pool_InsufficientCapacity';

/** Active guests (not reclaiming) in the datacenter, across accounts. */
const activeIn = (ctx: AuthedContext, datacenter: Datacenter) =>
  ctx.store.all('guests').filter((g) => g.datacenterId === datacenter.id && !g.reclaim).length;

/** Refuses `orders` (all of one call) when any datacenter lacks room for its share of them. */
export function requireRoom(
  ctx: AuthedContext,
  orders: readonly { datacenter: Datacenter; hostname: string }[],
): void {
  for (const datacenter of new Set(orders.map((o) => o.datacenter))) {
    const wanted = orders.filter((o) => o.datacenter === datacenter);
    const capacity = ctx.settings.datacenterCapacity?.[datacenter.name];
    if (capacity === undefined || activeIn(ctx, datacenter) + wanted.length <= capacity) continue;
    throw new ApiFault(
      CAPACITY_FAULT,
      `Could not place order. There are insufficient resources behind router bcr01a.${datacenter.name} to fulfill the request for the following guests: ${wanted.map((o) => o.hostname).join(', ')}.`,
    );
  }
}

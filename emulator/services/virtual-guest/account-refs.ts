/**
 * What an order names on the account, checked before anything is written: its SSH keys, the
 * security groups bound to its interfaces, its placement group (in the guests' pod, with room
 * for all of them), its dedicated host (the caller's, in the guests' datacenter, with room).
 */
import type { AuthedContext } from '../context';
import { checkHostRoom } from '../dedicated-host/model';
import { checkPlacement } from '../placement-group/model';
import { checkSecurityGroupIds } from '../security-group/model';
import { checkSshKeyIds } from '../ssh-key/model';
import type { GuestOrder } from './model';

export function checkAccountRefs(ctx: AuthedContext, orders: readonly GuestOrder[]): void {
  const placed = new Map<number, GuestOrder['datacenter'][]>();
  const onHost = new Map<number, GuestOrder[]>();
  for (const order of orders) {
    checkSshKeyIds(ctx, order.sshKeyIds);
    checkSecurityGroupIds(
      ctx,
      order.securityGroups.PUBLIC,
      'primaryNetworkComponent.securityGroupBindings',
    );
    checkSecurityGroupIds(
      ctx,
      order.securityGroups.PRIVATE,
      'primaryBackendNetworkComponent.securityGroupBindings',
    );
    if (order.placementGroupId !== undefined)
      placed.set(order.placementGroupId, [
        ...(placed.get(order.placementGroupId) ?? []),
        order.datacenter,
      ]);
    if (order.dedicatedHostId !== undefined)
      onHost.set(order.dedicatedHostId, [...(onHost.get(order.dedicatedHostId) ?? []), order]);
  }
  for (const [id, datacenters] of placed) checkPlacement(ctx, id, datacenters);
  for (const [id, hosted] of onHost) checkHostRoom(ctx, id, hosted);
}

/**
 * What an order names on the account, checked before anything is written: its SSH keys, the
 * security groups bound to its interfaces, the VLANs (and subnets) it puts them on (the
 * account's, of that interface's space, in the guest's datacenter), its placement group (in the
 * guests' pod, with room for all of them), its dedicated host (the caller's, in the guests'
 * datacenter, with room).
 */
import type { AuthedContext } from '../context';
import { checkHostRoom } from '../dedicated-host/model';
import { checkPlacement } from '../placement-group/model';
import { checkSecurityGroupIds } from '../security-group/model';
import { checkSshKeyIds } from '../ssh-key/model';
import { publicFault } from '../../errors';
import { anyVlanById } from '../network/model';
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
    checkVlans(ctx, order);
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

function checkVlans(ctx: AuthedContext, order: GuestOrder): void {
  for (const [space, chosen] of Object.entries(order.vlans ?? {})) {
    if (!chosen) continue;
    const vlan = anyVlanById(ctx.store, chosen.vlanId, ctx.now);
    if (!vlan || vlan.accountId !== ctx.account.id)
      throw publicFault(
        `${chosen.field}.id: VLAN ${chosen.vlanId} does not exist on this account.`,
      );
    if (vlan.space !== space)
      throw publicFault(
        `${chosen.field}.id: VLAN ${vlan.id} is a ${vlan.space} VLAN; this interface is ${space}.`,
      );
    if (vlan.datacenter.id !== order.datacenter.id)
      throw publicFault(
        `${chosen.field}.id: VLAN ${vlan.id} is in ${vlan.datacenter.name}; the guest is ordered in ${order.datacenter.name}.`,
      );
    if (chosen.subnetId !== undefined && chosen.subnetId !== vlan.subnetId)
      throw publicFault(
        `${chosen.field}.primarySubnet.id: subnet ${chosen.subnetId} is not a subnet of VLAN ${vlan.id}.`,
      );
  }
}

import * as pulumi from '@pulumi/pulumi';
import {
  DedicatedHost,
  PlacementGroup,
  SecurityGroup,
  VirtualGuest,
  Vlan,
  type DedicatedHostArgs,
  type PlacementGroupArgs,
  type SecurityGroupArgs,
  type VirtualGuestArgs,
  type VlanArgs,
} from 'pulumi-svc';

// From stack config (project `network`), each optional: network:group, the JSON SecurityGroup
// arguments of `web`; network:placementGroup, the PlacementGroup arguments of `spread`;
// network:vlan, the Vlan arguments of `db`; network:host, the DedicatedHost arguments of `host`;
// network:guest, the VirtualGuest arguments of `guest`, ordered on `db` (its private VLAN) and
// onto `host` when those are given.
const config = new pulumi.Config();
const group = config.getObject<SecurityGroupArgs>('group');
const placement = config.getObject<PlacementGroupArgs>('placementGroup');
const vlan = config.getObject<VlanArgs>('vlan');
const host = config.getObject<DedicatedHostArgs>('host');
const guest = config.getObject<VirtualGuestArgs>('guest');

export const groupId = group && new SecurityGroup('web', group).groupId;
export const placementGroupId =
  placement && new PlacementGroup('spread', placement).placementGroupId;
export const vlanId = vlan && new Vlan('db', vlan).vlanId;
export const hostId = host && new DedicatedHost('host', host).hostId;
export const guestId =
  guest &&
  new VirtualGuest('guest', {
    ...guest,
    ...(vlanId ? { privateVlanId: vlanId } : {}),
    ...(hostId ? { dedicatedHostId: hostId } : {}),
  }).guestId;

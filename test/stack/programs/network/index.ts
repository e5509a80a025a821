import * as pulumi from '@pulumi/pulumi';
import {
  PlacementGroup,
  SecurityGroup,
  Vlan,
  type PlacementGroupArgs,
  type SecurityGroupArgs,
  type VlanArgs,
} from 'pulumi-svc';

// From stack config (project `network`), each optional: network:group, the JSON SecurityGroup
// arguments of `web`; network:placementGroup, the PlacementGroup arguments of `spread`;
// network:vlan, the Vlan arguments of `db`.
const config = new pulumi.Config();
const group = config.getObject<SecurityGroupArgs>('group');
const placement = config.getObject<PlacementGroupArgs>('placementGroup');
const vlan = config.getObject<VlanArgs>('vlan');

export const groupId = group && new SecurityGroup('web', group).groupId;
export const placementGroupId =
  placement && new PlacementGroup('spread', placement).placementGroupId;
export const vlanId = vlan && new Vlan('db', vlan).vlanId;

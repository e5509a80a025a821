import * as pulumi from '@pulumi/pulumi';
import {
  PlacementGroup,
  SecurityGroup,
  type PlacementGroupArgs,
  type SecurityGroupArgs,
} from 'pulumi-svc';

// From stack config (project `network`), each optional: network:group, the JSON SecurityGroup
// arguments of `web`; network:placementGroup, the PlacementGroup arguments of `spread`.
const config = new pulumi.Config();
const group = config.getObject<SecurityGroupArgs>('group');
const placement = config.getObject<PlacementGroupArgs>('placementGroup');

export const groupId = group && new SecurityGroup('web', group).groupId;
export const placementGroupId =
  placement && new PlacementGroup('spread', placement).placementGroupId;

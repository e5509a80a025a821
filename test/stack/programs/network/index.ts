import * as pulumi from '@pulumi/pulumi';
import { SecurityGroup, type SecurityGroupArgs } from 'pulumi-svc';

// From stack config (project `network`): network:group, the JSON SecurityGroup arguments of `web`.
const config = new pulumi.Config();
const web = new SecurityGroup('web', config.requireObject<SecurityGroupArgs>('group'));

export const groupId = web.groupId;

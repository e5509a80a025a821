import * as pulumi from '@pulumi/pulumi';
import { DedicatedHost, type DedicatedHostArgs } from 'pulumi-svc';

// From stack config (project `dedicatedhost`): dedicatedhost:host, the JSON arguments of `host`.
const config = new pulumi.Config();
const host = new DedicatedHost('host', config.requireObject<DedicatedHostArgs>('host'));

export const hostId = host.hostId;

import * as pulumi from '@pulumi/pulumi';
import { BareMetalServer, type BareMetalServerArgs } from 'pulumi-svc';

// From stack config (project `baremetal`): baremetal:server, the JSON arguments of `server`.
const config = new pulumi.Config();
const server = new BareMetalServer('server', config.requireObject<BareMetalServerArgs>('server'));

export const serverId = server.serverId;

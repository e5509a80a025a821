import * as pulumi from '@pulumi/pulumi';
import { BlockVolume, type BlockVolumeArgs } from 'pulumi-svc';

// From stack config (project `volume`): volume:data, the JSON BlockVolume arguments of `data`.
const config = new pulumi.Config();
const data = new BlockVolume('data', config.requireObject<BlockVolumeArgs>('data'));

export const volumeId = data.volumeId;

import * as pulumi from '@pulumi/pulumi';
import { BlockVolume, FileVolume, type BlockVolumeArgs, type FileVolumeArgs } from 'pulumi-svc';

// From stack config (project `volume`): volume:data, the JSON BlockVolume arguments of `data`,
// and, when set, volume:share, the JSON FileVolume arguments of `share`.
const config = new pulumi.Config();
const data = new BlockVolume('data', config.requireObject<BlockVolumeArgs>('data'));
const share = config.getObject<FileVolumeArgs>('share');
if (share) new FileVolume('share', share);

export const volumeId = data.volumeId;

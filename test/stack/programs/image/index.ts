import * as pulumi from '@pulumi/pulumi';
import { ImageTemplate, type ImageTemplateArgs } from 'pulumi-svc';

// From stack config (project `image`): image:base, the JSON ImageTemplate arguments of `base`.
const config = new pulumi.Config();
const base = new ImageTemplate('base', config.requireObject<ImageTemplateArgs>('base'));

export const globalIdentifier = base.globalIdentifier;

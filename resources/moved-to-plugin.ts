import * as pulumi from '@pulumi/pulumi';
import { MOVED_TO_PLUGIN_CONFIG, movedToPluginMessage } from '../provider/dynamic/moved-to-plugin';

/** Throws a `RunError` (printed without a stack) on a stack `pulumi-svc migrate` moved to the plugin. */
export function assertNotMovedToPlugin(): void {
  if (pulumi.runtime.getConfig(MOVED_TO_PLUGIN_CONFIG) === undefined) return;
  throw new pulumi.RunError(movedToPluginMessage(pulumi.getStack()));
}

/**
 * The stack config `pulumi-svc migrate` sets on a stack it moved to the provider plugin. The
 * dynamic classes refuse to run on such a stack (resources/moved-to-plugin.ts): their resources
 * are no longer in its state, so every one would be ordered again, and the plugin's would be
 * left to delete. No imports: the command and the program both load this.
 */
export const MOVED_TO_PLUGIN_CONFIG = 'svc:movedToPlugin';

/** What a program on the dynamic classes says on a moved stack. */
export const movedToPluginMessage = (stack: string) =>
  `stack ${stack} was moved to the provider plugin by \`pulumi-svc migrate\` (${MOVED_TO_PLUGIN_CONFIG} is set): its resources are svc:index:<Kind> now, and this program's dynamic classes would order every one of them again. No resource of pulumi-svc was registered. Run the program written on the plugin; to go back to the dynamic classes, \`pulumi stack import --file <the backup migrate wrote>\` and \`pulumi config rm ${MOVED_TO_PLUGIN_CONFIG}\`.`;

import * as path from 'node:path';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

/** Where a project names the plugin: the launcher folder the package ships. */
export const PLUGIN_DIR = path.join(PACKAGE_ROOT, 'provider', 'plugin', 'bin');

/** The first lines of a YAML program's Pulumi.yaml that runs on this checkout's plugin. */
export const yamlOnPlugin = (name: string): string[] => [
  `name: ${name}`,
  'runtime: yaml',
  'plugins:',
  '  providers:',
  '    - name: svc',
  `      path: ${PLUGIN_DIR}`,
];

import { PLUGIN_DIR } from './projects';

/** The first lines of a YAML program's Pulumi.yaml that runs on this checkout's plugin. */
export const yamlOnPlugin = (name: string): string[] => [
  `name: ${name}`,
  'runtime: yaml',
  'plugins:',
  '  providers:',
  '    - name: svc',
  `      path: ${PLUGIN_DIR}`,
];

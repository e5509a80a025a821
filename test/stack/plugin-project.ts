import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliFixture, type CliFixture, type Emulator } from './cli';
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

type Args = Record<string, unknown>;

/**
 * A program of one resource (and, once a test imports one, a second of the same type named
 * `imported`), written for one front door: its fixture on a shared emulator, and its arguments.
 */
export interface OneKindProgram {
  fixture(emulator: Emulator): Promise<CliFixture>;
  /** `options`: the resource's options, the plugin's YAML form only (`customTimeouts`). */
  write(f: CliFixture, args: Args, imported?: Args, options?: Args): Promise<void>;
}

/** A YAML program on the plugin whose resources a test rewrites (`resources`: YAML's map). */
export interface YamlProgram {
  fixture(emulator: Emulator): Promise<CliFixture>;
  writeResources(resources: Args): void;
}

/**
 * A YAML program on the plugin, project `project`, in a temp folder removed with its fixture
 * (`placeholder`: its resources before a test writes any).
 */
export function yamlProgram(project: string, placeholder: Args): YamlProgram {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${project}-yaml-`));
  const writeResources = (resources: Args) => {
    const lines = [...yamlOnPlugin(project), `resources: ${JSON.stringify(resources)}`];
    fs.writeFileSync(path.join(dir, 'Pulumi.yaml'), `${lines.join('\n')}\n`);
  };
  return {
    fixture: async (emulator) => {
      writeResources(placeholder);
      const f = await cliFixture({ program: dir, inPlace: true, emulator });
      return {
        ...f,
        close: async () => (await f.close(), fs.rmSync(dir, { recursive: true, force: true })),
      };
    },
    writeResources,
  };
}

/**
 * The YAML form on the plugin: project `project`, resource `name` of `svc:index:<kind>`
 * (`placeholder`: the arguments before a test writes any).
 */
export function yamlOneKind(
  project: string,
  kind: string,
  name: string,
  placeholder: Args,
): OneKindProgram {
  const type = `svc:index:${kind}`;
  const resources = (args: Args, imported?: Args, options?: Args) => ({
    [name]: { type, properties: args, ...(options ? { options } : {}) },
    ...(imported ? { imported: { type, properties: imported } } : {}),
  });
  const program = yamlProgram(project, resources(placeholder));
  return {
    fixture: program.fixture,
    write: async (_f, args, imported, options) =>
      program.writeResources(resources(args, imported, options)),
  };
}

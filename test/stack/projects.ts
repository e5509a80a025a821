import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import assert from 'node:assert/strict';
import { cliFixture, hasTag, type CliFixture, type CliFixtureOptions } from './cli';

/** Where a project names the plugin: the launcher folder the package ships. */
export const PLUGIN_DIR = path.join(PACKAGE_ROOT, 'provider', 'plugin', 'bin');

/** How the examples name it: the folder `npm install pulumi-svc` puts in the project. */
const INSTALLED_PLUGIN_DIR = './node_modules/pulumi-svc/provider/plugin/bin';

/**
 * A copy of `examples/<name>` in a temp folder whose Pulumi.yaml names this checkout's plugin;
 * `files` (name -> content) replace or add files of the copy.
 */
export function exampleProject(name: string, files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  fs.cpSync(path.join(PACKAGE_ROOT, 'examples', name), dir, { recursive: true });
  const yaml = path.join(dir, 'Pulumi.yaml');
  fs.writeFileSync(yaml, fs.readFileSync(yaml, 'utf8').replace(INSTALLED_PLUGIN_DIR, PLUGIN_DIR));
  for (const [file, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

export interface FixtureGroup {
  /** A fixture running the program folder where it is; the folder is removed by `close`. */
  fixture(program: string, options?: Omit<CliFixtureOptions, 'program'>): Promise<CliFixture>;
  /** A temp folder (or file) of the group's, removed by `close`. */
  own(dir: string): string;
  /** Closes every fixture (killing what its CLI left) and removes every folder. */
  close(): Promise<void>;
}

/** The CLI fixtures of one describe block, on programs in temp folders, closed together. */
export function fixtureGroup(): FixtureGroup {
  const fixtures: CliFixture[] = [];
  const dirs: string[] = [];
  const own = (dir: string) => (dirs.push(dir), dir);
  return {
    own,
    async fixture(program, options = {}) {
      const f = await cliFixture({ ...options, program: own(program), inPlace: true });
      fixtures.push(f);
      return f;
    },
    async close() {
      await Promise.all(fixtures.map((f) => f.close()));
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const lock = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};

/** The version of a package that package-lock.json pins. */
export const lockedVersion = (name: string) => lock.packages[`node_modules/${name}`].version;

/** `name@version` at the version package-lock.json pins. */
export const pinned = (name: string) => `${name}@${lockedVersion(name)}`;

/**
 * A TypeScript Pulumi project in `dir` as a user starts one: package.json, tsconfig.json (the
 * examples'), Pulumi.yaml (`runtime: nodejs`, then `yaml` lines), and `program` as index.ts.
 */
export function writeTypeScriptProject(
  dir: string,
  name: string,
  program: string,
  yaml: string[] = [],
): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, private: true, main: 'index.ts' }),
  );
  fs.writeFileSync(
    path.join(dir, 'Pulumi.yaml'),
    [`name: ${name}`, 'runtime: nodejs', ...yaml, ''].join('\n'),
  );
  fs.cpSync(
    path.join(PACKAGE_ROOT, 'examples', 'web-tier', 'tsconfig.json'),
    path.join(dir, 'tsconfig.json'),
  );
  fs.writeFileSync(path.join(dir, 'index.ts'), program);
}

/**
 * `npm install` in a user's project of `packages` (tarballs, `name@version`) with what a
 * TypeScript Pulumi program needs, at the versions this package is tested with.
 */
export async function npmInstall(dir: string, packages: string[]): Promise<void> {
  await promisify(execFile)(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...packages,
      pinned('@pulumi/pulumi'),
      pinned('typescript'),
      pinned('@types/node'),
    ],
    { cwd: dir, timeout: 600_000 },
  );
}

/** `npm pack` of this package into `dest`, as it is published: the tarball and its files. */
export async function packPackage(dest: string): Promise<{ tarball: string; files: string[] }> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dest],
    { cwd: PACKAGE_ROOT },
  );
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(dest, packed.filename), files: packed.files.map((f) => f.path) };
}

/**
 * A YAML project in `dir` with one guest tagged `tag` on the plugin in `pluginDir` (named in its
 * Pulumi.yaml relative to the project, as the README shows it): `up` orders the guest, `destroy`
 * deletes it, through the CLI in `options.binDir` (default: the tests' CLI).
 */
export async function yamlGuestUpDestroy(
  dir: string,
  pluginDir: string,
  tag: string,
  options: Pick<CliFixtureOptions, 'binDir' | 'env'> = {},
): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'Pulumi.yaml'),
    [
      `name: ${tag}-yaml`,
      'runtime: yaml',
      'plugins:',
      '  providers:',
      '    - name: svc',
      `      path: ${path.relative(dir, pluginDir)}`,
      'resources:',
      '  web:',
      '    type: svc:index:VirtualGuest',
      '    properties:',
      `      domain: ${tag}.example.com`,
      '      datacenter: dal10',
      '      startCpus: 1',
      '      maxMemory: 1024',
      '      operatingSystemReferenceCode: UBUNTU_LATEST',
      `      tags: [${tag}]`,
    ].join('\n'),
  );
  const y = await cliFixture({ program: dir, inPlace: true, ...options });
  try {
    await y.stack.up();
    assert.equal((await y.guests(hasTag(tag))).length, 1);
    await y.stack.destroy();
    assert.deepEqual(await y.guests(hasTag(tag)), []);
  } finally {
    await y.close();
  }
}

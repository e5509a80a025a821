import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * The plugins as self-contained executables per platform (Node.js's single executable
 * applications): the provider `pulumi-resource-svc` and the budget pack's analyzer
 * `pulumi-analyzer-policy-svc`. A plugin's code and every package it uses are bundled into one
 * script, which becomes a "preparation blob" that postject injects into a copy of a Node.js
 * binary. The result runs with no Node.js installed and no package beside it.
 */

const ROOT = path.join(__dirname, '..', '..');

/** The plugins a release builds, by executable name: their entry points. */
export const PLUGINS = {
  'pulumi-resource-svc': path.join(ROOT, 'provider', 'plugin', 'main.ts'),
  'pulumi-analyzer-policy-svc': path.join(ROOT, 'policy', 'main.ts'),
} as const;
export type PluginName = keyof typeof PLUGINS;
/** The fuse every Node.js binary carries; postject flips it so the binary runs its blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** `<os>-<arch>` as Pulumi names plugin archives (linux-amd64, darwin-arm64, windows-amd64). */
export type Platform = `${'linux' | 'darwin' | 'windows'}-${'amd64' | 'arm64'}`;

export const isPlatform = (text: string): text is Platform =>
  /^(linux|darwin|windows)-(amd64|arm64)$/.test(text);

/** A plugin's archive in a release, as the engine asks for it (`pulumi plugin install`). */
export const archiveName = (plugin: PluginName, version: string, platform: Platform) =>
  `${plugin}-v${version}-${platform}.tar.gz`;

/** The executable's name inside a platform's archive. */
export const executableName = (platform: Platform, plugin: PluginName = 'pulumi-resource-svc') =>
  `${plugin}${platform.startsWith('windows-') ? '.exe' : ''}`;

/**
 * Writes the preparation blob of the provider plugin serving the schema in `schemaFile` (the
 * release's: its version and pluginDownloadURL) into `work` and returns its path. `blobNode` (a
 * Node.js binary that runs here, of the version every embedding binary has) writes it. Neither a
 * V8 snapshot nor a code cache goes in, so one blob suits every platform.
 */
export function pluginBlob(work: string, schemaFile: string, blobNode: string): Promise<string> {
  const { version } = JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as { version: string };
  const releaseSchema: Plugin = {
    name: 'release-schema',
    setup: (bundle) =>
      bundle.onResolve({ filter: /^\.\/schema\.json$/ }, () => ({ path: schemaFile })),
  };
  return seaBlob(work, 'pulumi-resource-svc', version, blobNode, [releaseSchema]);
}

/** The preparation blob of the budget pack's analyzer (its version: the release's). */
export const analyzerBlob = (work: string, version: string, blobNode: string) =>
  seaBlob(work, 'pulumi-analyzer-policy-svc', version, blobNode, []);

async function seaBlob(
  work: string,
  plugin: PluginName,
  version: string,
  blobNode: string,
  plugins: Plugin[],
): Promise<string> {
  const script = path.join(work, `${plugin}.js`);
  await build({
    entryPoints: [PLUGINS[plugin]],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // The version package.json gives at build time: there is no package.json at run time.
    define: { SVC_BUNDLED_VERSION: JSON.stringify(version) },
    // The provider serves the release's schema, not the committed one.
    plugins,
    logLevel: 'warning',
  });
  const blob = path.join(work, `${plugin}.blob`);
  const config = path.join(work, `${plugin}.sea-config.json`);
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  execFileSync(blobNode, ['--experimental-sea-config', config], { stdio: 'ignore' });
  return blob;
}

/** A copy of the Node.js binary `node` at `to`, running `blob` instead of Node's own CLI. */
export function embed(blob: string, node: string, platform: Platform, to: string): void {
  fs.copyFileSync(node, to);
  fs.chmodSync(to, 0o755);
  execFileSync(
    path.join(ROOT, 'node_modules', '.bin', 'postject'),
    [
      to,
      'NODE_SEA_BLOB',
      blob,
      '--sentinel-fuse',
      SEA_FUSE,
      ...(platform.startsWith('darwin-') ? ['--macho-segment-name', 'NODE_SEA'] : []),
    ],
    // postject's own output (progress, warnings about ELF note names) is no one's business here.
    { stdio: 'ignore' },
  );
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PLUGIN_DOWNLOAD_URL, pluginSchema } from './plugin-schema';
import {
  analyzerBlob,
  archiveName,
  embed,
  executableName,
  isPlatform,
  pluginBlob,
  type Platform,
  type PluginName,
} from './release/plugin-executable';
import { changelogSection } from './release/changelog';

/**
 * `npm run release -- --out <dir> [--plugin-download-url <url>] [--node <os>-<arch>=<node binary>]...`
 *
 * Writes a release of package.json's version into <dir>: the plugin as a self-contained
 * executable per platform (`pulumi-resource-svc-v<version>-<os>-<arch>.tar.gz`; linux-amd64 always,
 * embedding scripts/toolchain.json's Node.js; another platform for each `--node` given that
 * platform's Node.js binary of the same version), the budget pack's analyzer likewise
 * (`pulumi-analyzer-policy-svc-v<version>-<os>-<arch>.tar.gz`, with the pack's
 * PulumiPolicy.yaml, for `pulumi plugin install analyzer policy-svc`), the SDKs as their users install them
 * (scripts/pack-sdks, from a schema whose pluginDownloadURL is the given URL, default the
 * project's GitHub releases), the version's CHANGELOG.md section and SHA256SUMS.
 */

const ROOT = path.join(__dirname, '..');
const USAGE =
  'usage: npm run release -- --out <dir> [--plugin-download-url <url>] [--node <os>-<arch>=<node binary>]...';

interface Options {
  out: string;
  pluginDownloadURL: string;
  /** Node.js binaries of other platforms than linux-amd64, to embed the plugin in. */
  nodes: Map<Platform, string>;
}

function options(args: string[]): Options {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      'plugin-download-url': { type: 'string' },
      node: { type: 'string', multiple: true },
    },
    allowPositionals: true,
    strict: true,
  });
  if (!values.out || positionals.length) throw new Error(USAGE);
  const nodes = new Map<Platform, string>();
  for (const given of values.node ?? []) {
    const [platform, binary] = given.split(/=(.*)/s);
    if (!isPlatform(platform) || !binary || platform === 'linux-amd64') {
      throw new Error(
        `--node ${given}: expected <os>-<arch>=<node binary>, os linux, darwin or windows, arch amd64 or arm64 (linux-amd64 is built from scripts/toolchain.json's Node.js)`,
      );
    }
    nodes.set(platform, path.resolve(binary));
  }
  return {
    out: path.resolve(values.out),
    pluginDownloadURL: values['plugin-download-url'] ?? DEFAULT_PLUGIN_DOWNLOAD_URL,
    nodes,
  };
}

/** The folder a scripts/ensure-* script prints last. */
const ensured = (script: string) =>
  execFileSync(path.join(ROOT, 'scripts', script), { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;

/** Files besides the executable and LICENSE in a plugin's archive. */
const EXTRAS: Record<PluginName, string[]> = {
  'pulumi-resource-svc': [],
  // The pack folder a user points `--policy-pack` at: this one file names the analyzer.
  'pulumi-analyzer-policy-svc': [path.join('policy', 'PulumiPolicy.yaml')],
};

/**
 * `<plugin>-v<version>-<platform>.tar.gz` in `out`: the executable, the LICENSE and the plugin's
 * extra files, all at the archive's root (where `pulumi plugin install` unpacks them).
 */
function archive(
  out: string,
  version: string,
  platform: Platform,
  plugin: PluginName,
  executable: string,
): string {
  const name = archiveName(plugin, version, platform);
  const folder = path.dirname(executable);
  const files = ['LICENSE', ...EXTRAS[plugin]];
  for (const file of files)
    fs.copyFileSync(path.join(ROOT, file), path.join(folder, path.basename(file)));
  execFileSync('tar', [
    '-czf',
    path.join(out, name),
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-C',
    folder,
    path.basename(executable),
    ...files.map((file) => path.basename(file)),
  ]);
  return name;
}

/** SHA256SUMS of every file under `out` (paths relative to it), as `sha256sum -c` reads them. */
function writeChecksums(out: string): void {
  const files = fs
    .readdirSync(out, { recursive: true, encoding: 'utf8' })
    .filter((file) => file !== 'SHA256SUMS' && fs.statSync(path.join(out, file)).isFile())
    .sort();
  const lines = files.map(
    (file) =>
      `${createHash('sha256')
        .update(fs.readFileSync(path.join(out, file)))
        .digest('hex')}  ${file}`,
  );
  fs.writeFileSync(path.join(out, 'SHA256SUMS'), `${lines.join('\n')}\n`);
}

async function release(opts: Options): Promise<void> {
  const schema = pluginSchema(opts.pluginDownloadURL);
  const version = schema.version as string;
  // Checked first: a release without its notes is not made.
  const notes = changelogSection(fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'), version);
  fs.mkdirSync(opts.out, { recursive: true });
  if (fs.readdirSync(opts.out).length) throw new Error(`${opts.out} is not empty`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-'));
  try {
    const schemaFile = path.join(work, 'schema.json');
    fs.writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
    const linuxNode = path.join(ensured('ensure-node'), 'node');
    const blobs: [PluginName, string][] = [
      ['pulumi-resource-svc', await pluginBlob(work, schemaFile, linuxNode)],
      ['pulumi-analyzer-policy-svc', await analyzerBlob(work, version, linuxNode)],
    ];
    const nodes = new Map<Platform, string>([['linux-amd64', linuxNode], ...opts.nodes]);
    for (const [plugin, blob] of blobs) {
      for (const [platform, node] of nodes) {
        const executable = path.join(work, plugin, platform, executableName(platform, plugin));
        fs.mkdirSync(path.dirname(executable), { recursive: true });
        embed(blob, node, platform, executable);
        const name = archive(opts.out, version, platform, plugin, executable);
        console.log(path.join(opts.out, name));
      }
    }

    execFileSync(path.join(ROOT, 'scripts', 'pack-sdks'), ['--schema', schemaFile, opts.out], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    fs.copyFileSync(schemaFile, path.join(opts.out, 'schema.json'));
    fs.writeFileSync(path.join(opts.out, 'CHANGELOG.md'), notes);
    writeChecksums(opts.out);
    console.log(path.join(opts.out, 'SHA256SUMS'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// Options are read inside the promise, so a wrong one is reported like any other failure.
Promise.resolve(process.argv.slice(2))
  .then((args) => release(options(args)))
  .catch((err: Error) => {
    console.error(`release: ${err.message}`);
    process.exit(1);
  });

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PLUGIN_DOWNLOAD_URL, pluginSchema } from './plugin-schema';
import { verifyRelease, type Expected, type Publication } from './release/verify';

/**
 * `scripts/publish [--dry-run] [--tag v<version>] (--out <dir> | --release <dir>)`
 *
 * Publishes a release of package.json's version: the GitHub release `v<version>` with the
 * plugins' archives, the SDKs, schema.json and SHA256SUMS as assets; the npm packages
 * (`pulumi-svc` and the SDK `@pulumi-svc/svc`); the Python wheel and sdist on PyPI; and the Go
 * module, by the tag `sdk/v<version>`. `--out` builds the release first (`npm run release`),
 * `--release` takes one built before. Everything is checked before anything is published
 * (release/verify.ts); `--dry-run` checks and prints the commands it would run, and runs none.
 * The tag (default $GITHUB_REF_NAME, as the workflow is run by it) must be `v<version>`.
 */

const ROOT = path.join(__dirname, '..');
const USAGE =
  'usage: scripts/publish [--dry-run] [--tag v<version>] (--out <dir> | --release <dir>)';

interface Options {
  dryRun: boolean;
  tag?: string;
  dir: string;
  build: boolean;
}

function options(args: string[]): Options {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'dry-run': { type: 'boolean', default: false },
      tag: { type: 'string' },
      out: { type: 'string' },
      release: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const dir = values.out ?? values.release;
  if (!dir || (values.out && values.release) || positionals.length) throw new Error(USAGE);
  return {
    dryRun: values['dry-run'],
    tag: values.tag ?? (process.env.GITHUB_REF_NAME || undefined),
    dir: path.resolve(dir),
    build: !!values.out,
  };
}

/** What the release must be, from package.json (through the schema) and the repository. */
function expected(): Expected {
  const schema = pluginSchema() as {
    version: string;
    repository: string;
    language: {
      nodejs: { packageName: string };
      python: { packageName: string; pythonRequires: string };
      go: { importBasePath: string };
    };
  };
  return {
    version: schema.version,
    pluginDownloadURL: DEFAULT_PLUGIN_DOWNLOAD_URL,
    npmSdk: schema.language.nodejs.packageName,
    pythonSdk: schema.language.python.packageName,
    pythonRequires: schema.language.python.pythonRequires,
    goImportBasePath: schema.language.go.importBasePath,
    repository: schema.repository.replace(/^https:\/\//, ''),
  };
}

/**
 * The package `npm install pulumi-svc` gets, packed as npm publishes it (dist/ as built by `npm
 * ci`): its name and version, and every entry point package.json names inside it.
 */
function packRoot(work: string, version: string): { file: string; problems: string[] } {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { name: string; version: string; filename: string; files: { path: string }[] }[];
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    main: string;
    types: string;
    bin: Record<string, string>;
    exports: Record<string, string | Record<string, string>>;
  };
  const held = new Set(packed.files.map((f) => f.path));
  const entries = [
    pkg.main,
    pkg.types,
    ...Object.values(pkg.bin),
    ...Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))),
  ].map((entry) => path.normalize(entry));
  const problems = [
    ...(packed.name === 'pulumi-svc' ? [] : [`${packed.filename}: name must be pulumi-svc`]),
    ...(packed.version === version ? [] : [`${packed.filename}: version must be ${version}`]),
    ...entries
      .filter((entry) => !held.has(entry))
      .map(
        (entry) =>
          `${packed.filename}: package.json names ${entry}, which it does not hold (npm ci builds dist/)`,
      ),
  ];
  return { file: path.join(work, packed.filename), problems };
}

/** The commands that publish, in order: the plugin first (every SDK downloads it from there). */
function commands(dir: string, tag: string, p: Publication, rootTarball: string, commit: string) {
  const at = (file: string) => path.join(dir, file);
  return [
    [
      'gh',
      'release',
      'create',
      tag,
      '--verify-tag',
      '--title',
      tag,
      '--notes-file',
      at('CHANGELOG.md'),
      ...p.assets.map(at),
    ],
    ['npm', 'publish', rootTarball],
    ['npm', 'publish', at(p.npmSdk), '--access', 'public'],
    ['python3', '-m', 'twine', 'upload', ...p.python.map(at)],
    ['git', 'tag', p.goTag, commit],
    ['git', 'push', 'origin', `refs/tags/${p.goTag}`],
  ];
}

function publish(opts: Options): void {
  const e = expected();
  const tag = `v${e.version}`;
  // Checked first: a tag of another version publishes nothing, and builds nothing.
  if (opts.tag !== undefined && opts.tag !== tag)
    throw new Error(`the tag ${opts.tag} is not package.json's version (${tag})`);
  if (opts.build)
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts', 'release.ts'), '--out', opts.dir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-publish-'));
  try {
    const { publication, problems } = verifyRelease(opts.dir, e);
    const root = packRoot(work, e.version);
    // The Go tag publishes the committed sdk/ (which the checks compared), nothing else.
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'sdk'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const all = [
      ...problems,
      ...root.problems,
      ...(dirty
        ? [`sdk/: uncommitted changes, which the tag ${'sdk/' + tag} would not hold:\n${dirty}`]
        : []),
    ];
    if (all.length)
      throw new Error(`${all.length} problem(s), nothing published:\n  ${all.join('\n  ')}`);
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    console.log(
      `pulumi-svc ${e.version}: ${opts.dir} checked (names, versions, checksums, SDK metadata and plugin URLs, Go module ${publication.goModule})`,
    );
    console.log(`${opts.dryRun ? 'would publish' : 'publishing'}:`);
    console.log(`  GitHub release ${tag}: ${publication.assets.join(', ')}`);
    console.log(`  npm: pulumi-svc@${e.version}, ${e.npmSdk}@${e.version}`);
    console.log(`  PyPI: ${e.pythonSdk} ${e.version} (${publication.python.join(', ')})`);
    console.log(
      `  Go: tag ${publication.goTag} at ${commit}: go get ${publication.goModule}@${tag}`,
    );
    for (const [command, ...args] of commands(opts.dir, tag, publication, root.file, commit)) {
      console.log(`${opts.dryRun ? 'would run' : 'running'}: ${[command, ...args].join(' ')}`);
      if (!opts.dryRun) execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  publish(options(process.argv.slice(2)));
} catch (err) {
  console.error(`publish: ${(err as Error).message}`);
  process.exit(1);
}

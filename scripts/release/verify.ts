import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changelogSection } from './changelog';
import {
  archiveName,
  executableName,
  isPlatform,
  PLUGINS,
  type PluginName,
} from './plugin-executable';

/**
 * What `scripts/publish` checks of a release folder (`npm run release`) before it publishes, and
 * what it would publish. Every check reads the artifacts themselves, unpacked, as the registries
 * and the engine will; a problem names the file and the rule it breaks.
 */

const ROOT = path.join(__dirname, '..', '..');

/** What the release must be: package.json's version, and the schema's names and download URL. */
export interface Expected {
  version: string;
  pluginDownloadURL: string;
  /** The npm SDK's package name (`@pulumi-svc/svc`). */
  npmSdk: string;
  /** The Python SDK's distribution name (`pulumi_svc`) and its `requires-python`. */
  pythonSdk: string;
  pythonRequires: string;
  /** The Go SDK's import path (`<module>/go/svc`). */
  goImportBasePath: string;
  /** `github.com/<owner>/<name>`: where a Go module path of this repository starts. */
  repository: string;
}

/** What a release publishes. */
export interface Publication {
  /** The GitHub release `v<version>`'s assets (the files at the folder's top level). */
  assets: string[];
  /** The npm SDK's tarball; the PyPI files (wheel and sdist). */
  npmSdk: string;
  python: string[];
  /** The Go module and the tag `go get <module>@v<version>` resolves. */
  goModule: string;
  goTag: string;
}

/** A problem is `<file>: <the rule it breaks>`. */
class Problems {
  readonly list: string[] = [];
  check(ok: boolean, file: string, rule: string): boolean {
    if (!ok) this.list.push(`${file}: ${rule}`);
    return ok;
  }
  same(actual: unknown, wanted: unknown, file: string, what: string): boolean {
    const [a, w] = [JSON.stringify(actual), JSON.stringify(wanted)];
    return this.check(a === w, file, `${what} must be ${w} (is ${a ?? 'missing'})`);
  }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

/** Files under `dir`, relative to it, sorted. */
export const filesUnder = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile())
    .sort();

/**
 * Runs `use` on `archive` unpacked (tar.gz, tgz, zip or whl) into a temporary folder; an archive
 * that does not unpack is a problem of its own.
 */
function withUnpacked(p: Problems, archive: string, use: (dir: string) => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-verify-'));
  try {
    try {
      if (/\.(tar\.gz|tgz)$/.test(archive))
        execFileSync('tar', ['-xzf', archive, '-C', dir], { stdio: 'pipe' });
      else execFileSync('unzip', ['-q', archive, '-d', dir], { stdio: 'pipe' });
    } catch {
      p.check(false, path.basename(archive), 'does not unpack (a damaged archive)');
      return;
    }
    use(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const readIf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);

/** The header fields of a METADATA or PKG-INFO file (core metadata, up to the description). */
function coreMetadata(text: string | undefined): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const line of (text ?? '').split('\n')) {
    if (line === '') break;
    const match = /^([A-Za-z-]+): (.*)$/.exec(line);
    if (match) fields.set(match[1], [...(fields.get(match[1]) ?? []), match[2]]);
  }
  return fields;
}

/** PEP 503's normalized form of a Python project name. */
const pypiName = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/** The `pulumi-plugin.json` of every SDK: where the engine reads which plugin and from where. */
function checkPluginJson(p: Problems, file: string, text: string | undefined, e: Expected) {
  const wanted = { resource: true, name: 'svc', version: e.version, server: e.pluginDownloadURL };
  p.same(text === undefined ? undefined : JSON.parse(text), wanted, file, 'the plugin it names');
}

/** SHA256SUMS lists every file of the folder, each with its hash. */
function checkChecksums(p: Problems, dir: string) {
  const text = readIf(path.join(dir, 'SHA256SUMS'));
  if (!p.check(text !== undefined, 'SHA256SUMS', 'missing')) return;
  const listed = new Map(
    text!
      .trim()
      .split('\n')
      .map((line) => [line.slice(66), line.slice(0, 64)] as const),
  );
  for (const name of filesUnder(dir).filter((name) => name !== 'SHA256SUMS')) {
    if (!p.check(listed.has(name), 'SHA256SUMS', `does not list ${name}`)) continue;
    const actual = sha256(fs.readFileSync(path.join(dir, name))).toString('hex');
    p.check(listed.get(name) === actual, name, 'its SHA-256 is not the one SHA256SUMS lists');
  }
  for (const name of listed.keys())
    p.check(fs.existsSync(path.join(dir, name)), 'SHA256SUMS', `lists ${name}, which is missing`);
}

/** Each plugin's archives: the provider's platforms, linux-amd64 among them, each executable at the root. */
function checkPluginArchives(p: Problems, dir: string, names: string[], e: Expected): string[] {
  const found = new Map<string, string>(); // archive -> platform
  for (const name of names) {
    const match = /^(pulumi-[a-z-]+?)-v(\d[^-]*)-([a-z]+-[a-z0-9]+)\.tar\.gz$/.exec(name);
    if (!match || !(match[1] in PLUGINS)) continue;
    p.check(match[2] === e.version, name, `its version must be ${e.version}`);
    p.check(isPlatform(match[3]), name, `${match[3]} is not an <os>-<arch> of Pulumi's`);
    found.set(name, match[3]);
  }
  const platforms = [...new Set(found.values())].filter(isPlatform).sort();
  if (!platforms.includes('linux-amd64')) platforms.unshift('linux-amd64');
  const archives: string[] = [];
  for (const plugin of Object.keys(PLUGINS) as PluginName[]) {
    for (const platform of platforms) {
      const name = archiveName(plugin, e.version, platform);
      if (!p.check(names.includes(name), name, 'missing')) continue;
      archives.push(name);
      const wanted = [
        executableName(platform, plugin),
        'LICENSE',
        ...(plugin === 'pulumi-analyzer-policy-svc' ? ['PulumiPolicy.yaml'] : []),
      ].sort();
      withUnpacked(p, path.join(dir, name), (unpackedDir) =>
        p.same(filesUnder(unpackedDir), wanted, name, 'the files at its root'),
      );
    }
  }
  return archives;
}

/** The npm SDK's tarball: its package.json's name, version and plugin block. */
function checkNpmSdk(p: Problems, dir: string, e: Expected): string {
  const name = `${e.npmSdk.replace(/^@/, '').replace('/', '-')}-${e.version}.tgz`;
  if (!p.check(fs.existsSync(path.join(dir, name)), name, 'missing')) return name;
  withUnpacked(p, path.join(dir, name), (unpackedDir) => {
    const pkg = JSON.parse(readIf(path.join(unpackedDir, 'package', 'package.json')) ?? '{}') as {
      name?: string;
      version?: string;
      main?: string;
      types?: string;
      pulumi?: unknown;
    };
    p.same(pkg.name, e.npmSdk, name, 'package.json name');
    p.same(pkg.version, e.version, name, 'package.json version');
    checkPluginJson(p, `${name} package.json pulumi`, JSON.stringify(pkg.pulumi), e);
    // (Without `main` and `types`, node and tsc look for index.js and index.d.ts.)
    for (const entry of [pkg.main ?? 'index.js', pkg.types ?? 'index.d.ts'])
      p.check(
        fs.existsSync(path.join(unpackedDir, 'package', entry)),
        name,
        `package.json names ${entry}, which it does not hold`,
      );
  });
  return name;
}

/**
 * The wheel as pip installs it (its METADATA, the hash of every file in RECORD) and the sdist as
 * PyPI takes it (PKG-INFO): the name, version and Python floor every registry shows.
 */
function checkPython(p: Problems, dir: string, e: Expected): string[] {
  const wheel = `${e.pythonSdk}-${e.version}-py3-none-any.whl`;
  const sdist = `${e.pythonSdk}-${e.version}.tar.gz`;
  const checkCore = (file: string, text: string | undefined) => {
    const fields = coreMetadata(text);
    const one = (key: string) => fields.get(key)?.[0];
    p.check(!!one('Metadata-Version'), file, 'its metadata has no Metadata-Version');
    p.same(pypiName(one('Name') ?? ''), pypiName(e.pythonSdk), file, 'metadata Name');
    p.same(one('Version'), e.version, file, 'metadata Version');
    p.same(one('Requires-Python'), e.pythonRequires, file, 'metadata Requires-Python');
    p.check(!!one('Summary'), file, 'its metadata has no Summary');
    p.check(
      (fields.get('Requires-Dist') ?? []).some((req) => /^pulumi\b/.test(req)),
      file,
      'its metadata must require pulumi',
    );
  };
  if (p.check(fs.existsSync(path.join(dir, wheel)), wheel, 'missing'))
    withUnpacked(p, path.join(dir, wheel), (unpackedDir) => {
      const info = `${e.pythonSdk}-${e.version}.dist-info`;
      checkCore(wheel, readIf(path.join(unpackedDir, info, 'METADATA')));
      const record = readIf(path.join(unpackedDir, info, 'RECORD')) ?? '';
      const listed = new Map(
        record
          .trim()
          .split('\n')
          .map((line) => line.split(','))
          .map(([file, hash]) => [file, hash] as const),
      );
      for (const file of filesUnder(unpackedDir)) {
        if (!p.check(listed.has(file), wheel, `RECORD does not list ${file}`)) continue;
        if (file === `${info}/RECORD`) continue;
        const hash = sha256(fs.readFileSync(path.join(unpackedDir, file))).toString('base64url');
        p.same(listed.get(file), `sha256=${hash}`, wheel, `RECORD's hash of ${file}`);
      }
      checkPluginJson(
        p,
        `${wheel} ${e.pythonSdk}/pulumi-plugin.json`,
        readIf(path.join(unpackedDir, e.pythonSdk, 'pulumi-plugin.json')),
        e,
      );
    });
  if (p.check(fs.existsSync(path.join(dir, sdist)), sdist, 'missing'))
    withUnpacked(p, path.join(dir, sdist), (unpackedDir) => {
      const top = `${e.pythonSdk}-${e.version}`;
      checkCore(sdist, readIf(path.join(unpackedDir, top, 'PKG-INFO')));
      p.check(
        fs.existsSync(path.join(unpackedDir, top, 'pyproject.toml')),
        sdist,
        `no ${top}/pyproject.toml`,
      );
      checkPluginJson(
        p,
        `${sdist} ${e.pythonSdk}/pulumi-plugin.json`,
        readIf(path.join(unpackedDir, top, e.pythonSdk, 'pulumi-plugin.json')),
        e,
      );
    });
  return [wheel, sdist];
}

/**
 * Go users get the module from the repository's tag (`go get <module>@v<version>` resolves the
 * tag `sdk/v<version>` of a module in the folder `sdk/`): the module path must be that folder's
 * in the repository, with `/v<major>` from v2 on and none for v0 and v1; the committed sdk/ is
 * what the tag publishes, so it must equal the module the release built from the schema.
 */
function checkGo(p: Problems, dir: string, e: Expected): { goModule: string; goTag: string } {
  const goMod = fs.readFileSync(path.join(ROOT, 'sdk', 'go.mod'), 'utf8');
  const goModule = /^module (\S+)$/m.exec(goMod)?.[1] ?? '';
  const major = Number(e.version.split('.')[0]);
  const folder = 'sdk';
  const wanted = `${e.repository}/${folder}${major >= 2 ? `/v${major}` : ''}`;
  p.same(goModule, wanted, 'sdk/go.mod', `the module path (v${major}, folder ${folder}/)`);
  p.check(
    e.goImportBasePath.startsWith(`${goModule}/`),
    'schema.json',
    `language.go.importBasePath ${e.goImportBasePath} must be inside the module ${goModule}`,
  );
  const proxy = path.join(dir, 'go', ...goModule.split('/'), '@v');
  const versioned = `v${e.version}`;
  p.same(readIf(path.join(proxy, 'list'))?.trim(), versioned, 'go/.../@v/list', 'the versions');
  p.same(
    readIf(path.join(proxy, `${versioned}.mod`)),
    goMod,
    `go/.../@v/${versioned}.mod`,
    'its text (sdk/go.mod)',
  );
  const zip = path.join(proxy, `${versioned}.zip`);
  if (p.check(fs.existsSync(zip), `go/.../@v/${versioned}.zip`, 'missing'))
    withUnpacked(p, zip, (unpackedDir) => {
      const top = path.join(unpackedDir, ...`${goModule}@${versioned}`.split('/'));
      for (const file of filesUnder(top)) {
        if (file === 'LICENSE') continue; // the repository's, which the tag's module gets too
        p.check(
          readIf(path.join(ROOT, folder, file)) === readIf(path.join(top, file)),
          `sdk/${file}`,
          'the committed file (what the tag publishes) differs from the release’s module: regenerate sdk/',
        );
      }
      checkPluginJson(
        p,
        `${versioned}.zip go/svc/pulumi-plugin.json`,
        readIf(path.join(top, 'go', 'svc', 'pulumi-plugin.json')),
        e,
      );
    });
  return { goModule, goTag: `${folder}/${versioned}` };
}

/**
 * Checks the release folder `dir` against `e` and answers what it publishes with the problems
 * found (none: it may be published).
 */
export function verifyRelease(
  dir: string,
  e: Expected,
): { publication: Publication; problems: string[] } {
  const p = new Problems();
  const top = fs.readdirSync(dir).sort();
  checkChecksums(p, dir);
  const archives = checkPluginArchives(p, dir, top, e);
  const npmSdk = checkNpmSdk(p, dir, e);
  const python = checkPython(p, dir, e);
  const schema = JSON.parse(readIf(path.join(dir, 'schema.json')) ?? '{}') as Record<
    string,
    unknown
  >;
  p.same(schema.version, e.version, 'schema.json', 'version');
  p.same(schema.pluginDownloadURL, e.pluginDownloadURL, 'schema.json', 'pluginDownloadURL');
  const notes = changelogSection(
    fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'),
    e.version,
  );
  p.check(
    readIf(path.join(dir, 'CHANGELOG.md')) === notes,
    'CHANGELOG.md',
    `must be the root CHANGELOG.md's "## ${e.version}" section`,
  );
  const go = checkGo(p, dir, e);
  const known = new Set([
    ...archives,
    npmSdk,
    ...python,
    'schema.json',
    'CHANGELOG.md',
    'SHA256SUMS',
    'go',
  ]);
  for (const name of top) p.check(known.has(name), name, 'not a file a release holds');
  const assets = top.filter((name) => name !== 'go' && known.has(name));
  return { publication: { assets, npmSdk, python, ...go }, problems: p.list };
}

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT, pulumi, pulumiBinDir } from '../../scripts/pulumi-cli';
import { ensureVenv, userCacheDir, type Venv } from '../interop/python-venv';
import { serveStaticFiles, type StaticFiles } from '../support/static-files';
import { hasTag, writeCalls } from './cli';
import { goEnv, goMissing } from './go-env';
import { fixtureGroup, npmInstall, writeTypeScriptProject } from './projects';

const run = promisify(execFile);
const { version } = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'),
) as {
  version: string;
};
const ARCHIVE = `pulumi-resource-svc-v${version}-linux-amd64.tar.gz`;
const ANALYZER_ARCHIVE = `pulumi-analyzer-policy-svc-v${version}-linux-amd64.tar.gz`;

/** The YAML program of one guest tagged `tag`, exporting its id and the account's company. */
const yamlGuest = (tag: string) =>
  [
    'resources:',
    '  web:',
    '    type: svc:index:VirtualGuest',
    '    properties:',
    '      domain: release.example.com',
    '      datacenter: dal10',
    '      startCpus: 1',
    '      maxMemory: 1024',
    '      operatingSystemReferenceCode: UBUNTU_LATEST',
    `      tags: [${tag}]`,
    'outputs:',
    '  guestId: ${web.guestId}',
    '  company:',
    '    fn::invoke:',
    '      function: svc:index:getAccount',
    '      arguments: {}',
    '      return: companyName',
    '',
  ].join('\n');

/** A file inside a zip archive (a wheel, a Go module zip), read with Python's zipfile. */
async function fromZip(zip: string, name: string): Promise<string> {
  const { stdout } = await run('python3', [
    '-c',
    'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())',
    zip,
    name,
  ]);
  return stdout;
}

/**
 * A release as users get it: `npm run release` into a folder that a static HTTP server on
 * loopback serves (as release hosting serves its assets), with that server as the plugin's
 * download URL. Programs then run the way a user of each language runs them: a fresh
 * PULUMI_HOME (no plugin installed), no `plugins:` entry in Pulumi.yaml, and no `node` on the
 * CLI's PATH: the engine installs the self-contained plugin by itself.
 */
describe('a release, installed as users install it', () => {
  const group = fixtureGroup();
  const out = group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-')));
  let server: StaticFiles;
  let made: string[] = [];
  /** A fresh PULUMI_HOME, removed with the group. */
  const pulumiHome = () => group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pulumi-home-')));
  /** The CLI's folder (with the language hosts) and `more`: nothing that holds `node`. */
  const noNode = (...more: string[]) => [pulumiBinDir(), ...more].join(path.delimiter);

  before(async () => {
    server = await serveStaticFiles(out);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/release.ts', '--out', out, '--plugin-download-url', server.url],
      { cwd: PACKAGE_ROOT, timeout: 20 * 60_000 },
    );
    made = stdout.trim().split('\n');
  });
  after(async () => {
    await server?.close();
    await group.close();
  });

  it("holds every artifact at package.json's version, each naming the server, with checksums and notes", async () => {
    assert.deepEqual(
      made.map((file) => path.relative(out, file)),
      [
        ARCHIVE,
        ANALYZER_ARCHIVE,
        `pulumi-svc-svc-${version}.tgz`,
        `pulumi_svc-${version}-py3-none-any.whl`,
        `pulumi_svc-${version}.tar.gz`,
        'go',
        'SHA256SUMS',
      ],
    );
    await run('sha256sum', ['--check', '--strict', 'SHA256SUMS'], { cwd: out });
    const listed = fs.readFileSync(path.join(out, 'SHA256SUMS'), 'utf8');
    assert.match(
      listed,
      new RegExp(`  go/github.com/pulumi-svc/pulumi-svc/sdk/@v/v${version}.zip\n`),
    );
    assert.match(
      fs.readFileSync(path.join(out, 'CHANGELOG.md'), 'utf8'),
      new RegExp(`^## ${version}`),
    );
    const { stdout: archived } = await run('tar', ['-tzvf', path.join(out, ARCHIVE)]);
    assert.match(archived, /^-rwxr-xr-x .* pulumi-resource-svc$/m, 'the executable at the root');
    const { stdout: analyzer } = await run('tar', ['-tzvf', path.join(out, ANALYZER_ARCHIVE)]);
    assert.match(analyzer, /^-rwxr-xr-x .* pulumi-analyzer-policy-svc$/m);
    assert.match(analyzer, / PulumiPolicy\.yaml$/m, 'the pack file beside it');
    assert.match(listed, new RegExp(`  ${ANALYZER_ARCHIVE}\n`), 'in SHA256SUMS');

    const plugin = { resource: true, name: 'svc', version, server: server.url };
    const goZip = path.join(
      out,
      'go',
      'github.com',
      'pulumi-svc',
      'pulumi-svc',
      'sdk',
      '@v',
      `v${version}.zip`,
    );
    const wheel = path.join(out, `pulumi_svc-${version}-py3-none-any.whl`);
    assert.deepEqual(JSON.parse(await fromZip(wheel, 'pulumi_svc/pulumi-plugin.json')), plugin);
    assert.deepEqual(
      JSON.parse(
        await fromZip(
          goZip,
          `github.com/pulumi-svc/pulumi-svc/sdk@v${version}/go/svc/pulumi-plugin.json`,
        ),
      ),
      plugin,
    );
    const { stdout: npmPackage } = await run('tar', [
      '-xzOf',
      path.join(out, `pulumi-svc-svc-${version}.tgz`),
      'package/package.json',
    ]);
    assert.deepEqual((JSON.parse(npmPackage) as { pulumi: unknown }).pulumi, plugin);
  });

  it('pulumi plugin install --file <archive>: the executable runs with no node and serves its schema', async () => {
    const env = { PULUMI_HOME: pulumiHome(), PATH: noNode(), PULUMI_SKIP_UPDATE_CHECK: 'true' };
    const cwd = out;
    await pulumi(
      ['plugin', 'install', 'resource', 'svc', version, '--file', path.join(out, ARCHIVE)],
      {
        cwd,
        env,
      },
    );
    const { stdout } = await pulumi(['package', 'get-schema', `svc@${version}`], { cwd, env });
    const schema = JSON.parse(stdout) as { version: string; pluginDownloadURL: string };
    assert.deepEqual([schema.version, schema.pluginDownloadURL], [version, server.url]);
  });

  it('the budget pack from the analyzer archive: pulumi plugin install analyzer, no node and no node_modules/.bin on PATH', async () => {
    const env = { PULUMI_HOME: pulumiHome(), PATH: noNode(), PULUMI_SKIP_UPDATE_CHECK: 'true' };
    for (const [kind, name, file] of [
      ['resource', 'svc', ARCHIVE],
      ['analyzer', 'policy-svc', ANALYZER_ARCHIVE],
    ]) {
      await pulumi(['plugin', 'install', kind, name, version, '--file', path.join(out, file)], {
        cwd: out,
        env,
      });
    }
    // The pack folder: the PulumiPolicy.yaml the archive carries, and the budget's config.
    const pack = group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-pack-')));
    await run('tar', ['-xzf', path.join(out, ANALYZER_ARCHIVE), '-C', pack, 'PulumiPolicy.yaml']);
    const budget = path.join(pack, 'budget.json');
    fs.writeFileSync(
      budget,
      JSON.stringify({ 'svc-budget': { enforcementLevel: 'mandatory', maxMonthlyTotal: 10 } }),
    );
    const dir = project('yaml', {});
    fs.appendFileSync(path.join(dir, 'Pulumi.yaml'), yamlGuest('release-pack'));
    const f = await group.fixture(dir, {
      env: { ...env, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true' },
    });
    const preview = await f.stack.spawn([
      'preview',
      '--non-interactive',
      '--policy-pack',
      pack,
      '--policy-pack-config',
      budget,
    ]).done;
    const output = `${preview.stdout}\n${preview.stderr}`;
    assert.notEqual(preview.code, 0, output);
    assert.match(output, /svc-budget/, output);
    assert.match(output, /over maxMonthlyTotal \$10\.00/, output);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 0, 'nothing ordered');
  });

  /** A project folder: Pulumi.yaml naming `runtime` and no plugin, and `files`. */
  const project = (runtime: string, files: Record<string, string>) => {
    const dir = group.own(fs.mkdtempSync(path.join(os.tmpdir(), `svc-release-${runtime}-`)));
    fs.writeFileSync(
      path.join(dir, 'Pulumi.yaml'),
      `name: release-${runtime}\nruntime: ${runtime}\n`,
    );
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    return dir;
  };
  /** How often the engine fetched the plugin's archive from the release server. */
  const downloads = () =>
    server.requests.filter((r) => r.path === `/${ARCHIVE}` && r.status === 200).length;

  /**
   * The program in `dir` run as a user runs it, with `env` (PATH: what is on the CLI's) and a
   * fresh PULUMI_HOME: `up` orders the one guest tagged `tag` (the program exports its
   * `guestId` and the account's `company`), a no-op `up` orders nothing, `destroy` deletes it.
   * `download`: whether the engine is to fetch the plugin itself (else it must be installed).
   */
  async function upNoOpDestroy(
    dir: string,
    tag: string,
    env: Record<string, string>,
    download = true,
  ): Promise<void> {
    const home = env.PULUMI_HOME ?? pulumiHome();
    const f = await group.fixture(dir, {
      env: {
        ...env,
        PULUMI_HOME: home,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: String(!download),
      },
    });
    const fetched = downloads();
    await f.stack.up();
    assert.equal(downloads() - fetched, download ? 1 : 0, 'downloads of the plugin');
    const plugin = path.join(home, 'plugins', `resource-svc-v${version}`, 'pulumi-resource-svc');
    assert.ok(fs.existsSync(plugin), `${plugin} installed`);
    const [guest, ...others] = await f.guests(hasTag(tag));
    assert.equal(others.length, 0, 'one guest ordered');
    const outputs = await f.stack.outputs();
    assert.equal(Number(outputs.guestId), guest.id);
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'a lookup invoked');
    assert.ok(
      (await f.stack.resources()).some((r) => r.type === 'svc:index:VirtualGuest'),
      "the plugin's resource",
    );
    await f.stack.up(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1);
    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag(tag)), []);
  }

  it('a Python program installed from the wheel, no node on PATH: the engine downloads the plugin', async () => {
    const venv: Venv = await ensureVenv('release-python-venv', 'pulumi', '3.248.0');
    const pip = (...args: string[]) =>
      run(venv.python, ['-m', 'pip', ...args, '--quiet', '--disable-pip-version-check'], {
        timeout: 300_000,
      });
    await pip('uninstall', '--yes', 'pulumi_svc');
    await pip('install', path.join(out, `pulumi_svc-${version}-py3-none-any.whl`));
    const dir = project('python', {
      '__main__.py': [
        'import pulumi',
        'import pulumi_svc as svc',
        'guest = svc.VirtualGuest("web", domain="release.example.com", datacenter="dal10",',
        '    start_cpus=1, max_memory=1024, operating_system_reference_code="UBUNTU_LATEST",',
        '    tags=["release-python"])',
        'pulumi.export("guestId", guest.guest_id)',
        'pulumi.export("company", svc.get_account().company_name)',
        '',
      ].join('\n'),
    });
    await upNoOpDestroy(dir, 'release-python', {
      PATH: noNode(path.join(venv.dir, 'bin')),
      VIRTUAL_ENV: venv.dir,
    });
  });

  it('a YAML program after pulumi plugin install --server <url>, no node on PATH', async () => {
    const env = { PULUMI_HOME: pulumiHome(), PATH: noNode(), PULUMI_SKIP_UPDATE_CHECK: 'true' };
    await pulumi(['plugin', 'install', 'resource', 'svc', version, '--server', server.url], {
      cwd: out,
      env,
    });
    const dir = project('yaml', {});
    fs.appendFileSync(path.join(dir, 'Pulumi.yaml'), yamlGuest('release-yaml'));
    // Downloads stay off: the plugin the install put in PULUMI_HOME is the one that runs.
    await upNoOpDestroy(dir, 'release-yaml', env, false);
  });

  it(
    'a Go program through the module proxy folder (no replace), no node on PATH',
    { skip: goMissing },
    async () => {
      const dir = project('go', {});
      for (const file of ['main.go', 'go.mod', 'go.sum']) {
        fs.copyFileSync(
          path.join(PACKAGE_ROOT, 'examples', 'go-guest', file),
          path.join(dir, file),
        );
      }
      const machine = await goEnv();
      // A module cache of this test's own, so the module is fetched from this release (each run's
      // release names another server); everything else comes from this machine's cache, on disk.
      const modcache = userCacheDir('release-go-modcache');
      fs.rmSync(path.join(modcache, 'github.com', 'pulumi-svc'), { recursive: true, force: true });
      fs.rmSync(path.join(modcache, 'cache', 'download', 'github.com', 'pulumi-svc'), {
        recursive: true,
        force: true,
      });
      const { stdout: usual } = await run('go', ['env', 'GOPROXY']);
      const env = {
        ...machine,
        GOMODCACHE: modcache,
        GOFLAGS: `${machine.GOFLAGS} -modcacherw`,
        // Go indexes a module version's files once (its build cache) and trusts a version never to
        // change; each release built here is that same version with other files (new enums).
        GODEBUG: 'goindex=0',
        GOPROXY: [
          `file://${path.join(out, 'go')}`,
          `file://${path.join(machine.GOMODCACHE, 'cache', 'download')}`,
          usual.trim(),
        ].join(','),
        PATH: noNode(path.join((await run('go', ['env', 'GOROOT'])).stdout.trim(), 'bin')),
      };
      // The example's go.mod points at the checkout's sdk/; a user's requires the release.
      await run('go', ['mod', 'edit', '-dropreplace=github.com/pulumi-svc/pulumi-svc/sdk'], {
        cwd: dir,
        env: { ...process.env, ...env },
      });
      await upNoOpDestroy(dir, 'go-guest', env);
      const required = fs.readFileSync(path.join(dir, 'go.mod'), 'utf8');
      assert.match(required, new RegExp(`github\\.com/pulumi-svc/pulumi-svc/sdk v${version}`));
      assert.doesNotMatch(required, /replace/);
    },
  );

  it('a TypeScript program on the SDK tarball: the engine downloads the plugin', async () => {
    const dir = group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-ts-')));
    writeTypeScriptProject(
      dir,
      'release-ts',
      [
        "import * as svc from '@pulumi-svc/svc';",
        "const guest = new svc.VirtualGuest('web', {",
        "  domain: 'release.example.com',",
        "  datacenter: 'dal10',",
        '  startCpus: 1,',
        '  maxMemory: 1024,',
        "  operatingSystemReferenceCode: 'UBUNTU_LATEST',",
        "  tags: ['release-ts'],",
        '});',
        'export const guestId = guest.guestId;',
        'export const company = svc.getAccountOutput().companyName;',
        '',
      ].join('\n'),
    );
    await npmInstall(dir, [path.join(out, `pulumi-svc-svc-${version}.tgz`)]);
    // The Node.js language host needs node; the plugin does not.
    await upNoOpDestroy(dir, 'release-ts', {});
  });
});

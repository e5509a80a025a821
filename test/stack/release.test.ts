import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT, pulumi, pulumiBinDir } from '../../scripts/pulumi-cli';
import { serveStaticFiles, type StaticFiles } from '../support/static-files';
import { fixtureGroup } from './projects';

const run = promisify(execFile);
const { version } = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'),
) as {
  version: string;
};
const ARCHIVE = `pulumi-resource-svc-v${version}-linux-amd64.tar.gz`;

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
});

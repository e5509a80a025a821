import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const run = promisify(execFile);
const version = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * `scripts/publish` as the release workflow runs it, with nothing reachable to publish to: `gh`
 * on PATH only records that it ran, and npm's registry is a closed loopback port.
 */
describe('scripts/publish: the release workflow’s steps, without the network', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-publish-test-'));
  const out = path.join(work, 'release');
  const ghCalled = path.join(work, 'gh-called');
  const env = {
    ...process.env,
    PATH: `${path.join(work, 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_registry: 'http://127.0.0.1:9/',
    GITHUB_REF_NAME: '',
  };
  const publish = (args: string[]) =>
    run(path.join(PACKAGE_ROOT, 'scripts', 'publish'), args, {
      cwd: work,
      env,
      timeout: 30 * 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
  let dry = { code: -1, stdout: '', stderr: '' };

  before(async () => {
    fs.mkdirSync(path.join(work, 'bin'));
    fs.writeFileSync(path.join(work, 'bin', 'gh'), `#!/bin/sh\ntouch ${ghCalled}\n`, {
      mode: 0o755,
    });
    dry = await publish(['--dry-run', '--tag', `v${version}`, '--out', out]);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('the dry run builds the release, checks it and prints what it would publish, publishing nothing', async () => {
    assert.equal(dry.code, 0, dry.stderr);
    const said = dry.stdout;
    for (const asset of [
      `pulumi-resource-svc-v${version}-linux-amd64.tar.gz`,
      `pulumi-analyzer-policy-svc-v${version}-linux-amd64.tar.gz`,
      `pulumi-svc-svc-${version}.tgz`,
      `pulumi_svc-${version}-py3-none-any.whl`,
      `pulumi_svc-${version}.tar.gz`,
      'schema.json',
      'SHA256SUMS',
    ])
      assert.match(
        said,
        new RegExp(`^would run: gh release create v${version} .*${path.join(out, asset)}`, 'm'),
      );
    assert.match(
      said,
      new RegExp(`^would run: npm publish \\S+/pulumi-svc-${version}\\.tgz$`, 'm'),
    );
    assert.match(
      said,
      new RegExp(
        `^would run: npm publish \\S+/pulumi-svc-svc-${version}\\.tgz --access public$`,
        'm',
      ),
    );
    assert.match(
      said,
      new RegExp(
        `^would run: python3 -m twine upload \\S+\\.whl \\S+/pulumi_svc-${version}\\.tar\\.gz$`,
        'm',
      ),
    );
    const { stdout: head } = await run('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT });
    assert.match(said, new RegExp(`^would run: git tag sdk/v${version} ${head.trim()}$`, 'm'));
    assert.match(said, new RegExp(`go get github\\.com/pulumi-svc/pulumi-svc/sdk@v${version}`));
    assert.doesNotMatch(said, /^running:/m);
    assert.equal(fs.existsSync(ghCalled), false, 'gh never ran');
    const { stdout: tags } = await run('git', ['tag', '--list', `sdk/v${version}`], {
      cwd: PACKAGE_ROOT,
    });
    assert.equal(tags, '', 'no Go tag made');
  });

  it('a tampered release is refused with each file and the rule it breaks, nothing published', async () => {
    const copy = path.join(work, 'tampered');
    fs.cpSync(out, copy, { recursive: true });
    const analyzer = path.join(copy, `pulumi-analyzer-policy-svc-v${version}-linux-amd64.tar.gz`);
    const bytes = fs.readFileSync(analyzer);
    bytes[bytes.length - 1] ^= 1;
    fs.writeFileSync(analyzer, bytes);
    fs.rmSync(path.join(copy, `pulumi_svc-${version}.tar.gz`));
    fs.writeFileSync(path.join(copy, 'notes.txt'), 'stray\n');
    // The npm SDK repacked at another version, its checksum updated as a careless hand would.
    const npmSdk = `pulumi-svc-svc-${version}.tgz`;
    const unpacked = path.join(work, 'npm-sdk');
    fs.mkdirSync(unpacked);
    await run('tar', ['-xzf', path.join(copy, npmSdk), '-C', unpacked]);
    const pkgFile = path.join(unpacked, 'package', 'package.json');
    fs.writeFileSync(
      pkgFile,
      fs.readFileSync(pkgFile, 'utf8').replace(`"version": "${version}"`, '"version": "9.9.9"'),
    );
    await run('tar', ['-czf', path.join(copy, npmSdk), '-C', unpacked, 'package']);
    const sums = path.join(copy, 'SHA256SUMS');
    const { stdout: sum } = await run('sha256sum', [npmSdk], { cwd: copy });
    fs.writeFileSync(
      sums,
      fs
        .readFileSync(sums, 'utf8')
        .split('\n')
        .map((line) => (line.endsWith(`  ${npmSdk}`) ? sum.trim() : line))
        .join('\n'),
    );

    const refused = await publish(['--dry-run', '--release', copy]);
    assert.equal(refused.code, 1);
    for (const said of [
      `pulumi-analyzer-policy-svc-v${version}-linux-amd64.tar.gz: its SHA-256 is not the one SHA256SUMS lists`,
      `SHA256SUMS: lists pulumi_svc-${version}.tar.gz, which is missing`,
      `pulumi_svc-${version}.tar.gz: missing`,
      'SHA256SUMS: does not list notes.txt',
      'notes.txt: not a file a release holds',
      `${npmSdk}: package.json version must be "${version}" (is "9.9.9")`,
      'nothing published',
    ])
      assert.ok(refused.stderr.includes(said), `${said}\n---\n${refused.stderr}`);
    assert.doesNotMatch(refused.stdout, /would run|running/);
  });

  it('a tag of another version is refused before anything is built', async () => {
    const other = path.join(work, 'never');
    const refused = await publish(['--dry-run', '--tag', 'v9.9.9', '--out', other]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `the tag v9\\.9\\.9 is not package\\.json's version \\(v${version.replace(/\./g, '\\.')}\\)`,
      ),
    );
    assert.equal(fs.existsSync(other), false);
  });

  it('the workflow runs on v* tags, builds and checks with the dry run, then publishes that folder', () => {
    const workflow = fs.readFileSync(
      path.join(PACKAGE_ROOT, '.github', 'workflows', 'release.yml'),
      'utf8',
    );
    assert.match(workflow, /^on:\n {2}push:\n {4}tags: \['v\*'\]$/m);
    const steps = [...workflow.matchAll(/^\s*(?:run: )?scripts\/publish (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(steps, [
      '--dry-run --tag "$GITHUB_REF_NAME" --out release',
      '--tag "$GITHUB_REF_NAME" --release release',
    ]);
  });
});

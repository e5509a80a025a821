import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const run = promisify(execFile);
const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-set-version-'));
after(() => fs.rmSync(copy, { recursive: true, force: true }));

it('scripts/set-version writes the version everywhere it is carried, from package.json', async () => {
  // A copy of the checkout (every file git sees) on this checkout's node_modules.
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file && fs.existsSync(path.join(PACKAGE_ROOT, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(PACKAGE_ROOT, file), path.join(copy, file));
  }
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  fs.chmodSync(path.join(copy, 'scripts', 'set-version'), 0o755);

  await run(path.join(copy, 'scripts', 'set-version'), ['7.8.9'], {
    cwd: copy,
    timeout: 15 * 60_000,
  });
  const read = (file: string) => fs.readFileSync(path.join(copy, file), 'utf8');
  const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;
  assert.equal(json('package.json').version, '7.8.9');
  assert.equal(json('package-lock.json').version, '7.8.9');
  assert.equal(json('provider/plugin/schema.json').version, '7.8.9');
  assert.equal(json('sdk/go/svc/pulumi-plugin.json').version, '7.8.9');
  assert.equal(json('sdk/python/pulumi_svc/pulumi-plugin.json').version, '7.8.9');
  assert.match(read('sdk/python/pyproject.toml'), /^\s*version = "7\.8\.9"$/m);
  assert.match(
    read('examples/go-guest/go.mod'),
    /github\.com\/pulumi-svc\/pulumi-svc\/sdk v7\.8\.9$/m,
  );
  assert.equal(
    (json('examples/quickstart/package.json').dependencies as Record<string, string>)['pulumi-svc'],
    '^7.8.9',
  );
  assert.match(read('docs/installation-configuration.md'), /sdk@v7\.8\.9/);
  assert.match(read('CHANGELOG.md'), /^## 7\.8\.9 \(unreleased\)$/m);
  // The release's notes check takes that section.
  const old = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  assert.match(read('CHANGELOG.md'), new RegExp(`^## ${old.version.replace(/\./g, '\\.')}`, 'm'));
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { goEnv } from '../stack/go-env';
import { lockedVersion } from '../stack/projects';
import { ensureVenv } from '../interop/python-venv';

const run = promisify(execFile);
const SDK = path.join(PACKAGE_ROOT, 'sdk');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-go-floor-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const goDirective = (goMod: string) =>
  /^go (\d+)\.(\d+)\.(\d+)$/m.exec(goMod)!.slice(1).map(Number);
const byVersion = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * `go` runs with exactly the toolchain `version` (fetched once from the Go module proxy; its
 * checksum is verified against the checksum database, which a toolchain download requires).
 */
async function goWith(version: string, args: string[], cwd: string) {
  const env = { ...process.env, ...(await goEnv()), GOFLAGS: '-mod=readonly' };
  return run('go', args, {
    cwd,
    env: { ...env, GOTOOLCHAIN: `go${version}`, GOSUMDB: 'sum.golang.org' },
    timeout: 20 * 60_000,
  });
}

it("the Go SDK's go directive is the lowest it builds with: it builds with that toolchain, and the one before is refused", async () => {
  const goMod = fs.readFileSync(path.join(SDK, 'go.mod'), 'utf8');
  const floor = goDirective(goMod);
  // No requirement asks for more (go would raise the directive), and one asks for exactly it.
  const { stdout } = await run(
    'go',
    ['list', '-m', '-f', '{{if not .Main}}{{.GoVersion}}{{end}}', 'all'],
    {
      cwd: SDK,
      env: { ...process.env, ...(await goEnv()), GOFLAGS: '-mod=readonly' },
    },
  );
  const asked = stdout
    .split('\n')
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .map((v) => v.split('.').map(Number))
    .sort(byVersion)
    .pop()!;
  assert.deepEqual(asked, floor, 'the highest go directive among the requirements');

  await goWith(floor.join('.'), ['build', './go/svc/...'], SDK);

  if (floor[2] === 0) return; // (no earlier patch release to try)
  const before = [floor[0], floor[1], floor[2] - 1].join('.');
  const lowered = path.join(work, 'sdk');
  fs.cpSync(SDK, lowered, { recursive: true, filter: (src) => !src.includes(`${path.sep}python`) });
  fs.writeFileSync(path.join(lowered, 'go.mod'), goMod.replace(/^go .*$/m, `go ${before}`));
  await assert.rejects(
    goWith(before, ['list', './go/svc/...'], lowered),
    (err: { stderr: string }) => {
      assert.match(err.stderr, new RegExp(`requires go >= ${floor.join('\\.')}`));
      return true;
    },
  );
});

it("the Python SDK's requires-python is what the pulumi it requires asks for (that wheel's own metadata)", async () => {
  // The pulumi the SDK's floor requires (its dependency >=<version>), installed from PyPI once.
  const venv = await ensureVenv('plugin-python-venv', 'pulumi', lockedVersion('@pulumi/pulumi'));
  const { stdout } = await run(venv.python, [
    '-c',
    "import importlib.metadata as m; print(m.metadata('pulumi')['Requires-Python'])",
  ]);
  const pyproject = fs.readFileSync(path.join(SDK, 'python', 'pyproject.toml'), 'utf8');
  const required = /^\s*requires-python = "(.*)"$/m.exec(pyproject)?.[1];
  assert.equal(required?.replace(/\s/g, ''), stdout.trim().replace(/\s/g, ''));
  assert.match(
    pyproject,
    new RegExp(`"pulumi>=${lockedVersion('@pulumi/pulumi').replace(/\./g, '\\.')},`),
  );
});

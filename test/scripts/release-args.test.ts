import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const run = promisify(execFile);

/** `npm run release -- <args>` as the script runs it: its exit code and what it said. */
const release = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/release.ts', ...args], {
    cwd: PACKAGE_ROOT,
  }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => err,
  );

it('npm run release refuses a wrong or unknown option in one line, writing nothing', async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-args-')), 'out');
  try {
    for (const [args, said] of [
      [[], /^release: usage: npm run release -- --out <dir>/],
      [['--out', out, '--bogus'], /^release: Unknown option '--bogus'/],
      [['--out', out, 'extra'], /^release: usage:/],
      [['--out', out, '--node', 'linux-amd64=/bin/node'], /linux-amd64 is built from/],
      [['--out', out, '--node', 'solaris-sparc=/bin/node'], /expected <os>-<arch>=<node binary>/],
      [['--out', out, '--node', 'darwin-arm64'], /expected <os>-<arch>=<node binary>/],
    ] as const) {
      const { code, stderr } = await release([...args]);
      assert.equal(code, 1, args.join(' '));
      assert.match(stderr, said);
      assert.equal(stderr.trim().split('\n').length, 1, 'one line, no stack trace');
    }
    assert.equal(fs.existsSync(out), false, 'no release folder made');
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
});

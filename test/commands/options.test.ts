import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

const run = promisify(execFile);
const CLI = path.join(PACKAGE_ROOT, 'dist', 'commands', 'cli.js');

it('every pulumi-svc command refuses an unknown or incomplete option, naming it, before it runs pulumi', async () => {
  // A folder with no pulumi in it: a command that got as far as looking for the CLI says so.
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-no-pulumi-'));
  try {
    for (const [args, said] of [
      [['billing', '--stak', 'dev'], /^pulumi-svc: billing: unknown argument --stak; it takes /],
      [['billing', '--formt', 'json'], /^pulumi-svc: billing: unknown argument --formt; it takes /],
      [['audit', '--json', 'dev'], /^pulumi-svc: audit: unknown argument dev; it takes /],
      [['audit', '--stack'], /^pulumi-svc: audit: --stack needs a value$/],
      [['migrate', '--dryrun'], /^pulumi-svc: migrate: unknown argument --dryrun; it takes /],
    ] as const) {
      const failed = await run(process.execPath, [CLI, ...args], {
        env: { ...process.env, PULUMI_BIN_DIR: empty },
      }).then(
        () => assert.fail(`${args.join(' ')} succeeded`),
        (err: { code: number; stderr: string }) => err,
      );
      assert.equal(failed.code, 2, `${args.join(' ')}: a usage error`);
      assert.match(failed.stderr.trim(), said);
      assert.equal(failed.stderr.trim().split('\n').length, 1, 'one line, no stack trace');
    }
    // The options each command documents are taken: it goes on, to look for the CLI.
    const known = await run(process.execPath, [CLI, 'billing', '--json', '--stack=dev'], {
      env: { ...process.env, PULUMI_BIN_DIR: empty },
    }).catch((err: { stderr: string }) => err);
    assert.match(known.stderr, /no pulumi found on \$PULUMI_BIN_DIR/);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

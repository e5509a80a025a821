import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { findPulumi, pulumiOutput } from '../../commands/pulumi';

// Which Pulumi CLI the package's commands accept. No real CLI of another version can be built
// here, so each one is a script that answers `version` (and echoes other commands) like the CLI.
describe("the pulumi-svc commands use the user's own Pulumi CLI", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-find-pulumi-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const cliReporting = (version: string): string => {
    const dir = fs.mkdtempSync(path.join(root, 'bin-'));
    fs.writeFileSync(
      path.join(dir, 'pulumi'),
      `#!/bin/sh\nif [ "$1" = version ]; then echo ${version}; else echo "ran $*"; fi\n`,
      { mode: 0o755 },
    );
    return dir;
  };

  it('takes any 3.x from 3.248.0 on, from PULUMI_BIN_DIR before PATH', async () => {
    const newer = cliReporting('v3.250.1');
    const other = cliReporting('v3.249.0');
    const env = { PULUMI_BIN_DIR: newer, PATH: `${other}:${process.env.PATH}` };
    assert.equal(findPulumi(env), path.join(newer, 'pulumi'));
    assert.equal(findPulumi({ PATH: `${other}:${process.env.PATH}` }), path.join(other, 'pulumi'));
    assert.equal(
      await pulumiOutput(['stack', 'ls'], { cwd: root, env: { PULUMI_BIN_DIR: newer } }),
      'ran stack ls\n',
    );
  });

  it('refuses an older 3.x and another major version, naming the one it found', () => {
    for (const version of ['v3.247.9', 'v2.25.2', 'v4.0.0']) {
      const dir = cliReporting(version);
      assert.throws(
        () => findPulumi({ PULUMI_BIN_DIR: dir, PATH: '' }),
        new Error(
          `${path.join(dir, 'pulumi')} is ${version}; these commands need the Pulumi CLI 3.x, 3.248.0 or later`,
        ),
      );
    }
  });

  it('says where it looked when there is no pulumi', () => {
    const empty = fs.mkdtempSync(path.join(root, 'empty-'));
    assert.throws(
      () => findPulumi({ PULUMI_BIN_DIR: empty, PATH: process.env.PATH }),
      new Error(
        `no pulumi found on $PULUMI_BIN_DIR (${empty}); install the Pulumi CLI 3.x, 3.248.0 or later`,
      ),
    );
    assert.throws(
      () => findPulumi({ PATH: `${empty}:${empty}/nothing` }),
      /^Error: no pulumi found on PATH; install the Pulumi CLI 3\.x, 3\.248\.0 or later$/,
    );
  });
});

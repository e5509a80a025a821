import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { it } from 'node:test';
import { seededAccounts } from '../../emulator/seed';

const check = (dir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-no-secrets.ts', dir], {
    encoding: 'utf8',
  });

it('check-no-secrets passes clean logs and fails on a password, a seeded key or any key-shaped token', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-logs-'));
  fs.writeFileSync(
    path.join(dir, 'clean.log'),
    'ok 1 - creates a guest\n[svc] ordering web-1a2b3c4.example.com\n',
  );
  assert.equal(check(dir).status, 0);
  const { demo } = seededAccounts();
  for (const leak of [demo.password!, demo.apiKey, 'f'.repeat(64)]) {
    fs.writeFileSync(path.join(dir, 'leak.log'), `error: bad request for ${leak}\n`);
    const result = check(dir);
    assert.equal(result.status, 1, `caught ${leak.slice(0, 8)}...`);
    assert.match(result.stderr, /credential in .*leak\.log:1/);
    assert.ok(!result.stderr.includes(leak), 'the report does not repeat the secret');
  }
});

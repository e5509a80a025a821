import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { it } from 'node:test';
import { seededAccounts } from '../../emulator/seed';
import { API_KEY, PASSWORD } from '../support/test-credentials';

const check = (dir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-no-secrets.ts', dir], {
    encoding: 'utf8',
  });

function logDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-logs-'));
  fs.writeFileSync(
    path.join(dir, 'clean.log'),
    'ok 1 - creates a guest\n[svc] ordering web-1a2b3c4.example.com\n' +
      'ok 2 - a failed login keeps the password out of the error (demo-pa)\n',
  );
  return dir;
}

it('check-no-secrets passes clean logs and fails on a password, a seeded key or any key-shaped token', () => {
  const dir = logDir();
  assert.equal(check(dir).status, 0, check(dir).stderr);
  const { demo } = seededAccounts();
  for (const leak of [demo.password!, demo.apiKey, 'f'.repeat(64)]) {
    fs.writeFileSync(path.join(dir, 'leak.log'), `error: bad request for ${leak}\n`);
    const result = check(dir);
    assert.equal(result.status, 1, `caught ${leak.slice(0, 8)}...`);
    assert.match(result.stderr, /credential in .*leak\.log:1/);
    assert.ok(!result.stderr.includes(leak), 'the report does not repeat the secret');
  }
  fs.rmSync(dir, { recursive: true });
});

it('check-no-secrets finds runs of 8 or more characters of a credential, in any case, but not 7', () => {
  const dir = logDir();
  const { demo, other } = seededAccounts();
  const runs = [
    demo.apiKey.slice(0, 26), // what a 200-character cut of a proxy page leaked
    demo.apiKey.slice(30, 38),
    other.apiKey.slice(50).toUpperCase(),
    API_KEY.slice(10, 18),
    PASSWORD.slice(4, 12),
    encodeURIComponent(PASSWORD),
  ];
  for (const run of runs) {
    fs.writeFileSync(path.join(dir, 'leak.log'), `line one\nHTTP 502: <p>key=${run}</p>\n`);
    const result = check(dir);
    assert.equal(result.status, 1, `caught the run ${run.length} long`);
    assert.match(result.stderr, /credential in .*leak\.log:2: HTTP 502: <p>key=\*\*\*\*<\/p>/);
    assert.ok(!result.stderr.toLowerCase().includes(run.toLowerCase()), 'not repeated');
  }
  fs.writeFileSync(path.join(dir, 'short.log'), `seven ${demo.apiKey.slice(3, 10)} only\n`);
  fs.rmSync(path.join(dir, 'leak.log'));
  assert.equal(check(dir).status, 0, 'a 7-character piece is not a credential run');
  fs.rmSync(dir, { recursive: true });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PACKAGE_ROOT, runPulumi } from '../../scripts/pulumi-cli';

it('a pulumi command that outlives its time limit is killed and reported, not waited for', async () => {
  const run = await runPulumi(['version'], { cwd: PACKAGE_ROOT, timeoutMs: 1 });
  assert.equal(run.code, null);
  assert.equal(run.signal, 'SIGKILL');
  assert.match(run.stderr, /pulumi version: killed after 0 s without finishing/);
});

it('within its limit the command runs to the end', async () => {
  const run = await runPulumi(['version'], { cwd: PACKAGE_ROOT, timeoutMs: 60_000 });
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^v3\.248\.\d+/);
});

/**
 * Interop suite: a client of this API that nobody on this project wrote — the reference Python
 * client, PyPI `SoftLayer` 6.2.9, unchanged — runs its managers against the emulator through a
 * loopback proxy that renames `SoftLayer_` to `Svc_` and back (test/interop/rename-proxy.ts).
 * The checks are in softlayer_interop.py; it prints `N passed, M failed`.
 *
 * The client is installed once per machine into a virtualenv under ~/.cache/pulumi-svc (python3
 * -m venv, then pip from PyPI); without Python 3 the suite fails and says what to install.
 * Everything it starts (emulator, proxy, python) ends with it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import { ensureVenv, pythonEnv, type Venv } from './python-venv';
import { startRenameProxy, type RenameProxy } from './rename-proxy';

const PACKAGE = 'SoftLayer';
const VERSION = '6.2.9';
const SCRIPT = join(__dirname, 'softlayer_interop.py');

/** A loopback port nothing listens on (bound, read, released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('reference Python client (PyPI SoftLayer 6.2.9) against the emulator', () => {
  let venv: Venv;
  let emulator: EmulatorHandle | undefined;
  let proxy: RenameProxy | undefined;
  let home: string | undefined;
  let child: ChildProcess | undefined;

  before(async () => {
    venv = await ensureVenv('interop-venv', PACKAGE, VERSION);
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 2000 });
    proxy = await startRenameProxy(new URL(emulator.url).origin);
    home = await mkdtemp(join(tmpdir(), 'svc-interop-home-'));
  });

  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await proxy?.close();
    await emulator?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('passes every check of softlayer_interop.py', { timeout: 10 * 60_000 }, async () => {
    const { demo, demoOps } = emulator!.accounts;
    const env = pythonEnv(home!, {
      SVC_INTEROP_ENDPOINT: proxy!.endpoint,
      SVC_INTEROP_USERNAME: demo.username,
      SVC_INTEROP_API_KEY: demo.apiKey,
      SVC_INTEROP_OPS_USERNAME: demoOps.username,
      SVC_INTEROP_OPS_PASSWORD: demoOps.password!,
      SVC_INTEROP_OPS_QUESTION_ID: String(demoOps.securityQuestion!.id),
      SVC_INTEROP_OPS_ANSWER: demoOps.securityQuestion!.answer,
      SVC_INTEROP_DEAD_ENDPOINT: `http://127.0.0.1:${await deadPort()}/xmlrpc/v3.1/`,
    });
    child = spawn(venv.python, ['-u', SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exit = await new Promise<number | null>((resolve, reject) => {
      child!.once('error', reject);
      child!.once('close', (code) => resolve(code));
    });
    console.log(output.trimEnd());
    const summary = /^(\d+) passed, (\d+) failed$/m.exec(output);
    assert.ok(summary, `the script printed no summary line (exit ${exit})`);
    const [passed, failed] = [Number(summary[1]), Number(summary[2])];
    const failures = output.split('\n').filter((line) => line.startsWith('FAIL - '));
    assert.deepEqual(failures, [], 'no check failed');
    assert.equal(failed, 0);
    assert.equal(passed, output.split('\n').filter((line) => line.startsWith('ok - ')).length);
    assert.ok(passed >= 20, `${passed} checks ran`);
    assert.equal(exit, 0);
    assert.ok(proxy!.requests() > passed, 'the calls went through the renaming proxy');
  });
});

/**
 * Interop suite: a second client nobody here wrote, softlayer-go (Go module
 * github.com/softlayer/softlayer-go, its XML-RPC transport, unchanged), runs a short program
 * (test/interop/softlayer-go/main.go: list guests with a mask and a filter, order one through
 * Product_Package and Product_Order, wait for it, cancel it) against the emulator through the
 * renaming proxy. The program is built from the Go module proxy once per version of its sources
 * into the user's cache directory (`~/.cache/pulumi-svc/interop-go/<hash>/`), never into the
 * repository. Where Go is not installed the test is skipped and says so.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startEmulator, type EmulatorHandle } from '../../emulator';
import { EmulatorClient } from '../support/emulator-client';
import { guestTemplate } from '../support/emulator-harness';
import { userCacheDir } from './python-venv';
import { startRenameProxy, type RenameProxy } from './rename-proxy';

const run = promisify(execFile);
const SOURCE = join(__dirname, 'softlayer-go');
const FILES = ['main.go', 'go.mod', 'go.sum'];

function goVersion(): string | undefined {
  try {
    return execFileSync('go', ['version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

const GO = goVersion();

/** The go env of scripts/ensure-pulumi: modules from the proxy, no checksum database. */
const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOFLAGS: '-mod=mod',
  GOSUMDB: process.env.GOSUMDB ?? 'off',
  GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
  CGO_ENABLED: '0',
});

/** The program's binary, built when this version of its sources has none yet. */
async function buildProgram(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of FILES) hash.update(readFileSync(join(SOURCE, file)));
  const dir = join(userCacheDir('interop-go'), hash.digest('hex').slice(0, 16));
  const binary = join(dir, 'svc-interop-go');
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  const building = `${binary}.building-${process.pid}`;
  try {
    await run('go', ['build', '-trimpath', '-o', building, '.'], {
      cwd: SOURCE,
      env: goEnv(),
      timeout: 600_000,
    });
    await rename(building, binary);
  } finally {
    await rm(building, { force: true });
  }
  return binary;
}

interface Step {
  step: string;
  value: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the program's JSON
}

describe('softlayer-go (XML-RPC transport) against the emulator', () => {
  let emulator: EmulatorHandle | undefined;
  let proxy: RenameProxy | undefined;
  let child: ChildProcess | undefined;

  before(async () => {
    if (!GO) return;
    emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 1500 });
    proxy = await startRenameProxy(new URL(emulator.url).origin);
  });

  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await proxy?.close();
    await emulator?.close();
  });

  it(
    'lists, orders, waits for and cancels a guest',
    {
      timeout: 15 * 60_000,
      skip: GO ? false : 'Go is not installed (no `go` on PATH): the softlayer-go check needs it',
    },
    async () => {
      const binary = await buildProgram();
      const { demo } = emulator!.accounts;
      const api = new EmulatorClient(emulator!.url, {
        username: demo.username,
        apiKey: demo.apiKey,
      });
      const listed = await api.call<{ id: number }>('Virtual_Guest', 'createObject', {
        args: [guestTemplate({ hostname: 'go-listed', startCpus: 2 })],
      });
      child = spawn(binary, [], {
        env: {
          ...process.env,
          SVC_GO_ENDPOINT: proxy!.endpoint,
          SVC_GO_USERNAME: demo.username,
          SVC_GO_API_KEY: demo.apiKey,
          SVC_GO_LIST_HOSTNAME: 'go-listed',
          SVC_GO_ORDER_HOSTNAME: 'go-ordered',
          NO_PROXY: '*',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const exit = await new Promise<number | null>((resolve, reject) => {
        child!.once('error', reject);
        child!.once('close', (code) => resolve(code));
      });
      assert.equal(exit, 0, `${stdout}\n${stderr}`);
      const steps = new Map(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Step)
          .map((s) => [s.step, s.value]),
      );
      assert.deepEqual(steps.get('listed'), [listed.id], 'the mask and filter found the guest');
      const ordered = steps.get('ordered') as { guestId: number; orderId: number };
      assert.ok(steps.has('ready') && steps.has('cancelled'));
      // The emulator held the guest the Go client ordered, and it is now cancelled and gone.
      const objects = emulator!.objects(demo.username);
      assert.ok(!objects.virtualGuests.some((g) => g.id === ordered.guestId), 'the guest is gone');
      // Its billing item stays, cancelled: 1 core, 1 GB, Ubuntu 22.04 (the listed guest has 2).
      const billing = objects.billingItems.filter(
        (b) => b.description === '1 x vCPU, 1 GB RAM, UBUNTU_22_64',
      );
      assert.equal(billing.length, 1, 'the ordered guest was billed');
      assert.ok(billing[0].cancellationDate, 'and its billing item is cancelled');
      assert.ok(
        objects.virtualGuests.some((g) => g.id === listed.id),
        'the listed guest remains',
      );
    },
  );
});

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killTree } from '../scripts/processes';
import { PACKAGE_ROOT } from '../scripts/pulumi-cli';
import { cliFixture, type CliFixture } from '../test/stack/cli';
import { median, printResult, printTable, round } from './support/report';

/**
 * The provider plugin against the dynamic provider, in the same run:
 * - start: from spawning the provider process to its port being printed (when the engine can
 *   make its first call), each given a live engine address, 7 runs, median;
 * - up: `pulumi up` of 20 guests (3 s provisioning) through each: a YAML program on the plugin,
 *   the TypeScript fleet program on the dynamic classes.
 * Targets: the plugin at least 2x faster to start, never slower to `up`.
 */
const RUNS = 7;
const GUESTS = 20;
const DELAY_MS = 3_000;

const PLUGIN = path.join(PACKAGE_ROOT, 'provider', 'plugin', 'bin', 'pulumi-resource-svc');
const DYNAMIC = path.join(
  PACKAGE_ROOT,
  'node_modules',
  '@pulumi',
  'pulumi',
  'cmd',
  'dynamic-provider',
  'index.js',
);

/** Milliseconds from spawning `command` to the first line it prints (its port). */
function startMs(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      if (child.pid) killTree(child.pid);
    });
    child.once('error', reject);
  });
}

async function startTimes(engine: string): Promise<{ pluginMs: number; dynamicMs: number }> {
  const plugin: number[] = [];
  const dynamic: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    plugin.push(await startMs(PLUGIN, [engine]));
    dynamic.push(await startMs(process.execPath, [DYNAMIC, engine]));
  }
  return { pluginMs: round(median(plugin), 0), dynamicMs: round(median(dynamic), 0) };
}

function yamlFleet(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-yaml-'));
  const guests = Array.from(
    { length: GUESTS },
    (_, i) => `  g${i}:
    type: svc:index:VirtualGuest
    properties:
      domain: fleet.example.com
      datacenter: dal10
      startCpus: 1
      maxMemory: 1024
      operatingSystemReferenceCode: UBUNTU_LATEST
      tags: [fleet]`,
  );
  const plugins = `plugins:\n  providers:\n    - name: svc\n      path: ${path.dirname(PLUGIN)}`;
  fs.writeFileSync(
    path.join(dir, 'Pulumi.yaml'),
    `name: bench-yaml\nruntime: yaml\n${plugins}\nresources:\n${guests.join('\n')}\n`,
  );
  return dir;
}

async function timeUp(f: CliFixture): Promise<number> {
  try {
    const started = Date.now();
    await f.stack.up(['--parallel', '32']);
    const seconds = (Date.now() - started) / 1000;
    const made = (await f.guests()).filter((g) => g.domain === 'fleet.example.com').length;
    if (made !== GUESTS) throw new Error(`expected ${GUESTS} guests, found ${made}`);
    await f.stack.destroy();
    return round(seconds, 2);
  } finally {
    await f.close();
  }
}

async function main(): Promise<void> {
  const engine: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
  const { port } = engine.address() as { port: number };
  const { pluginMs, dynamicMs } = await startTimes(`127.0.0.1:${port}`);
  engine.close();

  const yaml = yamlFleet();
  const pluginUpS = await timeUp(
    await cliFixture({ program: yaml, inPlace: true, provisioningDelayMs: DELAY_MS }),
  );
  fs.rmSync(yaml, { recursive: true, force: true });
  const dynamicUpS = await timeUp(
    await cliFixture({
      program: 'fleet',
      config: { 'stacktest:count': { value: String(GUESTS) } },
      provisioningDelayMs: DELAY_MS,
    }),
  );
  const startRatio = round(dynamicMs / pluginMs, 2);
  const upRatio = round(pluginUpS / dynamicUpS, 2);
  printTable([
    { provider: 'plugin (YAML program)', 'start (ms)': pluginMs, [`up ${GUESTS} (s)`]: pluginUpS },
    { provider: 'dynamic (TS program)', 'start (ms)': dynamicMs, [`up ${GUESTS} (s)`]: dynamicUpS },
  ]);
  console.log(
    `the plugin starts ${startRatio}x faster (target >= 2x); its up takes ${upRatio}x the dynamic one's (target <= 1)`,
  );
  printResult({ bench: 'plugin', pluginMs, dynamicMs, startRatio, pluginUpS, dynamicUpS, upRatio });
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

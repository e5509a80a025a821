import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '../provider/client';
import { guestTemplate } from '../test/support/emulator-harness';
import { printResult, printTable } from './support/report';

/**
 * The emulator's promise that an acknowledged write survives a crash: 8 writers order guests for
 * 30 s while the emulator process is killed with SIGKILL and restarted three times. Afterwards
 * every guest whose createObject was answered must exist.
 */
const WRITERS = 8;
const DURATION_MS = Number(process.env.DURABILITY_MS ?? 30_000);
const KILLS = 3;

interface Endpoint {
  url: string;
  username: string;
  apiKey: string;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the emulator CLI in a child process and resolves with what it prints once it listens. */
async function startChild(
  port: number,
  dataDir: string,
): Promise<{ child: ChildProcess; endpoint: Endpoint }> {
  const cli = path.join(__dirname, '..', 'emulator', 'cli.ts');
  const args = [
    '--import',
    'tsx',
    cli,
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--seed',
    'empty',
    '--json',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`emulator exited with ${code} before listening`)),
    );
  });
  const info = JSON.parse(first) as {
    url: string;
    credentials: { username: string; apiKey: string };
  };
  return { child, endpoint: { url: info.url, ...info.credentials } };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-durability-'));
  const port = await freePort();
  const first = await startChild(port, dataDir);
  const endpoint = first.endpoint;
  let child = first.child;
  const client = new Client({
    username: endpoint.username,
    apiKey: endpoint.apiKey,
    endpointUrl: endpoint.url,
    retry: false,
    timeout: 5,
  });
  const acknowledged = new Set<number>();
  let failed = 0;
  let seq = 0;
  const started = Date.now();
  const deadline = started + DURATION_MS;
  const sleepUntil = (at: number) =>
    new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

  const writer = async (w: number) => {
    while (Date.now() < deadline) {
      const hostname = `d${w}-${seq++}`;
      try {
        const guest = (await client.call('Virtual_Guest', 'createObject', {
          args: [guestTemplate({ hostname, domain: 'durable.example.com' })],
        })) as { id: number };
        acknowledged.add(guest.id);
      } catch {
        failed++; // not acknowledged: it may or may not exist, either is correct
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const killer = async () => {
    for (let k = 1; k <= KILLS; k++) {
      await sleepUntil(started + (DURATION_MS / (KILLS + 1)) * k);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      ({ child } = await startChild(port, dataDir));
    }
  };

  await Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), killer()]);
  const present = new Set<number>();
  for await (const guest of client.iterCall('Account', 'getVirtualGuests', {
    mask: 'id',
    chunk: 1000,
  })) {
    present.add((guest as { id: number }).id);
  }
  child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const lost = [...acknowledged].filter((id) => !present.has(id));
  printTable([
    {
      writers: WRITERS,
      seconds: DURATION_MS / 1000,
      'SIGKILL restarts': KILLS,
      acknowledged: acknowledged.size,
      'not answered': failed,
      'present after': present.size,
      lost: lost.length,
    },
  ]);
  if (lost.length > 0) console.log(`LOST acknowledged guests: ${lost.slice(0, 20).join(', ')}`);
  printResult({
    bench: 'durability',
    writers: WRITERS,
    restarts: KILLS,
    acknowledged: acknowledged.size,
    unanswered: failed,
    present: present.size,
    lost: lost.length,
  });
  if (lost.length > 0) process.exitCode = 1;
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

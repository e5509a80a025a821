/**
 * Emulator benchmark: Account.getVirtualGuests on an account with 10,000 guests, with an object
 * filter (datacenter, memory, tag, orderBy), a mask and limit 100, against baselines (the same
 * page without filter/mask, an empty account) and the durable write path (createObject with
 * fsync'd journal, sequential and 8 concurrent writers = group commit).
 * The emulator runs in its own process (as `svc-emulator`), the client is node:http keep-alive.
 *   npm run bench -- emulator        (node --import tsx --expose-gc bench/emulator.ts)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import Deserializer from 'xmlrpc/lib/deserializer';
import { asMethodResponse } from '../test/support/emulator-client';
import { rawPost } from '../test/support/raw-post';
import { GUEST_FILTER, GUEST_MASK } from './support/guest-query';

const ROOT = path.resolve(__dirname, '..');
const GUESTS = 10_000;
const SEQUENTIAL = 300;
const CONCURRENT_MS = 5_000;
const CONCURRENCY = 8;

interface Emulator {
  proc: ChildProcess;
  url: string;
  adminUrl: string;
  apiKey: string;
}

async function spawnEmulator(args: string[]): Promise<Emulator> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', '--json', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  const info = JSON.parse(line) as {
    url: string;
    adminUrl: string;
    credentials: { apiKey: string };
  };
  return { proc, url: info.url, adminUrl: info.adminUrl, apiKey: info.credentials.apiKey };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  rawPost(url, body, { headers, agent });

const xmlValue = (v: unknown): string => {
  if (typeof v === 'number') return `<value><int>${v}</int></value>`;
  if (typeof v === 'boolean') return `<value><boolean>${v ? 1 : 0}</boolean></value>`;
  if (typeof v === 'string')
    return `<value><string>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string></value>`;
  if (Array.isArray(v))
    return `<value><array><data>${v.map(xmlValue).join('')}</data></array></value>`;
  const members = Object.entries(v as Record<string, unknown>).map(
    ([k, x]) => `<member><name>${k}</name>${xmlValue(x)}</member>`,
  );
  return `<value><struct>${members.join('')}</struct></value>`;
};

const callBody = (method: string, headers: Record<string, unknown>, args: unknown[] = []) =>
  `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${[
    { headers },
    ...args,
  ]
    .map((p) => `<param>${xmlValue(p)}</param>`)
    .join('')}</params></methodCall>`;

function decode(body: Buffer): Promise<unknown> {
  return new Promise((resolve, reject) =>
    new Deserializer('utf8').deserializeMethodResponse(
      Readable.from([Buffer.from(asMethodResponse(body.toString('utf8')), 'utf8')]),
      (err, value) => (err ? reject(err) : resolve(value)),
    ),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

interface Result {
  name: string;
  p50: number;
  p99: number;
  rps: number;
}

/** Sequential latency percentiles, then throughput with 8 concurrent callers. */
async function measure(
  name: string,
  url: string,
  makeBody: () => string,
  sequential = SEQUENTIAL,
): Promise<Result> {
  for (let i = 0; i < 20; i += 1) await post(url, makeBody());
  const latencies: number[] = [];
  for (let i = 0; i < sequential; i += 1) {
    const t = performance.now();
    const res = await post(url, makeBody());
    latencies.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
  }
  latencies.sort((a, b) => a - b);
  let done = 0;
  const until = performance.now() + CONCURRENT_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await post(url, makeBody());
        done += 1;
      }
    }),
  );
  const rps = done / ((performance.now() - started) / 1000);
  const result = {
    name,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    rps: round(rps, 1),
  };
  console.log(
    `${name.padEnd(58)} p50 ${String(result.p50).padStart(7)} ms   p99 ${String(result.p99).padStart(7)} ms   ${String(result.rps).padStart(7)} req/s (x${CONCURRENCY})`,
  );
  return result;
}

async function adminPost(
  adminUrl: string,
  route: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${adminUrl}${route}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${route}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  console.log(
    `emulator bench: Account.getVirtualGuests, ${GUESTS} guests, node ${process.version}\n`,
  );
  const reads = await spawnEmulator(['--provisioning-delay', '0']);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-emulator-bench-'));
  let writes: Emulator | undefined;
  let summary: (() => void) | undefined;
  try {
    const big = await adminPost(reads.adminUrl, '/accounts', {
      username: 'bench',
      companyName: 'Bench',
    });
    const t0 = performance.now();
    await adminPost(reads.adminUrl, '/accounts/bench/populate', { virtualGuests: GUESTS });
    console.log(`populated ${GUESTS} guests in ${Math.round(performance.now() - t0)} ms\n`);
    const auth = { authenticate: { username: 'bench', apiKey: big.apiKey } };
    const endpoint = `${reads.url}/Svc_Account`;

    const filter = GUEST_FILTER;
    const mask = GUEST_MASK;
    const filtered = callBody('getVirtualGuests', {
      ...auth,
      Svc_AccountObjectFilter: filter,
      Svc_ObjectMask: { mask },
      resultLimit: { limit: 100, offset: 0 },
    });
    const check = await post(endpoint, filtered);
    const page = (await decode(check.body)) as { id: number; datacenter: { name: string } }[];
    const total = Number(check.headers['svc-total-items']);
    if (page.length !== 100 || !(total > 100) || page.some((g) => g.datacenter.name !== 'wdc07')) {
      throw new Error(`unexpected page: ${page.length} rows, total ${total}`);
    }
    console.log(`filtered page: 100 of ${total} matching guests, ${check.body.length} bytes\n`);

    const main = await measure(
      'filter + mask + limit 100 (10,000 guests)',
      endpoint,
      () => filtered,
    );
    const plain = await measure('no filter, no mask, limit 100 (10,000 guests)', endpoint, () =>
      callBody('getVirtualGuests', { ...auth, resultLimit: { limit: 100, offset: 0 } }),
    );
    const offsetPage = await measure('filter + mask, limit 100 offset 1000', endpoint, () =>
      filtered.replace(
        '<name>offset</name><value><int>0</int>',
        '<name>offset</name><value><int>1000</int>',
      ),
    );
    const empty = await adminPost(reads.adminUrl, '/accounts', { username: 'bench-empty' });
    const emptyCall = await measure('empty account, same filter + mask', endpoint, () =>
      filtered
        .replace(String(big.apiKey), String(empty.apiKey))
        .replace('<string>bench</string>', '<string>bench-empty</string>'),
    );

    writes = await spawnEmulator(['--provisioning-delay', '0', '--data-dir', dataDir]);
    const writeAuth = { authenticate: { username: 'demo', apiKey: writes.apiKey } };
    let n = 0;
    const create = () =>
      callBody('createObject', writeAuth, [
        {
          hostname: `w${(n += 1)}`,
          domain: 'bench.example.net',
          startCpus: 1,
          maxMemory: 1024,
          hourlyBillingFlag: true,
          localDiskFlag: false,
          operatingSystemReferenceCode: 'UBUNTU_LATEST',
        },
      ]);
    const durable = await measure(
      'createObject, durable (fsync per ack, group commit)',
      `${writes.url}/Svc_Virtual_Guest`,
      create,
      100,
    );

    summary = () => {
      console.log('');
      console.log(
        `filter+mask vs no filter/mask: p50 x${round(main.p50 / plain.p50)}, throughput x${round(main.rps / plain.rps)}`,
      );
      console.log(
        `10,000 guests vs empty account: p50 x${round(main.p50 / emptyCall.p50)}, throughput x${round(main.rps / emptyCall.rps)}`,
      );
      console.log(`offset 1000 vs offset 0: p50 x${round(offsetPage.p50 / main.p50)}`);
      console.log(
        `durable writes: p50 ${durable.p50} ms sequential, ${durable.rps} writes/s with ${CONCURRENCY} writers`,
      );
      console.log(`target p50 < 50 ms: ${main.p50 < 50 ? 'met' : 'NOT met'}`);
      console.log(
        JSON.stringify({
          bench: 'emulator',
          p50Ms: main.p50,
          p99Ms: main.p99,
          rps: main.rps,
          baselineP50Ms: plain.p50,
          emptyAccountP50Ms: emptyCall.p50,
          writeP50Ms: durable.p50,
          writeRps: durable.rps,
        }),
      );
    };
  } finally {
    agent.destroy();
    await Promise.all([stop(reads), writes && stop(writes)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Printed last, after the emulators' own shutdown lines: the final line is the JSON.
  summary?.();
}

function stop(emulator: Emulator): Promise<void> {
  return new Promise((resolve) => {
    if (emulator.proc.exitCode !== null) return resolve();
    emulator.proc.once('exit', () => resolve());
    emulator.proc.kill('SIGTERM');
  });
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exitCode = 1;
});

/**
 * Client benchmark (issue 6):
 *  - calls per second of `Account.getObject` with a small mask, one at a time and 16 in flight,
 *    against a loopback server that answers fixed bytes (child process), and against the
 *    emulator (both servers run in child processes);
 *  - the floor in the same run: a bare undici `request` POST loop with the same Agent settings,
 *    the same body and headers, to the fixed-bytes server (no encode, no decode, no retry);
 *  - `iterCall` over 10,000 guests with pages of 100 and 1,000: total time, and heap used
 *    (after gc) sampled at every page, to show memory stays flat in the number of pages.
 *
 *   node --import tsx --expose-gc bench/client.ts [--seconds 5] [--runs 3]
 *
 * (`--seconds`: time per calls/s figure; `--runs`: timed iterCall passes, the median is shown.)
 *
 * `clientOverFloor` is floor rps / client rps at 16 in flight on the fixed-bytes server (1.0 =
 * no overhead; the target is <= 1.5).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { Client, closeConnections } from '../provider/client';
import { encodeMethodCall } from '../provider/client/codec';
import { agentOptions } from '../provider/client/transport';
import { defaultUserAgent } from '../provider/client/version';
import { startCannedServer } from './support/canned-server';
import { startEmulatorTarget } from './support/emulator-target';
import { collectGarbage, median, printResult, printTable, round } from './support/report';

const MASK = 'id,companyName';
const GUESTS = 10_000;
const TIMEOUT_S = 120;

/** Runs `task` in `inFlight` concurrent loops for about `seconds`; returns calls and elapsed seconds. */
async function run(task: () => Promise<unknown>, inFlight: number, seconds: number) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let calls = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      await task();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  return { calls, seconds: (performance.now() - started) / 1000 };
}

/**
 * Calls per second of each task. The tasks take turns in short windows (the order swapping each
 * round) and the rate is total calls over total time, so a machine whose load changes during
 * the run slows every task alike instead of biasing one.
 */
async function measure(
  tasks: readonly (() => Promise<unknown>)[],
  inFlight: number,
  seconds: number,
): Promise<number[]> {
  const WINDOW_S = 0.25;
  for (const task of tasks) await run(task, inFlight, WINDOW_S);
  const totals = tasks.map(() => ({ calls: 0, seconds: 0 }));
  const rounds = Math.max(1, Math.round(seconds / WINDOW_S));
  for (let round = 0; round < rounds; round++) {
    const order = tasks.map((_, j) => (round % 2 === 0 ? j : tasks.length - 1 - j));
    for (const j of order) {
      const { calls, seconds: elapsed } = await run(tasks[j], inFlight, WINDOW_S);
      totals[j].calls += calls;
      totals[j].seconds += elapsed;
    }
  }
  return totals.map((t) => t.calls / t.seconds);
}

function settingsFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'empty.ini');
  writeFileSync(file, '');
  return file;
}

/** The bare-undici floor: the same request the client sends, with nothing around it. */
function floorTask(endpointUrl: string): () => Promise<unknown> {
  const agent = new Agent(agentOptions(TIMEOUT_S * 1000));
  const headersStruct = {
    headers: {
      authenticate: { username: 'bench', apiKey: 'bench-key' },
      Svc_ObjectMask: { mask: `mask[${MASK}]` },
    },
  };
  const body = encodeMethodCall('getObject', [headersStruct]);
  const headers = {
    'content-type': 'text/xml',
    'user-agent': defaultUserAgent(),
    accept: '*/*',
    'accept-encoding': 'gzip',
  };
  const url = `${endpointUrl}Svc_Account`;
  return async () => {
    const res = await request(url, { method: 'POST', body, headers, dispatcher: agent });
    await res.body.arrayBuffer();
  };
}

interface IterFigures {
  ms: number;
  pages: number;
  baselineMB: number;
  peakMB: number;
  firstPageMB: number;
  lastPageMB: number;
}

const MB = 1024 * 1024;

async function iterate(client: Client, chunk: number, runs: number): Promise<IterFigures> {
  const pass = async (sample: boolean) => {
    const heap: number[] = [];
    let count = 0;
    for await (const _guest of client.iterCall('Account', 'getVirtualGuests', {
      chunk,
      mask: 'id,hostname',
    })) {
      if (sample && count % chunk === 0) {
        collectGarbage();
        heap.push(process.memoryUsage().heapUsed);
      }
      count++;
    }
    if (count !== GUESTS) throw new Error(`iterCall yielded ${count} guests, expected ${GUESTS}`);
    return heap;
  };
  await pass(false);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    const started = performance.now();
    await pass(false);
    times.push(performance.now() - started);
  }
  collectGarbage();
  const baseline = process.memoryUsage().heapUsed;
  const heap = await pass(true);
  return {
    ms: median(times),
    pages: heap.length,
    baselineMB: baseline / MB,
    peakMB: Math.max(...heap) / MB,
    firstPageMB: heap[0] / MB,
    lastPageMB: heap[heap.length - 1] / MB,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string' }, runs: { type: 'string' } },
  });
  const seconds = Number(values.seconds ?? 5);
  const runs = Number(values.runs ?? 3);
  if (!(globalThis as { gc?: unknown }).gc)
    console.log('note: run with --expose-gc for the heap figures');
  const configFile = settingsFile();

  const canned = await startCannedServer({ guests: GUESTS });
  const emulator = await startEmulatorTarget();
  try {
    const newClient = (endpointUrl: string, auth?: { username: string; apiKey: string }) =>
      new Client({
        username: 'bench',
        apiKey: 'bench-key',
        ...auth,
        endpointUrl,
        timeout: TIMEOUT_S,
        configFile,
      });
    const client = newClient(canned.url);
    const getObject = (c: Client) => () => c.Account.getObject({ mask: MASK });
    const floor = floorTask(canned.url);

    const rows: Record<string, string | number>[] = [];
    const row = (target: string, what: string, inFlight: number, rps: number) => {
      rows.push({ target, what, 'in flight': inFlight, 'calls/s': Math.round(rps) });
      return rps;
    };
    const [seq, floorSeq] = await measure([getObject(client), floor], 1, seconds);
    const [par16, floorPar16] = await measure([getObject(client), floor], 16, seconds);
    const emu = newClient(emulator.url, emulator.credentials);
    const [emuSeq] = await measure([getObject(emu)], 1, seconds);
    const [emuPar16] = await measure([getObject(emu)], 16, seconds);
    const seqRps = row('fixed bytes', 'client getObject', 1, seq);
    const floorSeqRps = row('fixed bytes', 'bare undici POST', 1, floorSeq);
    const par16Rps = row('fixed bytes', 'client getObject', 16, par16);
    const floorPar16Rps = row('fixed bytes', 'bare undici POST', 16, floorPar16);
    const emulatorSeqRps = row('emulator', 'client getObject', 1, emuSeq);
    const emulatorPar16Rps = row('emulator', 'client getObject', 16, emuPar16);
    console.log(
      `Account.getObject mask '${MASK}', reply ${canned.fixedReplyBytes} bytes; ${seconds} s per figure, in alternating 0.25 s windows`,
    );
    printTable(rows);

    const iter100 = await iterate(client, 100, runs);
    const iter1000 = await iterate(client, 1000, runs);
    console.log(
      `\niterCall over ${GUESTS} guests (fixed-bytes server), heap used after gc sampled at every page`,
    );
    printTable(
      [
        ['100', iter100],
        ['1000', iter1000],
      ].map(([chunk, f]) => {
        const figures = f as IterFigures;
        return {
          chunk: chunk as string,
          pages: figures.pages,
          'total ms': round(figures.ms),
          'baseline MB': round(figures.baselineMB, 2),
          'first page MB': round(figures.firstPageMB, 2),
          'last page MB': round(figures.lastPageMB, 2),
          'peak MB': round(figures.peakMB, 2),
        };
      }),
    );
    const clientOverFloor = floorPar16Rps / par16Rps;
    console.log(
      `\nclient vs floor at 16 in flight: ${round(clientOverFloor, 2)}x (target <= 1.5); sequential: ${round(floorSeqRps / seqRps, 2)}x`,
    );
    printResult({
      bench: 'client',
      clientOverFloor: round(clientOverFloor, 2),
      seqRps: Math.round(seqRps),
      par16Rps: Math.round(par16Rps),
      floorSeqRps: Math.round(floorSeqRps),
      floorPar16Rps: Math.round(floorPar16Rps),
      emulatorSeqRps: Math.round(emulatorSeqRps),
      emulatorPar16Rps: Math.round(emulatorPar16Rps),
      iter100Ms: round(iter100.ms),
      iter1000Ms: round(iter1000.ms),
      iter100HeapMB: round(iter100.peakMB, 2),
      iter1000HeapMB: round(iter1000.peakMB, 2),
      iter100GrowthMB: round(iter100.lastPageMB - iter100.firstPageMB, 2),
      iter1000GrowthMB: round(iter1000.lastPageMB - iter1000.firstPageMB, 2),
    });
  } finally {
    await emulator.close();
    await canned.close();
    await closeConnections();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

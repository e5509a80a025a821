/**
 * Codec benchmark (issue 17): a methodResponse with 10,000 virtual-guest structs (17.7 MB),
 * decoded and encoded by our codec, by the `xmlrpc` package, and by a floor, in the same run.
 *
 *   node --import tsx --expose-gc bench/codec.ts [--rows 10000] [--rounds 15]
 *
 * Floors: decoding, `JSON.parse` of the same objects serialized as JSON plus one
 * `indexOf('<')` pass over the XML text (building the objects, and looking at every byte once);
 * encoding, `JSON.stringify` of the same objects. Ours and the floors run in interleaved rounds
 * (a GC before each run), so load from other processes falls on both.
 *
 * The figures of the last line are medians of CPU time (the process's, all threads, so GC
 * helpers count): on a machine whose two cores other processes share, wall-clock time mostly
 * measures waiting for a core (it was 5-9x the CPU time in some runs). The table shows both, and
 * the wall-clock ratios are printed too. MB/s is over the bytes of our encoding.
 *
 * Peak memory: the document decoded as the client does it: as it arrives in 64 KiB chunks (fresh
 * buffers, as a socket delivers them), with a UTF-8 and with an ISO-8859-1 declaration (the real
 * service's, for which chunks are kept in case the body is not UTF-8), and gzipped (inflated
 * whole, then decoded from the bytes); the figure is the largest, over the document's size.
 */

import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import Deserializer from 'xmlrpc/lib/deserializer';
import { serializeMethodResponse } from 'xmlrpc/lib/serializer';
import {
  createResponseDecoder,
  decodeMethodResponse,
  encodeMethodResponse,
} from '../provider/client/codec';
import { buildGuestListing } from './support/guest-listing';
import { peakBytes } from './support/peak-memory';
import {
  collectGarbage,
  mbPerSecond,
  median,
  printResult,
  printTable,
  round,
  time,
  type Timing,
} from './support/report';

const CHUNK_BYTES = 64 * 1024;

function decodeWithXmlrpc(body: Buffer): Promise<unknown> {
  return new Promise((resolve, reject) => {
    new Deserializer('utf8').deserializeMethodResponse(
      Readable.from([body], { objectMode: false }),
      (err, value) => (err ? reject(err) : resolve(value)),
    );
  });
}

function decodeWithOurs(body: Buffer): unknown {
  const decoded = decodeMethodResponse(body);
  assert.equal(decoded.kind, 'value');
  return decoded.value;
}

/** Every '<' of the text, found with indexOf: one look at each character. */
function scanForMarkup(text: string): number {
  let count = 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) count++;
  return count;
}

/** Times the tasks in interleaved rounds, a GC before each run; medians per task. */
function timeInterleaved(
  tasks: Record<string, () => unknown>,
  rounds: number,
): Record<string, Timing> {
  const names = Object.keys(tasks);
  const wall = new Map<string, number[]>(names.map((name) => [name, []]));
  const cpu = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = -2; round < rounds; round++) {
    for (const name of names) {
      collectGarbage();
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      tasks[name]();
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      const used = process.cpuUsage(cpuStart);
      // The first two rounds warm up the JIT.
      if (round < 0) continue;
      wall.get(name)?.push(wallMs);
      cpu.get(name)?.push((used.user + used.system) / 1000);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const samplesMs = wall.get(name) ?? [];
      return [
        name,
        {
          medianMs: median(samplesMs),
          minMs: Math.min(...samplesMs),
          samplesMs,
          medianCpuMs: median(cpu.get(name) ?? []),
        },
      ];
    }),
  );
}

/** Peak memory of decoding `body` chunk by chunk. */
async function streamingPeak(body: Buffer): Promise<number> {
  const { bytes, result } = await peakBytes((sample) => {
    const decoder = createResponseDecoder();
    for (let i = 0; i < body.length; i += CHUNK_BYTES) {
      decoder.write(Buffer.from(body.subarray(i, i + CHUNK_BYTES)));
      sample();
    }
    return decoder.end();
  });
  assert.equal(result.kind, 'value');
  return bytes;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rows: { type: 'string' }, rounds: { type: 'string' } },
  });
  const rows = Number(values.rows ?? 10_000);
  const rounds = Number(values.rounds ?? 15);
  const listing = buildGuestListing(rows);

  const ourXml = encodeMethodResponse(listing);
  const theirXml = serializeMethodResponse(listing);
  const body = Buffer.from(ourXml, 'utf8');
  const xmlText = body.toString('latin1');
  const json = JSON.stringify(listing);
  const size = body.length;
  console.log(`payload: ${rows} guest structs, ${round(size / 1e6, 2)} MB as we encode it`);

  // Every decoder must read both encodings back to the input.
  assert.deepStrictEqual(decodeWithOurs(body), listing);
  assert.deepStrictEqual(decodeWithOurs(Buffer.from(theirXml)), listing);
  assert.deepStrictEqual(await decodeWithXmlrpc(body), listing);
  assert.deepStrictEqual(JSON.parse(json), listing);
  console.log('check: both decoders return the input from both encodings (deepStrictEqual)');

  const ours = timeInterleaved(
    {
      decode: () => decodeWithOurs(body),
      decodeFloor: () => [JSON.parse(json), scanForMarkup(xmlText)],
      encode: () => encodeMethodResponse(listing),
      encodeFloor: () => JSON.stringify(listing),
    },
    rounds,
  );
  // xmlrpc takes seconds per run: the checks above were its warm-up, and it gets few runs.
  const xmlrpcRuns = { warmups: 0, runs: 3 };
  const encodeXmlrpc = await time(() => serializeMethodResponse(listing), xmlrpcRuns);
  const decodeXmlrpc = await time(() => decodeWithXmlrpc(body), xmlrpcRuns);

  const line = (direction: string, codec: string, timing: Timing) => ({
    direction,
    codec,
    'cpu ms (median)': round(timing.medianCpuMs),
    'MB/s (cpu)': round(mbPerSecond(size, timing.medianCpuMs)),
    'wall ms (median)': round(timing.medianMs),
  });
  printTable([
    line('decode', 'ours (byte scanner)', ours.decode),
    line('decode', 'floor: JSON.parse + indexOf scan', ours.decodeFloor),
    line('decode', 'xmlrpc 1.3.2 (sax)', decodeXmlrpc),
    line('encode', 'ours (byte writer)', ours.encode),
    line('encode', 'floor: JSON.stringify', ours.encodeFloor),
    line('encode', 'xmlrpc 1.3.2', encodeXmlrpc),
  ]);

  const ratio = (slow: Timing, fast: Timing) => slow.medianCpuMs / fast.medianCpuMs;
  const wallRatio = (slow: Timing, fast: Timing) => round(slow.medianMs / fast.medianMs, 2);
  const decodeRatio = ratio(decodeXmlrpc, ours.decode);
  const encodeRatio = ratio(encodeXmlrpc, ours.encode);
  const decodeOverFloor = ratio(ours.decode, ours.decodeFloor);
  const encodeOverFloor = ratio(ours.encode, ours.encodeFloor);
  console.log(
    `ours vs xmlrpc (CPU time): decode ${round(decodeRatio)}x faster (target 20x), ` +
      `encode ${round(encodeRatio)}x (target 10x)`,
  );
  console.log(
    `ours over the floor (CPU time): decode ${round(decodeOverFloor, 2)}x (target <= 3), ` +
      `encode ${round(encodeOverFloor, 2)}x (target <= 2)`,
  );
  console.log(
    `the same in wall-clock time: vs xmlrpc decode ${wallRatio(decodeXmlrpc, ours.decode)}x, ` +
      `encode ${wallRatio(encodeXmlrpc, ours.encode)}x; over the floor decode ` +
      `${wallRatio(ours.decode, ours.decodeFloor)}x, encode ${wallRatio(ours.encode, ours.encodeFloor)}x`,
  );

  const latin1Body = Buffer.from(
    ourXml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'),
    'utf8',
  );
  const gzipped = gzipSync(body);
  const peaks = {
    'as it arrives, UTF-8 declared': await streamingPeak(body),
    'as it arrives, ISO-8859-1 declared': await streamingPeak(latin1Body),
    'gzipped, inflated whole': (
      await peakBytes((sample) => {
        const inflated = gunzipSync(gzipped);
        sample();
        return decodeMethodResponse(inflated);
      })
    ).bytes,
  };
  printTable(
    Object.entries(peaks).map(([decoding, bytes]) => ({
      'peak memory: decoding': decoding,
      MB: round(bytes / 1e6),
      'x document': round(bytes / size, 2),
    })),
  );
  const peakMemoryRatio = Math.max(...Object.values(peaks)) / size;
  console.log(`peak memory: ${round(peakMemoryRatio, 2)}x the document at most (target <= 3)`);

  printResult({
    bench: 'codec',
    decodeMBs: round(mbPerSecond(size, ours.decode.medianCpuMs)),
    encodeMBs: round(mbPerSecond(size, ours.encode.medianCpuMs)),
    decodeRatio: round(decodeRatio, 2),
    encodeRatio: round(encodeRatio, 2),
    decodeOverFloor: round(decodeOverFloor, 2),
    encodeOverFloor: round(encodeOverFloor, 2),
    peakMemoryRatio: round(peakMemoryRatio, 2),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

/**
 * Codec benchmark (libraries.md §1.6): a methodResponse with 10,000 virtual-guest structs,
 * encoded and decoded by our codec and by the `xmlrpc` package in the same run.
 *
 *   node --import tsx --expose-gc bench/codec.ts [--rows 10000] [--runs 7]
 *
 * Ratios compare wall-clock medians for the same work (ours' speed / xmlrpc's speed); CPU-time
 * ratios are printed too, as they move less when other processes share the cores. MB/s is over
 * the bytes of our encoding, which both decoders read. The payload has only int32 integers,
 * strings, booleans, doubles and structs, where both codecs agree exactly, so results are
 * compared with deepStrictEqual and no normalisation.
 */

import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import Deserializer from 'xmlrpc/lib/deserializer';
import { serializeMethodResponse } from 'xmlrpc/lib/serializer';
import { decodeMethodResponse, encodeMethodResponse } from '../provider/client/codec';
import { buildGuestListing } from './support/guest-listing';
import { mbPerSecond, printResult, printTable, round, time, type Timing } from './support/report';

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

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, runs: { type: 'string' } } });
  const rows = Number(values.rows ?? 10_000);
  const runs = Number(values.runs ?? 7);
  const listing = buildGuestListing(rows);

  const ourXml = encodeMethodResponse(listing);
  const theirXml = serializeMethodResponse(listing);
  const body = Buffer.from(ourXml, 'utf8');
  console.log(`payload: ${rows} guest structs, ${round(body.length / 1e6, 2)} MB as we encode it`);

  // Both decoders must read both encodings back to the input.
  assert.deepStrictEqual(decodeWithOurs(body), listing);
  assert.deepStrictEqual(decodeWithOurs(Buffer.from(theirXml)), listing);
  assert.deepStrictEqual(await decodeWithXmlrpc(body), listing);
  console.log('check: both decoders return the input from both encodings (deepStrictEqual)');

  // xmlrpc takes seconds per run: the calls above were its warm-up, and it gets fewer timed runs
  // so the whole benchmark stays within about a minute.
  const slowRuns = Math.max(3, Math.ceil(runs / 2));
  const encodeOurs = await time(() => encodeMethodResponse(listing), { warmups: 2, runs });
  const encodeTheirs = await time(() => serializeMethodResponse(listing), {
    warmups: 0,
    runs: slowRuns,
  });
  const decodeOurs = await time(() => decodeWithOurs(body), { warmups: 2, runs });
  const decodeTheirs = await time(() => decodeWithXmlrpc(body), { warmups: 0, runs: slowRuns });

  const line = (direction: string, codec: string, timing: Timing) => ({
    direction,
    codec,
    'ms (median)': round(timing.medianMs),
    'MB/s': round(mbPerSecond(body.length, timing.medianMs)),
    'cpu ms (median)': round(timing.medianCpuMs),
  });
  printTable([
    line('encode', 'ours (string builder)', encodeOurs),
    line('encode', 'xmlrpc 1.3.2', encodeTheirs),
    line('decode', 'ours (saxes)', decodeOurs),
    line('decode', 'xmlrpc 1.3.2 (sax)', decodeTheirs),
  ]);
  const encodeRatio = encodeTheirs.medianMs / encodeOurs.medianMs;
  const decodeRatio = decodeTheirs.medianMs / decodeOurs.medianMs;
  const cpuRatio = (theirs: Timing, ours: Timing) => round(theirs.medianCpuMs / ours.medianCpuMs);
  console.log(
    `ours vs xmlrpc (wall clock): encode ${round(encodeRatio)}x faster (target 5x), ` +
      `decode ${round(decodeRatio)}x (target 8x)`,
  );
  console.log(
    `ours vs xmlrpc (CPU time, steadier on a busy machine): encode ` +
      `${cpuRatio(encodeTheirs, encodeOurs)}x, decode ${cpuRatio(decodeTheirs, decodeOurs)}x`,
  );
  printResult({
    bench: 'codec',
    decodeMBs: round(mbPerSecond(body.length, decodeOurs.medianMs)),
    encodeMBs: round(mbPerSecond(body.length, encodeOurs.medianMs)),
    decodeRatio: round(decodeRatio, 2),
    encodeRatio: round(encodeRatio, 2),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

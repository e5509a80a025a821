/**
 * Peak memory of a piece of work that can report progress: the V8 heap in use plus external
 * memory (Buffers), read at every `sample()` call during the work, minus the level before it.
 * Garbage not yet collected counts: it is memory the process holds at that moment. The level
 * before is read after a full GC and a pause, because V8 releases the memory of collected
 * Buffers on a background thread.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { collectGarbage } from './report';

export async function peakBytes<T>(
  work: (sample: () => void) => T,
): Promise<{ bytes: number; result: T }> {
  collectGarbage();
  await sleep(200);
  collectGarbage();
  const before = inUse();
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, inUse());
  };
  const result = work(sample);
  sample();
  // Returned, the result is still reachable at the last reading.
  return { bytes: peak - before, result };
}

function inUse(): number {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

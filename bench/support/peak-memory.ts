/**
 * Peak memory of a piece of work that can report progress: the V8 heap in use plus external
 * memory (Buffers), read after a full GC before the work and at every `sample()` call during it;
 * the figure is the highest reading above the level before. Garbage not yet collected counts:
 * it is memory the process holds at that moment.
 */

import { collectGarbage } from './report';

export function peakBytes<T>(work: (sample: () => void) => T): { bytes: number; result: T } {
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

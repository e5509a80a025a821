/**
 * Shared benchmark helpers: timing with warm-ups and a median, MB/s, a plain-text table, and the
 * closing JSON line every benchmark prints (its very last line is one JSON object).
 */

export interface TimingOptions {
  /** Untimed runs first, so the JIT has compiled the hot paths. */
  warmups: number;
  /** Timed runs; the median is reported. */
  runs: number;
}

export interface Timing {
  /** Wall-clock time. */
  medianMs: number;
  minMs: number;
  samplesMs: number[];
  /**
   * CPU time of the whole process (all threads, so GC helpers count). Less sensitive than wall
   * time to other processes competing for the cores.
   */
  medianCpuMs: number;
}

/** Times `task` (sync or async); runs `global.gc` between runs when node has `--expose-gc`. */
export async function time(task: () => unknown, { warmups, runs }: TimingOptions): Promise<Timing> {
  for (let i = 0; i < warmups; i++) await task();
  const samplesMs: number[] = [];
  const cpuSamplesMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    await task();
    samplesMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    const cpu = process.cpuUsage(cpuStart);
    cpuSamplesMs.push((cpu.user + cpu.system) / 1000);
  }
  return {
    medianMs: median(samplesMs),
    minMs: Math.min(...samplesMs),
    samplesMs,
    medianCpuMs: median(cpuSamplesMs),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Megabytes (10^6 bytes) per second. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}

export function round(value: number, decimals = 1): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Prints rows as an aligned table; numbers are right-aligned. */
export function printTable(rows: readonly Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const cells = rows.map((row) => columns.map((c) => String(row[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const align = (text: string, i: number, numeric: boolean) =>
    numeric ? text.padStart(widths[i]) : text.padEnd(widths[i]);
  console.log(columns.map((c, i) => align(c, i, typeof rows[0][c] === 'number')).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) {
    console.log(
      row.map((text, i) => align(text, i, typeof rows[0][columns[i]] === 'number')).join('  '),
    );
  }
}

/** The machine-readable result; must be the last thing the benchmark prints. */
export function printResult(result: { bench: string } & Record<string, unknown>): void {
  console.log(JSON.stringify(result));
}

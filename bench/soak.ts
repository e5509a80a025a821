import type { FaultOptions } from '../emulator';
import { cliFixture, type CliFixture } from '../test/stack/cli';
import { printResult, printTable } from './support/report';

/**
 * `pulumi up` of 10 guests with an A record each while the emulator misbehaves: 10% HTTP 500s,
 * 5% dropped connections, 5% responses lost after the write, 0-300 ms latency. For three seeds:
 * how many `up` runs until it converges, how many guests exist (exactly 10), and what `destroy`
 * leaves (nothing). A 500 or a reset in answer to an order leaves its outcome unknown: the
 * provider looks for it for `svc:outcomeWindow` (5 s here), then fails that resource without
 * ordering again, and the next `up` looks once more before it orders; so convergence takes
 * several runs by design. Then the same stack under a 20 requests/s rate limit: the client backs
 * off and no call fails for it.
 */
const GUESTS = 10;
const MAX_RUNS = 8;
const FAULTS: FaultOptions = {
  http500Rate: 0.1,
  dropRate: 0.05,
  loseResponseRate: 0.05,
  latencyMs: { min: 0, max: 300 },
};

interface SoakRun {
  label: string;
  upRuns: number;
  guests: number;
  records: number;
  destroyRuns: number;
  leftAfterDestroy: number;
  requests: number;
  /** Injected faults other than added latency. */
  faultsMet: number;
  faultsByKind: Record<string, number>;
  retries: number;
  rewrites: number;
  rateLimitFailures: number;
}

function inventory(f: CliFixture) {
  const objects = f.emulator.objects(f.emulator.credentials.username);
  const fleet = objects.virtualGuests.filter((g) => g.domain === 'fleet.example.com');
  const records = objects.dnsDomains.flatMap(
    (d) => (d.resourceRecords as { host: string }[] | undefined) ?? [],
  );
  const hosts = new Set(fleet.map((g) => g.hostname));
  return {
    guests: fleet.length,
    records: records.filter((r) => hosts.has(r.host) || /^g\d+-/.test(r.host)).length,
  };
}

/** Runs `op` until it succeeds, at most MAX_RUNS times; returns how many runs it took (MAX_RUNS + 1 = never). */
async function untilSuccess(op: () => Promise<unknown>): Promise<number> {
  for (let run = 1; run <= MAX_RUNS; run++) {
    try {
      await op();
      return run;
    } catch (err) {
      const last = String((err as Error).message)
        .split('\n')
        .filter((l) => /error:/.test(l))
        .slice(0, 3);
      console.log(
        `    run ${run} failed: ${last.join(' | ') || (err as Error).message.slice(0, 200)}`,
      );
    }
  }
  return MAX_RUNS + 1;
}

async function soak(label: string, faults: FaultOptions): Promise<SoakRun> {
  const f = await cliFixture({
    program: 'fleet',
    config: {
      'stacktest:count': { value: String(GUESTS) },
      'stacktest:dns': { value: 'true' },
      'svc:outcomeWindow': { value: '5' },
    },
    provisioningDelayMs: 2_000,
  });
  try {
    f.emulator.setFaults(faults);
    console.log(`${label}:`);
    const upRuns = await untilSuccess(() => f.stack.up(['--parallel', '16']));
    const after = inventory(f);
    const destroyRuns = await untilSuccess(() => f.stack.destroy(['--parallel', '16']));
    const left = inventory(f);
    const stats = f.emulator.stats();
    // The CLI prints each diagnostic inline and again in its summary: count distinct lines.
    const lines = [
      ...new Set(
        f
          .output()
          .split('\n')
          .map((line) => line.trim()),
      ),
    ];
    const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
    const injected = Object.entries(stats.faultsInjected).filter(([kind]) => kind !== 'latency');
    return {
      label,
      upRuns,
      guests: after.guests,
      records: after.records,
      destroyRuns,
      leftAfterDestroy: left.guests + left.records,
      requests: stats.requests,
      faultsMet: injected.reduce((sum, [, n]) => sum + n, 0),
      faultsByKind: Object.fromEntries(injected),
      retries: count(/\[svc\] retrying /),
      rewrites: count(/no definite answer|sending it again/),
      rateLimitFailures: count(/error: .*RateLimitExceeded/),
    };
  } finally {
    f.emulator.setFaults(null);
    await f.close();
  }
}

async function main(): Promise<void> {
  const runs: SoakRun[] = [];
  for (const seed of [11, 22, 33])
    runs.push(await soak(`faults, seed ${seed}`, { ...FAULTS, seed }));
  const limited = await soak('rate limit 20/s', { rateLimitPerSecond: 20 });
  printTable(
    [...runs, limited].map((r) => ({
      run: r.label,
      'up runs': r.upRuns,
      guests: r.guests,
      records: r.records,
      'destroy runs': r.destroyRuns,
      left: r.leftAfterDestroy,
      requests: r.requests,
      'faults met': `${r.faultsMet} (${Object.entries(r.faultsByKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')})`,
      retries: r.retries,
      'checked re-writes': r.rewrites,
    })),
  );
  printResult({
    bench: 'soak',
    runs: runs.length,
    maxUpRuns: Math.max(...runs.map((r) => r.upRuns)),
    guestsExpected: GUESTS,
    guestsFound: runs.map((r) => r.guests),
    recordsFound: runs.map((r) => r.records),
    leftAfterDestroy: runs.map((r) => r.leftAfterDestroy),
    rateLimit: {
      upRuns: limited.upRuns,
      guests: limited.guests,
      rateLimitFaults: limited.faultsMet,
      failedForRateLimit: limited.rateLimitFailures,
    },
  });
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

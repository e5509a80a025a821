import { startEmulator } from '../emulator';
import { cliFixture, hasTag, type CliFixture } from '../test/stack/cli';
import { startPostgres } from '../test/stack/postgres';
import type { StackConfig } from '../scripts/project-stack';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CallTimeline } from './support/call-timeline';
import { machineBusySeconds } from './support/machine-cpu';
import { printResult, printTable, round } from './support/report';

/**
 * A team's day: STACKS stacks of GUESTS guests each, `pulumi up` all at once against one
 * emulator account with the API's rate limit (50 calls/s), state in PostgreSQL. Reports the wall
 * time against a floor (the provisioning delay, once per group of `--parallel` guests, plus the
 * calls a create cannot avoid, at the rate limit), the calls per guest, rate-limit faults met and
 * calls that failed for them, duplicates; and, as a baseline from the same run, the same number of
 * stacks and resources with a provider that sends no call (what Pulumi itself costs on this
 * machine), with the time the provider adds to it over the floor. FLEET_TIMELINE=1 also prints the calls of each second by method.
 * FLEET_MACHINES=N spreads the stacks over N "machines": each its own temp directory, so its own
 * rate-limit slot files, as runners on separate hosts, whose budgets add up past the account's
 * limit; the clients then keep under it by adapting to the faults they meet. FLEET_PARALLEL=N runs
 * each `up` with `--parallel N` (default: all its guests at once); one stack of 30 guests at
 * `--parallel 10` is a single team's `up`: FLEET_STACKS=1 FLEET_GUESTS=30 FLEET_PARALLEL=10.
 */
const STACKS = Number(process.env.FLEET_STACKS ?? 10);
const MACHINES = Number(process.env.FLEET_MACHINES ?? 1);
const GUESTS = Number(process.env.FLEET_GUESTS ?? 20);
const PARALLEL = Number(process.env.FLEET_PARALLEL ?? GUESTS);
const RATE = 50;
const DELAY_MS = 5_000;
/** The order, and one read that finds the guest ready: what no create can do without. */
const UNAVOIDABLE_CALLS_PER_GUEST = 2;

const upAll = (stacks: CliFixture[]) =>
  Promise.all(
    stacks.map(
      (f) =>
        f.stack.spawn([
          'up',
          '--yes',
          '--non-interactive',
          '--skip-preview',
          '--parallel',
          String(PARALLEL),
        ]).done,
    ),
  );

async function main(): Promise<void> {
  const pg = await startPostgres();
  const timeline = process.env.FLEET_TIMELINE ? new CallTimeline() : undefined;
  const emulator = await startEmulator({
    port: 0,
    seed: 'demo',
    provisioningDelayMs: DELAY_MS,
    ...timeline?.emulatorOptions(),
  });
  const fixtures: CliFixture[] = [];
  const baseline: CliFixture[] = [];
  const machineDirs = Array.from({ length: MACHINES }, (_, m) =>
    MACHINES > 1 ? fs.mkdtempSync(path.join(os.tmpdir(), `svc-fleet-machine-${m}-`)) : undefined,
  );
  const stack = async (program: string, name: string, config: StackConfig, machine = 0) => {
    const tmp = machineDirs[machine];
    const env = tmp ? { TMPDIR: tmp } : undefined;
    return cliFixture({ program, emulator, backendUrl: pg.url, stackName: name, config, env });
  };
  try {
    for (let i = 0; i < STACKS; i++) {
      const count = { 'stacktest:count': { value: String(GUESTS) } };
      baseline.push(await stack('pulumi-only', `pulumi-only-${i}`, count));
      fixtures.push(
        await stack(
          'fleet',
          `team-${i}`,
          {
            ...count,
            'stacktest:guest': { value: JSON.stringify({ tags: [`fleet-${i}`] }) },
          },
          i % MACHINES,
        ),
      );
    }
    // The baseline, from the same run: as many stacks and resources, whose provider answers at
    // once and sends no call. It is what Pulumi itself costs on this machine (the CLI, language
    // host, program and provider process of each stack, and the state backend).
    let started = Date.now();
    let busy = machineBusySeconds();
    const baselineRuns = await upAll(baseline);
    const pulumiOnlySeconds = (Date.now() - started) / 1000;
    const pulumiOnlyCpuSeconds = machineBusySeconds() - busy;
    if (baselineRuns.some((r) => r.code !== 0)) throw new Error('a baseline up failed');

    emulator.setFaults({ rateLimitPerSecond: RATE });
    const callsBefore = emulator.stats().requests;
    started = Date.now();
    busy = machineBusySeconds();
    timeline?.start(started);
    const runs = await upAll(fixtures);
    const seconds = (Date.now() - started) / 1000;
    const cpuSeconds = machineBusySeconds() - busy;
    const stats = emulator.stats();
    emulator.setFaults(null);
    const calls = stats.requests - callsBefore;
    const refused = stats.faultsInjected['rate-limit'] ?? 0;
    const failed = runs.filter((r) => r.code !== 0);
    const failedForRateLimit = failed.filter((r) =>
      /RateLimit|rate limit/i.test(`${r.stdout}${r.stderr}`),
    ).length;
    const perStack = await Promise.all(
      fixtures.map(async (f, i) => ({
        stack: `team-${i}`,
        guests: (await f.guests(hasTag(`fleet-${i}`))).length,
        inState: (await f.stateIds('VirtualGuest')).length,
        up: runs[i].code === 0 ? 'ok' : 'failed',
      })),
    );
    const duplicates = perStack.reduce((sum, s) => sum + Math.max(0, s.guests - GUESTS), 0);
    // At --parallel N, a stack's guests provision N at a time: one delay per group of N.
    const provisioningSeconds = (Math.ceil(GUESTS / Math.min(PARALLEL, GUESTS)) * DELAY_MS) / 1000;
    const floorSeconds =
      provisioningSeconds + (STACKS * GUESTS * UNAVOIDABLE_CALLS_PER_GUEST) / RATE;
    printTable(perStack);
    printTable(
      Object.entries(stats.calls).map(([call, count]) => ({
        call,
        count,
        perGuest: round(count / (STACKS * GUESTS), 2),
      })),
    );
    console.log(
      `${STACKS} stacks x ${GUESTS} guests in ${round(seconds, 1)} s (floor ${floorSeconds} s); ` +
        `${calls} calls, ${round(calls / (STACKS * GUESTS), 2)} per guest; ` +
        `${stats.faultsInjected['rate-limit'] ?? 0} rate-limit faults; ${failed.length} failed up(s); ` +
        `Pulumi alone (as many resources, no call): ${round(pulumiOnlySeconds, 1)} s`,
    );
    if (timeline) printTable(timeline.rows());
    for (const run of failed) console.log(run.stderr.split('\n').slice(-5).join('\n'));
    printResult({
      bench: 'fleet',
      machines: MACHINES,
      stacks: STACKS,
      guestsPerStack: GUESTS,
      parallel: PARALLEL,
      seconds: round(seconds, 1),
      calls,
      callsPerGuest: round(calls / (STACKS * GUESTS), 2),
      rateLimitFaults: refused,
      refusedShare: round(refused / calls, 3),
      failedForRateLimit,
      failedUps: failed.length,
      duplicates,
      floorSeconds,
      ratioToFloor: round(seconds / floorSeconds, 2),
      cores: os.cpus().length,
      cpuSeconds: round(cpuSeconds, 1),
      pulumiOnlySeconds: round(pulumiOnlySeconds, 1),
      pulumiOnlyCpuSeconds: round(pulumiOnlyCpuSeconds, 1),
      addedSeconds: round(seconds - pulumiOnlySeconds, 1),
      addedOverFloor: round((seconds - pulumiOnlySeconds) / floorSeconds, 2),
    });
    await Promise.all(fixtures.map((f) => f.stack.destroy(['--parallel', String(GUESTS)])));
  } finally {
    await Promise.all([...fixtures, ...baseline].map((f) => f.close()));
    await emulator.close();
    await pg.stop();
    for (const dir of machineDirs) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

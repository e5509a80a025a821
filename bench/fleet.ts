import { startEmulator } from '../emulator';
import { cliFixture, hasTag, type CliFixture } from '../test/stack/cli';
import { startPostgres } from '../test/stack/postgres';
import { printResult, printTable, round } from './support/report';

/**
 * A team's day: STACKS stacks of GUESTS guests each, `pulumi up` all at once against one
 * emulator account with the API's rate limit (50 calls/s), state in PostgreSQL. Reports the wall
 * time against a floor (the provisioning delay plus the calls a create cannot avoid, at the rate
 * limit), the calls per guest, rate-limit faults met and calls that failed for them, duplicates;
 * and, as a baseline from the same run, the same ten ups with nothing to create (what Pulumi itself
 * costs on this machine), with the wall time over floor plus baseline.
 */
const STACKS = Number(process.env.FLEET_STACKS ?? 10);
const GUESTS = Number(process.env.FLEET_GUESTS ?? 20);
const RATE = 50;
const DELAY_MS = 5_000;
/** The order, and one read that finds the guest ready: what no create can do without. */
const UNAVOIDABLE_CALLS_PER_GUEST = 2;

async function main(): Promise<void> {
  const pg = await startPostgres();
  const emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: DELAY_MS });
  const fixtures: CliFixture[] = [];
  try {
    for (let i = 0; i < STACKS; i++) {
      fixtures.push(
        await cliFixture({
          program: 'fleet',
          emulator,
          backendUrl: pg.url,
          stackName: `team-${i}`,
          config: {
            'stacktest:count': { value: '0' },
            'stacktest:guest': { value: JSON.stringify({ tags: [`fleet-${i}`] }) },
          },
        }),
      );
    }
    const upAll = () =>
      Promise.all(
        fixtures.map(
          (f) =>
            f.stack.spawn([
              'up',
              '--yes',
              '--non-interactive',
              '--skip-preview',
              '--parallel',
              String(GUESTS),
            ]).done,
        ),
      );
    // The baseline: the same ups with nothing to create (the CLI, language host and program of
    // ten stacks at once on this machine), measured in the same run.
    let started = Date.now();
    await upAll();
    const baselineSeconds = (Date.now() - started) / 1000;
    for (const f of fixtures)
      await f.stack.setConfig({ 'stacktest:count': { value: String(GUESTS) } });

    emulator.setFaults({ rateLimitPerSecond: RATE });
    const callsBefore = emulator.stats().requests;
    started = Date.now();
    const runs = await upAll();
    const seconds = (Date.now() - started) / 1000;
    const stats = emulator.stats();
    emulator.setFaults(null);
    const calls = stats.requests - callsBefore;
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
    const floorSeconds = DELAY_MS / 1000 + (STACKS * GUESTS * UNAVOIDABLE_CALLS_PER_GUEST) / RATE;
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
        `the same ups with nothing to create: ${round(baselineSeconds, 1)} s`,
    );
    for (const run of failed) console.log(run.stderr.split('\n').slice(-5).join('\n'));
    printResult({
      bench: 'fleet',
      stacks: STACKS,
      guestsPerStack: GUESTS,
      seconds: round(seconds, 1),
      calls,
      callsPerGuest: round(calls / (STACKS * GUESTS), 2),
      rateLimitFaults: stats.faultsInjected['rate-limit'] ?? 0,
      failedForRateLimit,
      failedUps: failed.length,
      duplicates,
      floorSeconds,
      ratioToFloor: round(seconds / floorSeconds, 2),
      baselineSeconds: round(baselineSeconds, 1),
      ratioToFloorPlusBaseline: round(seconds / (floorSeconds + baselineSeconds), 2),
    });
    await Promise.all(fixtures.map((f) => f.stack.destroy(['--parallel', String(GUESTS)])));
  } finally {
    await Promise.all(fixtures.map((f) => f.close()));
    await emulator.close();
    await pg.stop();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

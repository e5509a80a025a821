import { cliFixture } from '../test/stack/cli';
import { printTable, printResult, round } from './support/report';

/**
 * Wall time of `pulumi up` (real CLI, emulator with a 3 s provisioning delay) for 1 guest and for
 * 20 guests. The engine creates independent resources in parallel and each provider wait is its
 * own async poll loop, so 20 guests should take well under twice as long as one.
 */
const DELAY_MS = 3_000;

async function timeUp(count: number): Promise<number> {
  const f = await cliFixture({
    program: 'fleet',
    config: { 'stacktest:count': { value: String(count) } },
    provisioningDelayMs: DELAY_MS,
  });
  try {
    const started = Date.now();
    await f.stack.up(['--parallel', '32']);
    const seconds = (Date.now() - started) / 1000;
    const made = (await f.guests()).filter((g) => g.domain === 'fleet.example.com').length;
    if (made !== count) throw new Error(`expected ${count} guests, found ${made}`);
    await f.stack.destroy();
    return seconds;
  } finally {
    await f.close();
  }
}

async function main(): Promise<void> {
  const oneGuestS = round(await timeUp(1), 2);
  const twentyGuestsS = round(await timeUp(20), 2);
  const ratio = round(twentyGuestsS / oneGuestS, 2);
  printTable([
    { guests: 1, 'pulumi up (s)': oneGuestS },
    { guests: 20, 'pulumi up (s)': twentyGuestsS },
  ]);
  console.log(
    `20 guests take ${ratio}x the time of one (target: under 2x); provisioning delay ${DELAY_MS / 1000} s`,
  );
  printResult({ bench: 'stack', oneGuestS, twentyGuestsS, ratio });
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { commandLine, livePids } from '../../scripts/processes';
import { cliFixture, writeCalls, type CliFixture } from './cli';

/** How long the run's processes get to notice their CLI is gone (the provider looks every 2 s). */
const GRACE_MS = 8_000;

// A `pulumi up` or `destroy` whose CLI is killed (SIGKILL, as a crash or an impatient `kill -9`):
// the CLI starts its language host and plugins in process groups of their own, so they survive
// it; each must then end on its own, whatever it was doing. Every process the CLI started carries
// the fixture's marker in its environment, which is how the leftovers are found.
describe('a killed CLI leaves no process of its run behind', { concurrency: true }, () => {
  const fixtures: CliFixture[] = [];
  after(() => Promise.all(fixtures.map((f) => f.close())));

  const killAt = async (
    command: 'up' | 'destroy',
    moment: (f: CliFixture, running: () => string[]) => boolean,
  ) => {
    const f = await cliFixture({
      program: 'fleet',
      config: { 'stacktest:count': { value: '2' } },
      provisioningDelayMs: 10_000,
    });
    fixtures.push(f);
    if (command === 'destroy') await f.stack.up();
    const marker = f.stack.env.SVC_FIXTURE;
    const running = () => livePids('SVC_FIXTURE', marker).map(commandLine);
    const run = f.stack.spawn([command, '--yes', '--non-interactive', '--skip-preview']);
    let came = false;
    for (let i = 0; i < 3000 && !(came = moment(f, running)); i++) await sleep(20);
    process.kill(run.child.pid!, 'SIGKILL'); // the CLI alone
    assert.ok(came, `the moment to kill the ${command} came`);
    await run.done;
    for (let i = 0; i < GRACE_MS / 200 && running().length > 0; i++) await sleep(200);
    assert.deepEqual(running(), [], 'no process of the run is left');
    await f.stack.run(['cancel', '--yes']);
  };

  it('before the provider has had a call (it is still starting)', async () => {
    await killAt('up', (f, running) => {
      const started = running().some((line) => /dynamic-provider/.test(line));
      return started && Object.keys(f.emulator.stats().calls).length === 0;
    });
  });

  it('while a guest is being created', async () => {
    await killAt('up', (f) => writeCalls(f.emulator, 'Virtual_Guest.createObject') > 0);
  });

  it('while a guest is being deleted', async () => {
    await killAt('destroy', (f) => writeCalls(f.emulator, 'Virtual_Guest.deleteObject') > 0);
  });
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { commandLine, livePids } from '../../scripts/processes';
import { writeCalls, type CliFixture } from './cli';
import { frontDoors, ownerFixtures } from './front-door';

/** How long the run's processes get to notice their CLI is gone (the provider looks every 2 s). */
const GRACE_MS = 8_000;

// A `pulumi up` or `destroy` whose CLI is killed (SIGKILL, as a crash or an impatient `kill -9`):
// the CLI starts its language host and plugins in process groups of their own, so they survive
// it; each must then end on its own, whatever it was doing. Every process the CLI started carries
// the fixture's marker in its environment, which is how the leftovers are found. Through both
// front doors: the Node.js language host with the dynamic provider (the program reaps its run),
// and the YAML language host with the plugin (the plugin reaps its run: the YAML host runs no
// code of this package).
for (const door of frontDoors())
  describe(
    `a killed CLI leaves no process of its run behind (${door.name})`,
    { concurrency: true },
    () => {
      const owner = ownerFixtures(door);

      const killAt = async (
        command: 'up' | 'destroy',
        moment: (f: CliFixture, running: () => string[]) => boolean,
      ) => {
        const f = await owner({ guests: ['g0', 'g1'] }, { provisioningDelayMs: 10_000 });
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
        // Release the stack's lock. A CLI killed while it wrote its first checkpoint leaves an
        // empty one, which `cancel` cannot load: that stack has nothing to release.
        await f.stack.run(['cancel', '--yes']).catch((error: Error) => {
          if (!/failed to load checkpoint: EOF/.test(error.message)) throw error;
        });
      };

      it('before the provider has had a call (it is still starting)', async () => {
        await killAt('up', (f, running) => {
          const started = running().some((line) => door.providerProcess.test(line));
          return started && Object.keys(f.emulator.stats().calls).length === 0;
        });
      });

      it('while a guest is being created', async () => {
        await killAt('up', (f) => writeCalls(f.emulator, 'Virtual_Guest.createObject') > 0);
      });

      it('while a guest is being deleted', async () => {
        await killAt('destroy', (f) => writeCalls(f.emulator, 'Virtual_Guest.deleteObject') > 0);
      });
    },
  );

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'node:test';
import { VirtualGuestManager } from '../../provider/managers';
import { commandLine, livePids } from '../../scripts/processes';
import { hasTag, previewBilling, writeCalls, type CliFixture } from './cli';
import { casesOf, frontDoors, ownerFixtures, type DoorFixtureOptions } from './front-door';

type SafetyCase = '6' | '8' | '9' | '10' | '12';

/**
 * Through the plugin: adoption, bad input, a lost answer to the order and a killed CLI. A
 * plain-text API key is refused by the dynamic resources' program; the plugin keeps it encrypted
 * in the state instead (test/stack/plugin.test.ts).
 */
const ON_THE_PLUGIN: SafetyCase[] = ['6', '8', '9', '10'];

const owned = hasTag('owner');

// What must never happen with billed guests: a second order for one resource, an order from bad
// input, a guest adopted with inputs that do not match it. Each case runs `pulumi` on the owner
// program (one guest, g0) as a user would, through each front door (test/stack/front-door.ts).
for (const door of frontDoors()) {
  const only = door.name === 'plugin' ? ON_THE_PLUGIN : undefined;
  describe(`billing safety through the Pulumi CLI (${door.name})`, { concurrency: true }, () => {
    const owner = ownerFixtures(door);
    const fixture = (guest: Record<string, unknown> = {}, options?: DoorFixtureOptions) =>
      owner({ guests: ['g0'], guest }, options);
    const setGuest = (f: CliFixture, guest: Record<string, unknown>) =>
      door.setOwner(f, { guests: ['g0'], guest });
    const safety = casesOf(only);
    safety(
      '6',
      '6. adoptId takes over a guest created directly through the client, and refuses a mismatch',
      async () => {
        const spec = { hostname: 'legacy-1', domain: 'adopt.example.com', maxMemory: 1024 };
        const f = await fixture();
        const created = await new VirtualGuestManager(f.client).createInstance({
          ...spec,
          cpus: 1,
          memory: 1024,
          os: 'UBUNTU_LATEST',
          datacenter: 'dal10',
        });
        const adoptId = String(created.id);
        const ordersBefore = writeCalls(f.emulator, 'createObject');

        await setGuest(f, { ...spec, startCpus: 2, adoptId });
        await assert.rejects(
          f.stack.preview(),
          /adoptId: guest \d+ has startCpus 1 but the resource declares 2/,
        );
        await setGuest(f, { ...spec, startCpus: 1, adoptId });
        await f.stack.up();
        assert.deepEqual((await f.stack.outputs()).ids, [adoptId]);
        assert.equal(writeCalls(f.emulator, 'createObject'), ordersBefore, 'nothing ordered');
        assert.equal((await f.guests((g) => g.domain === spec.domain)).length, 1);
      },
    );

    safety(
      '8',
      '8. bad inputs fail preview with messages naming the field, and make no write call',
      async () => {
        const f = await fixture({ hostname: 'bad_host!', startCpus: 3, maxMemory: 1000 });
        await assert.rejects(
          f.stack.preview(),
          /hostname "bad_host!" must be letters, digits and inner hyphens/,
        );
        // Shape errors stop check before the catalog is consulted; fix the hostname to see those too.
        await setGuest(f, { startCpus: 3, maxMemory: 1000, datacenter: 'mars01' });
        await assert.rejects(f.stack.preview(), (err: Error) => {
          assert.match(err.message, /startCpus 3 is not a CPU count this account is offered/);
          assert.match(
            err.message,
            /maxMemory 1000 is not a memory size \(MB\) this account is offered/,
          );
          assert.match(err.message, /datacenter "mars01" is not a known datacenter/);
          return true;
        });
        assert.equal(writeCalls(f.emulator), 0);
      },
    );

    safety(
      '9',
      '9. the response to createObject is lost: up ends with exactly one guest',
      async () => {
        const f = await fixture();
        f.emulator.setFaults({
          once: { service: 'Virtual_Guest', method: 'createObject', fault: 'lose-response' },
        });
        await f.stack.up();
        const guests = await f.guests(owned);
        assert.equal(guests.length, 1);
        assert.deepEqual((await f.stack.outputs()).ids, [String(guests[0].id)]);
        assert.equal(
          writeCalls(f.emulator, 'createObject'),
          1,
          'one order, recovered by its token',
        );
        assert.match(f.output(), /"g0" order: found what it made; using it \(no second write\)/);
      },
    );

    safety(
      '10',
      '10. the CLI killed with SIGKILL while the guest provisions: its provider exits, and the next up converges with no duplicate',
      async () => {
        const f = await fixture({}, { provisioningDelayMs: 10_000 });
        const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
        for (let i = 0; i < 600 && writeCalls(f.emulator, 'createObject') === 0; i++)
          await sleep(100);
        assert.equal(
          writeCalls(f.emulator, 'createObject'),
          1,
          'the guest was ordered before the kill',
        );
        await sleep(1_000);
        const marker = f.stack.env.SVC_FIXTURE;
        const providerPids = () =>
          livePids('SVC_FIXTURE', marker).filter((pid) =>
            door.providerProcess.test(commandLine(pid)),
          );
        // The CLI may start the plugin twice (one only to load the project's plugins).
        assert.ok(providerPids().length >= 1, 'the provider process runs');
        process.kill(run.child.pid!, 'SIGKILL'); // the CLI alone, as a crash would
        await run.done;
        // The orphaned provider notices that its engine is gone and exits on its own.
        for (let i = 0; i < 100 && providerPids().length > 0; i++) await sleep(200);
        assert.deepEqual(providerPids(), [], 'no provider process outlives its engine');
        // ... and takes the run's language host with it.
        const left = () => livePids('SVC_FIXTURE', marker);
        for (let i = 0; i < 25 && left().length > 0; i++) await sleep(200);
        assert.deepEqual(left().map(commandLine), [], 'nothing of the killed run is left');

        // What a user does after a crashed update: remove its lock, then reconcile the pending create.
        await f.stack.run(['cancel', '--yes']);
        await f.stack.refresh(['--clear-pending-creates']);
        // The preview tells the truth: the guest the killed create ordered is taken over, at its bill.
        const [ordered] = await f.guests(owned);
        const { messages, changes } = await previewBilling(f);
        const billed = await f.client.call('Virtual_Guest', 'getObject', {
          id: ordered.id,
          mask: 'billingItem.hourlyRecurringFee',
        });
        const hourly = Number(
          (billed as { billingItem: { hourlyRecurringFee: number } }).billingItem
            .hourlyRecurringFee,
        );
        assert.match(
          messages,
          new RegExp(
            `BILLING create VirtualGuest "g0" adopts guest ${ordered.id}, which an earlier unfinished create of it ordered \\(no new order; it is billed already\\): .*, \\$${hourly.toFixed(4).replace('.', '\\.')}/hour`,
          ),
        );
        assert.doesNotMatch(messages, /orders a new guest/);
        assert.deepEqual(
          changes.map((c) => [c.op, c.name, c.oldHourly, c.newHourly]),
          [['adopt', 'g0', hourly, hourly]],
        );
        await f.stack.up();
        assert.equal((await f.guests(owned)).length, 1, 'still exactly one guest');
        assert.equal(writeCalls(f.emulator, 'createObject'), 1, 'no second order');
        assert.deepEqual(
          await f.stateIds('VirtualGuest'),
          (await f.guests(owned)).map((g) => String(g.id)),
          'the state holds the guest the killed create ordered',
        );
        assert.match(
          f.output(),
          /was ordered by an earlier unfinished create of this resource; adopting it/,
        );
      },
    );

    safety(
      '12',
      '12. a plain-text svc:apiKey is refused before any call, with the command that fixes it',
      async () => {
        const f = await fixture();
        const { apiKey } = f.emulator.credentials;
        await f.stack.setConfig({ 'svc:apiKey': { value: apiKey } });
        const callsBefore = f.emulator.stats().requests;
        await assert.rejects(f.stack.preview(), (err: Error) => {
          assert.match(err.message, /pulumi config set --secret svc:apiKey <value>/);
          assert.ok(!err.message.includes(apiKey), 'the key is not repeated');
          return true;
        });
        assert.equal(f.emulator.stats().requests, callsBefore, 'nothing reached the API');
      },
    );
  });
}

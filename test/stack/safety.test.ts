import * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { VirtualGuest } from '../../resources';
import { VirtualGuestManager } from '../../provider/managers';
import { BASE_GUEST, fleetProgram } from './programs';
import { hasTag, stackFixture, writeCalls, type StackFixture } from './harness';

// What must never happen with billed guests: a second order for one resource, an order from bad
// input, a guest adopted with inputs that do not match it.
describe('billing safety on the real Pulumi engine', () => {
  const fixtures: StackFixture[] = [];
  const fixture = async (...args: Parameters<typeof stackFixture>) => {
    const f = await stackFixture(...args);
    fixtures.push(f);
    return f;
  };
  after(() => Promise.all(fixtures.map((f) => f.close())));

  it('6. adoptId takes over a guest created directly through the client, and refuses a mismatch', async () => {
    let adoptId = '';
    const spec = { hostname: 'legacy-1', domain: 'adopt.example.com', maxMemory: 1024 };
    const program = async () => {
      const startCpus = new pulumi.Config().requireNumber('cpus');
      const guest = new VirtualGuest('adopted', { ...BASE_GUEST, ...spec, startCpus, adoptId });
      return { id: guest.id };
    };
    const f = await fixture({ program, config: { 'stacktest:cpus': { value: '2' } } });
    const guests = new VirtualGuestManager(f.client);
    const created = await guests.createInstance({
      ...spec,
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
    });
    adoptId = String(created.id);
    const ordersBefore = writeCalls(f.emulator, 'createObject');

    await assert.rejects(
      f.stack.preview(f.run),
      /adoptId: guest \d+ has startCpus 1 but the resource declares 2/,
    );
    await f.stack.setConfig('stacktest:cpus', { value: '1' });
    const result = await f.stack.up(f.run);
    assert.equal(result.outputs.id.value, adoptId);
    assert.equal(writeCalls(f.emulator, 'createObject'), ordersBefore, 'nothing ordered');
    assert.equal((await f.guests((g) => g.domain === spec.domain)).length, 1);
  });

  it('8. bad inputs fail preview with messages naming the field, and make no write call', async () => {
    const program = async () => {
      new VirtualGuest('bad', {
        ...BASE_GUEST,
        hostname: 'bad_host!',
        startCpus: 3,
        maxMemory: 1000,
        datacenter: 'mars01',
      });
    };
    const f = await fixture({ program });
    await assert.rejects(f.stack.preview(f.run), (err: Error) => {
      assert.match(err.message, /hostname "bad_host!" must be letters, digits and inner hyphens/);
      return true;
    });
    // Shape errors stop check before the catalog is consulted; fix the hostname to see those too.
    const g = { ...BASE_GUEST, startCpus: 3, maxMemory: 1000, datacenter: 'mars01' };
    const f2 = await fixture({ program: async () => void new VirtualGuest('bad', g) });
    await assert.rejects(f2.stack.preview(f2.run), (err: Error) => {
      assert.match(err.message, /startCpus 3 is not a CPU count this account is offered/);
      assert.match(
        err.message,
        /maxMemory 1000 is not a memory size \(MB\) this account is offered/,
      );
      assert.match(err.message, /datacenter "mars01" is not a known datacenter/);
      return true;
    });
    assert.equal(writeCalls(f.emulator) + writeCalls(f2.emulator), 0);
  });

  it('9. the response to createObject is lost: up ends with exactly one guest', async () => {
    const f = await fixture({ program: fleetProgram({ count: 1 }) });
    f.emulator.setFaults({
      once: { service: 'Virtual_Guest', method: 'createObject', fault: 'lose-response' },
    });
    const result = await f.stack.up(f.run);
    const guests = await f.guests(hasTag('fleet'));
    assert.equal(guests.length, 1);
    assert.deepEqual(result.outputs.ids.value, [String(guests[0].id)]);
    assert.equal(writeCalls(f.emulator, 'createObject'), 1, 'one order, recovered by its token');
    assert.match(f.output.join(''), /order: no answer came back \(.*\), but it was done; using it/);
  });

  it('10. up killed with SIGKILL while the guest provisions: after cleanup, the next up converges with no duplicate', async () => {
    const f = await fixture({ program: fleetProgram({ count: 1 }), provisioningDelayMs: 10_000 });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/stack/fixtures/up-child.ts', f.stateDir],
      {
        detached: true,
        stdio: 'ignore',
        env: process.env,
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (let i = 0; i < 600 && writeCalls(f.emulator, 'createObject') === 0; i++) await sleep(100);
    assert.equal(
      writeCalls(f.emulator, 'createObject'),
      1,
      'the guest was ordered before the kill',
    );
    await sleep(1_000);
    process.kill(-child.pid!, 'SIGKILL');
    await exited;

    await f.stack.cancel().catch(() => undefined); // removes the lock the killed update left, if any
    await f.stack.refresh({ ...f.run, clearPendingCreates: true });
    await f.stack.up(f.run);
    assert.equal((await f.guests(hasTag('fleet'))).length, 1, 'still exactly one guest');
    assert.equal(writeCalls(f.emulator, 'createObject'), 1, 'no second order');
    assert.match(
      f.output.join(''),
      /from an earlier attempt carries this resource's token; adopting it/,
    );
  });
});

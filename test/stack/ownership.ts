import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'node:test';
import {
  tagNames,
  type DnsResourceRecord,
  type DnsZone,
  type Ticket,
  type TicketUpdateRecord,
  type VirtualGuest,
} from '../../provider/managers';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import { hasTag, writeCalls, type CliFixture } from './cli';
import {
  casesOf,
  ownerFixtures,
  providersEnded,
  type FrontDoor,
  type OwnerProgram,
} from './front-door';

const owned = hasTag('owner');
const ids = (guests: VirtualGuest[]) => guests.map((g) => String(g.id)).sort();

/** The scenarios, by the key a door's test file picks them with. */
export type OwnershipScenario =
  '1' | '2' | '3' | '4' | '5' | '6' | '6b' | '7' | '8' | 'protect' | 'dbr';

/**
 * The seven ways issue 10 broke "one guest per resource, never a wrong delete", each through the
 * Pulumi CLI on the owner program through `door` (test/stack/front-door.ts), asserting the
 * emulator's objects and the state's ids; then the resource options Pulumi documents (protect,
 * retainOnDelete, deleteBeforeReplace, --target, replaceOnChanges). `only`: the scenarios to run.
 */
export function ownershipTests(door: FrontDoor, only?: readonly OwnershipScenario[]): void {
  describe(`ownership through the Pulumi CLI (${door.name})`, { concurrency: 2 }, () => {
    const fixture = ownerFixtures(door);
    const set = (f: CliFixture, program: OwnerProgram) => door.setOwner(f, program);
    const guestIds = async (f: CliFixture) => (await f.stateIds('VirtualGuest')).sort();
    const scenario = casesOf(only);

    scenario(
      '1',
      '1. up --replace orders a new guest and deletes only the old one; replaceOnChanges replaces',
      async () => {
        const f = await fixture({ options: { replaceOnChanges: ['notes'] } });
        await f.stack.up();
        const [first] = await guestIds(f);
        await f.stack.up(['--replace', await f.stack.urnOf('server')]);
        const [second] = await guestIds(f);
        assert.notEqual(second, first, 'the state holds a new id');
        assert.deepEqual(
          ids(await f.guests(owned)),
          [second],
          'the old guest is gone, the new one lives',
        );
        assert.equal(writeCalls(f.emulator, 'createObject'), 2);

        await set(f, { options: { replaceOnChanges: ['notes'] }, guest: { notes: 'moved' } });
        await f.stack.up();
        const [third] = await guestIds(f);
        assert.notEqual(third, second, 'a change to notes replaced the guest (replaceOnChanges)');
        assert.deepEqual(ids(await f.guests(owned)), [third]);
      },
    );

    scenario(
      '2',
      '2. an order that commits after the client timed out, or is answered 502 after it committed: one guest',
      async () => {
        const f = await fixture(
          { guests: ['slow', 'gateway'] },
          { config: { 'svc:timeout': { value: '1' }, 'svc:outcomeWindow': { value: '30' } } },
        );
        f.emulator.setFaults({
          once: [
            { method: 'createObject', fault: 'slow-commit', delayMs: 3000 },
            { method: 'createObject', fault: 'error-after-commit', status: 502 },
          ],
        });
        await f.stack.up();
        const live = await f.guests(owned);
        assert.equal(live.length, 2, 'one guest per resource');
        assert.deepEqual(await guestIds(f), ids(live));
        assert.equal(writeCalls(f.emulator, 'createObject'), 2, 'no order was sent twice');
      },
    );

    scenario(
      '3',
      `3. ${door.components ? 'same name under two parents, and ' : ''}same project/stack in two backends: separate guests; destroying one leaves the others`,
      async () => {
        // A YAML program has no component parents: two names, the same in both backends.
        const guests = door.components ? ['a/server', 'b/server'] : ['server-a', 'server-b'];
        const f = await fixture({ guests }, { stackName: 'dev' });
        await f.stack.up();
        const mine = await guestIds(f);
        assert.equal(new Set(mine).size, 2, 'two guests for the two resources');
        assert.deepEqual(ids(await f.guests(owned)), mine);

        // Another backend, same project and stack name, same account: identical URNs.
        const g = await fixture({ guests }, { stackName: 'dev', emulator: f.emulator });
        await g.stack.up();
        const theirs = await guestIds(g);
        assert.equal(theirs.filter((id) => mine.includes(id)).length, 0, 'nothing shared');
        await f.stack.destroy();
        assert.deepEqual(ids(await f.guests(owned)), theirs, "the other backend's guests live on");
        await g.stack.refresh();
        assert.deepEqual(await guestIds(g), theirs);
      },
    );

    scenario(
      '4',
      '4. a failure after the order was accepted keeps the id; the next up carries on, destroy cancels it',
      async () => {
        const f = await fixture(
          {},
          { provisioningDelayMs: 2000, config: { 'svc:outcomeWindow': { value: '3' } } },
        );
        // Marking the new guest owned, the create's last call, fails: the create fails after ordering.
        f.emulator.setFaults({
          once: { service: 'Virtual_Guest', method: 'setTags', fault: 'http-500', times: 20 },
        });
        await assert.rejects(f.stack.up(), /guest \d+ was ordered, then this failed/);
        f.emulator.setFaults(null);
        const live = await f.guests(owned);
        assert.equal(live.length, 1);
        assert.deepEqual(await guestIds(f), ids(live), 'the state holds the ordered guest');
        await f.stack.up();
        assert.deepEqual(await guestIds(f), ids(live), 'same guest');
        assert.equal(writeCalls(f.emulator, 'createObject'), 1, 'no second order');
        await f.stack.destroy();
        assert.deepEqual(await f.guests(owned), []);
      },
    );

    scenario(
      '5',
      "5. refresh with another account's credentials is refused and drops nothing",
      async () => {
        const f = await fixture();
        const { other, demo } = f.emulator.accounts;
        const useAccount = (account: { username: string; apiKey: string }) =>
          Object.assign(f.stack.env, {
            SVC_USERNAME: account.username,
            SVC_API_KEY: account.apiKey,
          });
        // Credentials from the environment, as on a workstation: each command uses those of its shell.
        await f.stack.run(['config', 'rm', 'svc:username']);
        await f.stack.run(['config', 'rm', 'svc:apiKey']);
        useAccount(demo);
        await f.stack.up();
        const before = await guestIds(f);
        assert.equal(before.length, 1);

        useAccount(other);
        const refused = new RegExp(
          `refusing to refresh .* belongs to account ${demo.accountId}, but the configured credentials .* account ${other.accountId}`,
        );
        await assert.rejects(f.stack.refresh(), refused);
        // The same with credentials in the stack config (`--run-program` hands them to the provider).
        await f.stack.setConfig({
          'svc:username': { value: other.username },
          'svc:apiKey': { value: other.apiKey, secret: true },
        });
        await assert.rejects(f.stack.refresh(['--run-program']), refused);
        assert.deepEqual(await guestIds(f), before, 'still in the state');
        assert.deepEqual(ids(await f.guests(owned)), before, 'and running');

        await f.stack.setConfig({
          'svc:username': { value: demo.username },
          'svc:apiKey': { value: demo.apiKey, secret: true },
        });
        await f.stack.refresh(['--run-program']);
        await f.stack.up(['--expect-no-changes']);
        assert.deepEqual(ids(await f.guests(owned)), before, 'no second guest');
      },
    );

    scenario(
      '6',
      '6. DNS record and ticket update after a lost write: only what appeared after the write is taken',
      async () => {
        const f = await fixture(
          { guests: [] },
          { config: { 'svc:timeout': { value: '2' }, 'svc:outcomeWindow': { value: '3' } } },
        );
        const [zone] = (await f.client.call('Dns_Domain', 'getByDomainName', {
          args: ['example.com'],
          mask: 'id',
        })) as DnsZone[];
        const spec = { host: 'shared', type: 'A', data: '10.1.2.3' };
        const existing = (await f.client.call('Dns_Domain_ResourceRecord', 'createObject', {
          args: [{ ...spec, ttl: 900, domainId: zone.id }],
        })) as DnsResourceRecord;
        const [ticket] = (await f.client.call('Account', 'getTickets', {
          mask: 'id',
          limit: 1,
        })) as Ticket[];
        const entry = 'Shipped build 9';
        const earlier = (await f.client.call('Ticket', 'addUpdate', {
          id: ticket.id,
          args: [{ entry }],
        })) as TicketUpdateRecord;
        const records = async () =>
          (
            (await f.client.call('Dns_Domain', 'getResourceRecords', {
              id: zone.id,
              mask: 'id,host,data',
            })) as DnsResourceRecord[]
          )
            .filter((r) => r.host === 'shared')
            .map((r) => String(r.id))
            .sort();

        await set(f, { guests: [], record: { zoneName: 'example.com', ...spec } });
        f.emulator.setFaults({
          once: { service: 'Dns_Domain_ResourceRecord', method: 'createObject', fault: 'drop' },
        });
        await assert.rejects(f.stack.up(), /the outcome is unknown/);
        assert.deepEqual(await f.stateIds('DnsRecord'), [], 'the existing record was not adopted');
        f.emulator.setFaults({
          once: {
            service: 'Dns_Domain_ResourceRecord',
            method: 'createObject',
            fault: 'lose-response',
          },
        });
        await f.stack.up();
        const [recordId] = await f.stateIds('DnsRecord');
        assert.notEqual(recordId, String(existing.id));
        assert.deepEqual(await records(), [String(existing.id), recordId].sort());

        await set(f, {
          guests: [],
          record: { zoneName: 'example.com', ...spec },
          ticket: { ticketId: ticket.id, entry },
        });
        f.emulator.setFaults({ once: { method: 'addUpdate', fault: 'error-after-commit' } });
        await f.stack.up();
        const [updateId] = await f.stateIds('TicketUpdate');
        assert.notEqual(updateId, String(earlier.id), 'not the identical update posted before');
        const updates = (await f.client.call('Ticket', 'getUpdates', {
          id: ticket.id,
        })) as TicketUpdateRecord[];
        assert.deepEqual(
          updates.filter((u) => u.entry === entry).map((u) => String(u.id)),
          [String(earlier.id), updateId].sort(),
        );

        await f.stack.destroy();
        assert.deepEqual(await records(), [String(existing.id)], 'destroy deleted only its record');
      },
    );

    scenario(
      '6b',
      '6b. a record create reset before the write is given up in seconds with the default window, adopting nothing',
      async () => {
        const f = await fixture({ guests: [] });
        const spec = { host: 'quick', type: 'A', data: '10.9.8.7' };
        const [zone] = (await f.client.call('Dns_Domain', 'getByDomainName', {
          args: ['example.com'],
          mask: 'id',
        })) as DnsZone[];
        const existing = (await f.client.call('Dns_Domain_ResourceRecord', 'createObject', {
          args: [{ ...spec, ttl: 900, domainId: zone.id }],
        })) as DnsResourceRecord;
        await set(f, { guests: [], record: { zoneName: 'example.com', ...spec } });
        f.emulator.setFaults({
          once: { service: 'Dns_Domain_ResourceRecord', method: 'createObject', fault: 'drop' },
        });
        // A reset call is not run, so it is counted among the injected faults, not the calls.
        const resets = () => f.emulator.stats().faultsInjected.drop ?? 0;
        const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
        while (resets() === 0 && run.child.exitCode === null) await sleep(50);
        assert.equal(resets(), 1, 'the record create was reset');
        const written = Date.now();
        const { code, stdout, stderr } = await run.done;
        const searched = Date.now() - written;
        assert.notEqual(code, 0);
        assert.match(stdout + stderr, /the outcome is unknown/);
        // svc:outcomeWindow is the default 300 s: a free object is looked for seconds, not minutes.
        assert.ok(searched < 15_000, `looked for the record ${searched} ms after the write`);
        assert.deepEqual(await f.stateIds('DnsRecord'), [], 'the identical record was not adopted');

        await f.stack.up();
        const [recordId] = await f.stateIds('DnsRecord');
        assert.notEqual(recordId, String(existing.id));
      },
    );

    scenario(
      '7',
      '7. destroy while the guest still provisions waits for it, whatever readyTimeoutMinutes says',
      async () => {
        const f = await fixture(
          { guest: { readyTimeoutMinutes: 0.02 } },
          { provisioningDelayMs: 12_000 },
        );
        await assert.rejects(f.stack.up(), /was not ready after 1 s/);
        assert.equal((await guestIds(f)).length, 1, 'the id is kept');
        await f.stack.destroy();
        assert.deepEqual(await f.guests(owned), []);
        assert.deepEqual(await guestIds(f), []);
      },
    );

    scenario(
      '8',
      '8. a claim that lands after its CLI was killed is taken back: the next up adopts the guest, no second order',
      async () => {
        const f = await fixture(
          {},
          { config: { 'svc:timeout': { value: '1' }, 'svc:outcomeWindow': { value: '10' } } },
        );
        // The owned tag, the create's last write, commits after the client gave up; the CLI is
        // killed while it is on its way, so the engine never records the id.
        f.emulator.setFaults({
          once: {
            service: 'Virtual_Guest',
            method: 'setTags',
            fault: 'slow-commit',
            delayMs: 3000,
          },
        });
        const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
        const claiming = () => (f.emulator.stats().faultsInjected['slow-commit'] ?? 0) > 0;
        while (!claiming() && run.child.exitCode === null) await sleep(20);
        assert.ok(claiming(), 'the owned tag was being written');
        process.kill(run.child.pid!, 'SIGKILL');
        await run.done;
        assert.ok(await providersEnded(door, f, 20_000), "the killed CLI's provider ended");
        assert.deepEqual(await guestIds(f), [], 'the engine never recorded the guest');
        const [ordered] = await f.guests(owned);
        assert.ok(ordered, 'the guest was ordered');
        assert.equal(hasTag(OWNED_TAG)(ordered), false, 'its owned tag was taken back');

        await f.stack.run(['cancel', '--yes']).catch(() => undefined);
        await f.stack.up();
        assert.deepEqual(await guestIds(f), [String(ordered.id)], 'the next up adopted it');
        assert.equal(writeCalls(f.emulator, 'createObject'), 1, 'no second order');
        const [live] = await f.guests(owned);
        assert.ok(hasTag(OWNED_TAG)(live), 'owned again, now that the state holds it');
      },
    );

    scenario(
      'protect',
      'protect refuses destroy; retainOnDelete keeps the guest and a re-added resource orders its own',
      async () => {
        const f = await fixture({ options: { protect: true, retainOnDelete: true } });
        await f.stack.up();
        const [kept] = await guestIds(f);
        await assert.rejects(f.stack.destroy(), /protected/);
        assert.deepEqual(ids(await f.guests(owned)), [kept]);

        await set(f, { options: { retainOnDelete: true } });
        await f.stack.up();
        await set(f, { guests: [] });
        await f.stack.up();
        assert.deepEqual(await guestIds(f), [], 'removed from the stack');
        assert.deepEqual(ids(await f.guests(owned)), [kept], 'but retained');

        await set(f, { guests: ['server'] });
        await f.stack.up();
        const [fresh] = await guestIds(f);
        assert.notEqual(fresh, kept, 'the retained guest is not adopted back');
        assert.deepEqual(ids(await f.guests(owned)), [kept, fresh].sort());
        await f.stack.destroy();
        assert.deepEqual(
          ids(await f.guests(owned)),
          [kept],
          'destroy leaves the retained guest alone',
        );
      },
    );

    scenario(
      'dbr',
      'deleteBeforeReplace deletes first; --target touches only the targeted guest',
      async () => {
        const f = await fixture({ guests: ['a', 'b'], options: { deleteBeforeReplace: true } });
        await f.stack.up();
        const before = Object.fromEntries(
          (await f.stack.resources())
            .filter((r) => r.type.endsWith(':VirtualGuest'))
            .map((r) => [r.urn.split('::').pop(), r.id]),
        );
        await set(f, {
          guests: ['a', 'b'],
          options: { deleteBeforeReplace: true },
          // The OS was ordered: a change replaces (CPUs and memory would upgrade in place).
          guest: { operatingSystemReferenceCode: 'DEBIAN_12_64' },
        });
        await f.stack.up(['--target', await f.stack.urnOf('b')]);
        const after = Object.fromEntries(
          (await f.stack.resources())
            .filter((r) => r.type.endsWith(':VirtualGuest'))
            .map((r) => [r.urn.split('::').pop(), r.id]),
        );
        assert.equal(after.a, before.a, 'a untouched');
        assert.notEqual(after.b, before.b, 'b replaced');
        const live = await f.guests(owned);
        assert.deepEqual(ids(live), [after.a, after.b].sort(), 'the old b is gone');
        const os = async (id: string) =>
          (
            (await f.client.call('Virtual_Guest', 'getObject', {
              id: Number(id),
              mask: 'operatingSystemReferenceCode',
            })) as { operatingSystemReferenceCode: string }
          ).operatingSystemReferenceCode;
        assert.equal(await os(after.a!), 'UBUNTU_24_64');
        assert.equal(await os(after.b!), 'DEBIAN_12_64');
        for (const guest of live) assert.ok(tagNames(guest).includes('pulumi-svc-owned'));
      },
    );
  });
}

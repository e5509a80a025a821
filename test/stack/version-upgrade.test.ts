import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeCalls, type CliFixture } from './cli';
import { frontDoors } from './front-door';
import { recordedStacks, replayedStack, type RecordedStack } from './recorded-stacks';

// Every stack an earlier version recorded (test/upgrade/, scripts/record-upgrade-state), taken
// over by this build: its state imported into a fresh backend, the emulator holding what it made.
// This build must preview it with no change and no API write, change it in place and destroy it.
// A change that cannot keep a recorded state unchanged fails here: it is a breaking change
// (CONTRIBUTING, "Upgrades").

type Row = Record<string, unknown> & { id: number };

/** A guest's tags but the marks the provider sets (its creation token, `pulumi-svc-owned`). */
const userTags = (tags: string[]) => tags.filter((tag) => !tag.startsWith('pulumi-svc-')).sort();

/** What the stack's objects are in the emulator, by kind (the recorded program's one of each). */
function world(f: CliFixture) {
  const objects = f.emulator.objects(f.emulator.credentials.username);
  const zones = objects.dnsDomains as (Row & { name: string; resourceRecords: Row[] })[];
  const named = zones.find((zone) => zone.name === 'upgrade.example.net');
  const tickets = objects.tickets as (Row & { updates: Row[] })[];
  return {
    guests: (objects.virtualGuests as (Row & { tagReferences: { tag: { name: string } }[] })[]).map(
      (g) => ({ id: String(g.id), tags: userTags(g.tagReferences.map((ref) => ref.tag.name)) }),
    ),
    keys: (objects.sshKeys as (Row & { label: string })[]).map((k) => ({
      id: String(k.id),
      label: k.label,
    })),
    zone: named && {
      id: String(named.id),
      www: named.resourceRecords.filter((r) => r.host === 'www').map((r) => r.ttl),
    },
    records: zones
      .filter((zone) => zone.name === 'example.com')
      .flatMap((zone) => zone.resourceRecords)
      .map((r) => ({ id: String(r.id), ttl: r.ttl })),
    updates: tickets.flatMap((t) => t.updates.map((u) => String(u.id))),
  };
}

/** The id of each kind's one resource in the state. */
async function stateIds(f: CliFixture): Promise<Record<string, string>> {
  const kinds = ['VirtualGuest', 'SshKey', 'DnsZone', 'DnsRecord', 'TicketUpdate'];
  const ids: Record<string, string> = {};
  for (const kind of kinds) {
    const [id, ...more] = await f.stateIds(kind);
    assert.ok(id && more.length === 0, `one ${kind} in the recorded state`);
    ids[kind] = id;
  }
  return ids;
}

const recorded: RecordedStack[] = recordedStacks(frontDoors().map((door) => door.name));

for (const stack of recorded) {
  describe(`the stack ${stack.version} recorded on the ${stack.door} door`, () => {
    let f: CliFixture;
    let ids: Record<string, string>;
    before(async () => {
      f = await replayedStack(stack);
      ids = await stateIds(f);
    });
    after(() => f?.close());

    it('previews with no change and writes nothing to the API', async () => {
      const writes = writeCalls(f.emulator);
      // Fails, printing the change, when this build plans any.
      await f.stack.preview(['--expect-no-changes', '--diff']);
      assert.equal(writeCalls(f.emulator), writes, 'a preview wrote to the API');
    });

    it('changes label, tags and TTLs in place: the same objects, nothing ordered or deleted', async () => {
      const creates = writeCalls(f.emulator, 'createObject') + writeCalls(f.emulator, 'placeOrder');
      const deletes = writeCalls(f.emulator, 'deleteObject') + writeCalls(f.emulator, 'cancelItem');
      await f.stack.setConfig({
        'upgrade:tag': { value: 'second' },
        'upgrade:ttl': { value: '1800' },
      });
      await f.stack.up();
      assert.deepEqual(await stateIds(f), ids);
      const now = world(f);
      assert.deepEqual(now.guests, [{ id: ids.VirtualGuest, tags: ['second', 'upgrade'] }]);
      assert.deepEqual(now.keys, [{ id: ids.SshKey, label: 'upgrade-second' }]);
      assert.deepEqual(now.zone, { id: ids.DnsZone, www: [1800] });
      assert.equal(now.records.find((r) => r.id === ids.DnsRecord)?.ttl, 1800);
      assert.ok(now.updates.includes(ids.TicketUpdate));
      assert.equal(
        writeCalls(f.emulator, 'createObject') + writeCalls(f.emulator, 'placeOrder'),
        creates,
      );
      assert.equal(
        writeCalls(f.emulator, 'deleteObject') + writeCalls(f.emulator, 'cancelItem'),
        deletes,
      );
    });

    it("destroys the stack's objects and nothing else", async () => {
      const before = world(f);
      await f.stack.destroy();
      const now = world(f);
      assert.deepEqual(now.guests, []);
      assert.deepEqual(now.keys, []);
      assert.equal(now.zone, undefined);
      assert.deepEqual(
        now.records,
        before.records.filter((r) => r.id !== ids.DnsRecord),
        'only its record left example.com',
      );
      // A ticket update is posted for good: the destroy forgets it.
      assert.deepEqual(now.updates, before.updates);
      assert.deepEqual(await f.stack.resources(), []);
    });
  });
}

it('finds recorded stacks for every door it runs', () => {
  for (const door of frontDoors()) {
    assert.ok(
      recorded.some((stack) => stack.door === door.name),
      `no stack recorded on the ${door.name} door under test/upgrade/`,
    );
  }
});

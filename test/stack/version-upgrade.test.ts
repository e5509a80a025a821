import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { declaredNote } from '../../provider/framework/creation-token';
import { KINDS } from '../../provider/kinds';
import { kindOf, pluginToken } from '../../provider/kinds/tokens';
import { PROGRAMS, writeCalls, type CliFixture } from './cli';
import { frontDoors } from './front-door';
import {
  RECORDED_PROGRAMS,
  recordedStacks,
  replayedStack,
  type RecordedStack,
} from './recorded-stacks';

// Every stack an earlier version recorded (test/upgrade/, scripts/record-upgrade-state), taken
// over by this build: its state imported into a fresh backend, the emulator holding what it made.
// This build must preview it with no change and no API write, change it in place and destroy it.
// A change that cannot keep a recorded state unchanged fails here: it is a breaking change
// (CONTRIBUTING, "Upgrades").

type Row = Record<string, unknown> & { id: number };

/** A guest's or server's tags but the marks the provider sets (its creation token, `pulumi-svc-owned`). */
const userTags = (row: Row) =>
  (row.tagReferences as { tag: { name: string } }[])
    .map((ref) => ref.tag.name)
    .filter((tag) => !tag.startsWith('pulumi-svc-'))
    .sort();

/**
 * How the test reads the account's objects of a kind the recorded programs declare once (an
 * `Account` relation and its mask), and what their `tag` setting changes in place on it (the
 * value read back, and the value a tag gives). DnsZone, DnsRecord and TicketUpdate live inside
 * other objects: `world` reads them apart.
 */
interface Listed {
  method: string;
  mask: string;
  /** Still the account's (a VLAN cancelled at once stays listed with its cancellation date). */
  live?: (row: Row) => boolean;
  read: (row: Row) => unknown;
  tagged: (tag: string) => unknown;
}

const named = (field: string, tagged: (tag: string) => string): Omit<Listed, 'method'> => ({
  mask: `id,${field}`,
  read: (row) => row[field],
  tagged,
});
const dashed = (tag: string) => `upgrade-${tag}`;
const spaced = (tag: string) => `upgrade ${tag}`;
const tagList = (tag: string) => ['upgrade', tag].sort();

const declaredNotes = {
  ...named('notes', spaced),
  read: (row: Row) => declaredNote(row.notes as string | undefined),
};

const LISTED: Record<string, Listed> = {
  VirtualGuest: {
    method: 'getVirtualGuests',
    mask: 'id,tagReferences.tag.name',
    read: userTags,
    tagged: tagList,
  },
  BareMetalServer: {
    method: 'getHardware',
    mask: 'id,tagReferences.tag.name',
    read: userTags,
    tagged: tagList,
  },
  SshKey: { method: 'getSshKeys', ...named('label', dashed) },
  ImageTemplate: { method: 'getPrivateBlockDeviceTemplateGroups', ...named('name', dashed) },
  SecurityGroup: { method: 'getSecurityGroups', ...named('description', spaced) },
  PlacementGroup: { method: 'getPlacementGroups', ...named('name', dashed) },
  DedicatedHost: { method: 'getDedicatedHosts', ...named('name', dashed) },
  // A volume's notes end with the handed mark once an update has written them.
  BlockVolume: { method: 'getIscsiNetworkStorage', ...declaredNotes },
  FileVolume: { method: 'getNasNetworkStorage', ...declaredNotes },
  Vlan: {
    method: 'getNetworkVlans',
    ...named('name', dashed),
    mask: 'id,name,billingItem.cancellationDate',
    live: (row) =>
      !(row.billingItem as { cancellationDate?: string } | undefined)?.cancellationDate,
  },
};

/** What the stack's objects are in the emulator and the API: each listed kind's objects by id. */
async function world(f: CliFixture, kinds: string[]) {
  const objects = f.emulator.objects(f.emulator.credentials.username);
  const zones = objects.dnsDomains as (Row & { name: string; resourceRecords: Row[] })[];
  const zone = zones.find((z) => z.name === 'upgrade.example.net');
  const tickets = objects.tickets as (Row & { updates: Row[] })[];
  const listed: Record<string, Map<string, unknown>> = {};
  for (const kind of kinds.filter((k) => k in LISTED)) {
    const { method, mask, live = () => true, read } = LISTED[kind];
    const rows = (await f.client.call('Account', method, { mask })) as Row[];
    listed[kind] = new Map(rows.filter(live).map((row) => [String(row.id), read(row)]));
  }
  return {
    listed,
    zone: zone && {
      id: String(zone.id),
      www: zone.resourceRecords.filter((r) => r.host === 'www').map((r) => r.ttl),
    },
    records: zones
      .filter((z) => z.name === 'example.com')
      .flatMap((z) => z.resourceRecords)
      .map((r) => ({ id: String(r.id), ttl: r.ttl })),
    updates: tickets.flatMap((t) => t.updates.map((u) => String(u.id))),
  };
}

/** The id of each kind's one resource in the state (a recording holds the kinds of its version). */
async function stateIds(f: CliFixture): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const resource of await f.stack.resources()) {
    const kind = kindOf(resource.type);
    if (!kind || !resource.id) continue;
    assert.ok(!(kind in ids), `one ${kind} in the recorded state`);
    ids[kind] = resource.id;
  }
  for (const kind of ['VirtualGuest', 'SshKey', 'DnsZone', 'DnsRecord', 'TicketUpdate'])
    assert.ok(kind in ids, `a ${kind} in the recorded state`);
  return ids;
}

const recorded: RecordedStack[] = recordedStacks(frontDoors().map((door) => door.name));

/**
 * What ties the guest to the other kinds of a recording that has them: the placement group it is
 * in, the security groups on its public interface, the guests each volume is authorized to.
 */
async function ties(f: CliFixture, ids: Record<string, string>) {
  const guest = (await f.client.call('Virtual_Guest', 'getObject', {
    id: Number(ids.VirtualGuest),
    mask: 'placementGroupId,primaryNetworkComponent.securityGroupBindings.securityGroupId',
  })) as {
    placementGroupId?: number;
    primaryNetworkComponent?: { securityGroupBindings?: { securityGroupId: number }[] };
  };
  const allowed = async (id: string) =>
    (
      (await f.client.call('Network_Storage', 'getObject', {
        id: Number(id),
        mask: 'allowedVirtualGuests.id',
      })) as { allowedVirtualGuests?: { id: number }[] }
    ).allowedVirtualGuests?.map((g) => String(g.id));
  return {
    placementGroup: String(guest.placementGroupId),
    securityGroups: (guest.primaryNetworkComponent?.securityGroupBindings ?? []).map((b) =>
      String(b.securityGroupId),
    ),
    block: await allowed(ids.BlockVolume),
    file: await allowed(ids.FileVolume),
  };
}

for (const stack of recorded) {
  describe(`the stack ${stack.version} recorded on the ${stack.door} door`, () => {
    let f: CliFixture;
    let ids: Record<string, string>;
    let kinds: string[];
    before(async () => {
      f = await replayedStack(stack);
      ids = await stateIds(f);
      kinds = Object.keys(ids);
    });
    after(() => f?.close());

    it('previews with no change and writes nothing to the API', async () => {
      const writes = writeCalls(f.emulator);
      // Fails, printing the change, when this build plans any.
      await f.stack.preview(['--expect-no-changes', '--diff']);
      assert.equal(writeCalls(f.emulator), writes, 'a preview wrote to the API');
    });

    it('changes names, notes, tags and TTLs in place: the same objects, nothing ordered or deleted', async () => {
      const creates = writeCalls(f.emulator, 'createObject') + writeCalls(f.emulator, 'placeOrder');
      const deletes = writeCalls(f.emulator, 'deleteObject') + writeCalls(f.emulator, 'cancelItem');
      await f.stack.setConfig({
        'upgrade:tag': { value: 'second' },
        'upgrade:ttl': { value: '1800' },
      });
      await f.stack.up();
      assert.deepEqual(await stateIds(f), ids);
      const now = await world(f, kinds);
      for (const [kind, objects] of Object.entries(now.listed)) {
        const expected = LISTED[kind].tagged('second');
        assert.deepEqual(objects.get(ids[kind]), expected, `${kind} ${ids[kind]} changed in place`);
      }
      assert.deepEqual(now.zone, { id: ids.DnsZone, www: [1800] });
      assert.equal(now.records.find((r) => r.id === ids.DnsRecord)?.ttl, 1800);
      assert.ok(now.updates.includes(ids.TicketUpdate));
      if (ids.SecurityGroup) {
        assert.deepEqual(await ties(f, ids), {
          placementGroup: ids.PlacementGroup,
          securityGroups: [ids.SecurityGroup],
          block: [ids.VirtualGuest],
          file: [ids.VirtualGuest],
        });
      }
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
      const before = await world(f, kinds);
      await f.stack.destroy();
      const now = await world(f, kinds);
      for (const [kind, objects] of Object.entries(before.listed)) {
        assert.ok(objects.has(ids[kind]), `the stack's ${kind} was there`);
        assert.deepEqual(
          [...now.listed[kind].keys()],
          [...objects.keys()].filter((id) => id !== ids[kind]),
          `only the stack's ${kind} is gone`,
        );
      }
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

it('the programs the next recording runs declare every kind', () => {
  const program = (door: keyof typeof RECORDED_PROGRAMS, file: string) =>
    fs.readFileSync(path.join(PROGRAMS, RECORDED_PROGRAMS[door], file), 'utf8');
  const ts = program('dynamic', 'index.ts');
  const yaml = program('plugin', 'Pulumi.yaml');
  for (const kind of Object.keys(KINDS)) {
    assert.match(
      ts,
      new RegExp(`new ${kind}\\(`),
      `test/stack/programs/upgrade declares no ${kind}`,
    );
    assert.ok(yaml.includes(`type: ${pluginToken(kind)}\n`), `upgrade-yaml declares no ${kind}`);
  }
});

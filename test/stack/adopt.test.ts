import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import type { ImportEntry } from '../../commands/adopt';
import type { AuditReport } from '../../commands/audit';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import {
  DnsManager,
  ImageManager,
  SecurityGroupManager,
  SshKeyManager,
  StorageManager,
  VirtualGuestManager,
  createTemplate,
  type CreateInstanceSpec,
} from '../../provider/managers';
import type { Client } from '../../provider/client';
import { freshEd25519 } from '../support/ssh-keys';
import { listVlans, orderContainer, placeOrder } from '../../provider/kinds/vlan/api';
import { untilIdle } from '../support/idle-guest';
import { bindOutside, newDedicatedHost } from '../support/guest-network';
import { orderByHand } from '../support/volumes';
import { cliFixture, pulumiSvc, writeCalls, type CliFixture, type Emulator } from './cli';
import { yamlOnPlugin } from './plugin-project';

// An account full of guests, keys, zones and records, a placement group with two guests, a VLAN,
// a dedicated host with a guest, image templates, a block and a file volume and two security
// groups with rules (one bound to a guest), made by hand (over XML-RPC), beside a stack that owns
// a few: `pulumi-svc audit --import-file` lists exactly the unowned ones,
// `pulumi import --file` adopts them into a YAML stack on the plugin, and the program it writes,
// unchanged, has no diff and makes no API write. SVC_ADOPT_SCALE=issue makes the account of
// issue 31 (50 guests, 5 keys, 3 zones with 20 records); the default is smaller, for this
// 2-core machine's CLI.
const SCALE =
  process.env.SVC_ADOPT_SCALE === 'issue'
    ? { guests: 50, keys: 5, zones: 3, records: 20 }
    : { guests: 10, keys: 3, zones: 2, records: 8 };

const OS = ['UBUNTU_LATEST', 'DEBIAN_12_64', 'UBUNTU_22_64', 'ROCKYLINUX_9_64'];

/** The i-th hand-made guest: hourly and monthly, with and without keys, tags, user data, disks. */
function handMadeGuest(i: number, keyIds: number[]): CreateInstanceSpec {
  return {
    hostname: `web${i}`,
    domain: i % 3 === 0 ? 'db.adopt.test' : 'adopt.test',
    cpus: i % 4 === 0 ? 2 : 1,
    memory: i % 5 === 0 ? 2048 : 1024,
    hourly: i % 3 !== 1,
    os: OS[i % OS.length],
    datacenter: i % 2 === 0 ? 'dal10' : 'wdc07',
    ...(i % 2 === 0 ? { sshKeyIds: keyIds.slice(0, 1 + (i % keyIds.length)) } : {}),
    ...(i % 3 === 0 ? { tags: ['hand', `team-${i % 2}`] } : {}),
    ...(i % 4 === 1 ? { userData: `#cloud-config\nhostname: web${i}\n` } : {}),
    ...(i % 5 === 2 ? { disks: [25, 100], nicSpeed: 1000 } : {}),
    ...(i % 7 === 3 ? { notes: `made by hand ${i}` } : {}),
  };
}

const OWNER_PROGRAM = `
resources:
  mine:
    type: svc:index:VirtualGuest
    properties:
      hostname: mine
      domain: owned.test
      datacenter: dal10
      startCpus: 1
      maxMemory: 1024
      operatingSystemReferenceCode: UBUNTU_LATEST
  deploy:
    type: svc:index:SshKey
    properties:
      label: owned-deploy
      publicKey: ${freshEd25519('owned@svc')}
  zone:
    type: svc:index:DnsZone
    properties:
      name: owned.test
      records:
        - host: www
          type: A
          data: 10.9.9.9
`;

const project = (name: string, program: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  fs.writeFileSync(path.join(dir, 'Pulumi.yaml'), [...yamlOnPlugin(name), program].join('\n'));
  return dir;
};

/** A creation token as this provider writes it: what it ordered carries it. */
const TOKEN = 'pulumi-svc-0123456789abcdef01234567';

/**
 * Two security groups with rules of every shape (a port range, ICMP over IPv6, another group as
 * the remote, an egress rule with nothing else), made by hand.
 */
async function makeGroups(client: Client): Promise<number[]> {
  const groups = new SecurityGroupManager(client);
  const web = await groups.createGroup({ name: 'Web Tier', description: 'made by hand' });
  await groups.addRules(web.id, [
    {
      direction: 'ingress',
      protocol: 'tcp',
      portRangeMin: 80,
      portRangeMax: 443,
      remoteIp: '0.0.0.0/0',
    },
    {
      direction: 'ingress',
      ethertype: 'IPv6',
      protocol: 'icmp',
      portRangeMin: 128,
      portRangeMax: 0,
    },
  ]);
  const db = await groups.createGroup({ name: 'db' });
  await groups.addRules(db.id, [
    {
      direction: 'ingress',
      protocol: 'tcp',
      portRangeMin: 5432,
      portRangeMax: 5432,
      remoteGroupId: web.id,
    },
    { direction: 'egress' },
  ]);
  return [web.id, db.id];
}

/**
 * Two block volumes (one monthly, endurance, with notes and a guest allowed; one hourly,
 * performance, with snapshot space and a schedule) and a file volume (hourly, performance)
 * ordered by hand, and a volume whose order carried this provider's creation
 * token, which no import takes.
 */
async function makeVolumes(client: Client, guestId: number) {
  const storage = new StorageManager(client);
  const common = { datacenter: 'dal10', capacityGb: 20 };
  const block = await orderByHand(
    storage,
    { ...common, type: 'block', tierIopsPerGb: 2, osFormat: 'VMWARE', hourly: false },
    'hand-block',
  );
  await storage.editNotes(block.id, 'made by hand');
  await storage.setGuestAccess(block.id, [guestId], true);
  // The second block volume keeps snapshots: space ordered with it and a daily schedule.
  const snapshotted = await orderByHand(
    storage,
    { ...common, type: 'block', iops: 1000, osFormat: 'LINUX', hourly: true, snapshotGb: 10 },
    'hand-block-snapshots',
  );
  await storage.enableSnapshots(snapshotted.id, {
    type: 'DAILY',
    retentionCount: 7,
    minute: 30,
    hour: 2,
    dayOfWeek: 'SUNDAY',
  });
  const file = await orderByHand(
    storage,
    { ...common, type: 'file', iops: 500, hourly: true },
    'hand-file',
  );
  const tagged = await orderByHand(
    storage,
    { ...common, type: 'file', tierIopsPerGb: 4, hourly: true },
    TOKEN,
  );
  return {
    handMade: [`BlockVolume:${block.id}`, `BlockVolume:${snapshotted.id}`, `FileVolume:${file.id}`],
    tagged: `FileVolume:${tagged.id}`,
  };
}

/**
 * An account's objects made by hand over XML-RPC (`scale` of each kind; records also in
 * `ownedZone`, a stack's zone; two groups and three volumes), and two guests and a volume with
 * this provider's tags (`Kind:id`), which no import takes.
 */
async function makeAccount(client: Client, scale: typeof SCALE, ownedZone?: string) {
  const handMade = new Set<string>();
  const providerTagged: string[] = [];
  const keys = new SshKeyManager(client);
  const keyIds: number[] = [];
  for (let i = 0; i < scale.keys; i++) {
    const key = await keys.createKey({ label: `Hand Key ${i}`, key: freshEd25519(`k${i}@svc`) });
    keyIds.push(key.id);
    handMade.add(`SshKey:${key.id}`);
  }
  const dns = new DnsManager(client);
  const zones = [];
  for (let z = 0; z < scale.zones; z++) {
    const zone = await dns.createZone(`zone${z}.adopt.test`);
    zones.push(zone);
    handMade.add(`DnsZone:${zone.id}`);
  }
  // A record made by hand in an owned zone is unowned too (it has no zone to be parented to).
  const owned = ownedZone ? [(await dns.getZoneByName(ownedZone, false)).id] : [];
  const recordZones = [...zones.map((z) => z.id), ...owned];
  for (let r = 0; r < scale.records; r++) {
    const spec =
      r % 4 === 3
        ? { host: '@', type: 'MX', data: `mx${r}.adopt.test`, mxPriority: r }
        : r % 4 === 2
          ? { host: `txt${r}`, type: 'TXT', data: `v=spf1 -all ${r}`, ttl: 3600 }
          : { host: r % 5 === 0 ? 'www' : `host${r}`, type: 'A', data: `10.0.0.${r + 1}` };
    const record = await dns.createRecord(recordZones[r % recordZones.length], spec);
    handMade.add(`DnsRecord:${record.id}`);
  }
  const router = (
    (await client.call('Virtual_PlacementGroup', 'getAvailableRouters', {
      mask: 'id,datacenter.name',
    })) as { id: number; datacenter: { name: string } }[]
  ).find((r) => r.datacenter.name === 'dal10')!;
  const group = (await client.call('Virtual_PlacementGroup', 'createObject', {
    args: [{ name: 'hand-spread', backendRouterId: router.id, ruleId: 1 }],
  })) as { id: number };
  handMade.add(`PlacementGroup:${group.id}`);
  // A VLAN ordered by hand (no creation token); the ones the API assigns are not adoptable.
  const vlan = { datacenter: 'dal10', networkSpace: 'PRIVATE' as const, name: 'hand-vlan' };
  await placeOrder(client, await orderContainer(client, { ...vlan, containerIdentifier: 'hand' }));
  const [handVlan] = (await listVlans(client)).filter((v) => v.name === 'hand-vlan');
  handMade.add(`Vlan:${handVlan.id}`);
  const host = await newDedicatedHost(client, 'hand-host', 'dal10');
  handMade.add(`DedicatedHost:${host}`);
  // web0 and web2 (dal10) in the placement group, web4 on the dedicated host.
  const placed: Record<number, Record<string, unknown>> = {
    0: { placementGroupId: group.id },
    2: { placementGroupId: group.id },
    4: { dedicatedHost: { id: host } },
  };
  const guests = new VirtualGuestManager(client);
  const guestIds: number[] = [];
  for (let i = 0; i < scale.guests; i++) {
    const template = { ...createTemplate(handMadeGuest(i, keyIds)), ...placed[i] };
    const guest = await guests.createFromTemplate(template);
    guestIds.push(guest.id);
    handMade.add(`VirtualGuest:${guest.id}`);
  }
  // Guests with this provider's tags belong to a stack (an unfinished create; a completed
  // one of a backend not audited): never in the import file.
  for (const tags of [[TOKEN], [OWNED_TAG]]) {
    const spec = { ...handMadeGuest(100 + providerTagged.length, []), tags };
    providerTagged.push(`VirtualGuest:${(await guests.createInstance(spec)).id}`);
  }
  // Two templates captured by hand, and one still noted with a creation token (an unfinished
  // create of some stack, which its next `up` takes over): never in the import file.
  const images = new ImageManager(client);
  const unfinished: number[] = [];
  for (const [i, note] of [
    'by hand',
    'by hand too',
    'pulumi-svc-89abcdef0123456789abcdef',
  ].entries()) {
    const guest = [...handMade].filter((k) => k.startsWith('VirtualGuest:'))[i];
    const guestId = await untilIdle(client, Number(guest.split(':')[1]));
    await images.capture(guestId, { name: `Base ${i}`, note, additionalDisks: false });
    const [template] = await images.listPrivate({ note: { operation: note } });
    if (note.startsWith('pulumi-svc-')) unfinished.push(template.id);
    else handMade.add(`ImageTemplate:${template.id}`);
  }
  const [web, db] = await makeGroups(client);
  // Bound to web6's public interface (dal10), once it is provisioned.
  await bindOutside(
    client,
    await untilIdle(client, guestIds[6]),
    'primaryNetworkComponent',
    web,
    500,
  );
  for (const id of [web, db]) handMade.add(`SecurityGroup:${id}`);
  // Allowed to the first dal10 guest (web0).
  const volumes = await makeVolumes(client, guestIds[0]);
  volumes.handMade.forEach((k) => handMade.add(k));
  providerTagged.push(volumes.tagged);
  return { handMade, providerTagged, unfinished };
}

describe('adopting an existing account (audit --import-file, pulumi import --file)', () => {
  let emulator: Emulator;
  let owner: CliFixture;
  let adopter: CliFixture;
  const backend = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-adopt-backend-'));
  const dirs: string[] = [backend];
  /** `type:id` of everything made by hand, and of what must never be adopted. */
  const handMade = new Set<string>();
  const providerTagged: string[] = [];
  const unfinishedTemplates: number[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, seed: 'empty', provisioningDelayMs: 200 });
    const common = { emulator, backendUrl: `file://${backend}`, inPlace: true };
    dirs.push(project('adopt-owner', OWNER_PROGRAM), project('adopt-into', ''));
    owner = await cliFixture({ ...common, program: dirs[1], stackName: 'owner' });
    adopter = await cliFixture({ ...common, program: dirs[2], stackName: 'adopt' });
    await owner.stack.up();

    const made = await makeAccount(adopter.client, SCALE, 'owned.test');
    made.handMade.forEach((k) => handMade.add(k));
    providerTagged.push(...made.providerTagged);
    unfinishedTemplates.push(...made.unfinished);
  });
  after(async () => {
    await adopter?.close();
    await owner?.close();
    await emulator?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const audit = async (args: string[]): Promise<AuditReport> => {
    const stacks = ['--stack', 'adopt', '--stack', 'organization/adopt-owner/owner'];
    return JSON.parse(
      await pulumiSvc(adopter, ['audit', '--json', ...stacks, ...args]),
    ) as AuditReport;
  };
  const importPath = () => path.join(adopter.dir, 'adopt.json');
  const entries = () =>
    (JSON.parse(fs.readFileSync(importPath(), 'utf8')) as { resources: ImportEntry[] }).resources;
  const key = (e: ImportEntry) => `${e.type.split(':').pop()}:${e.id}`;

  it('the import file lists exactly what no stack owns, with valid unique names and zones as parents', async () => {
    const report = await audit(['--import-file', importPath()]);
    assert.deepEqual(new Set(entries().map(key)), handMade);
    assert.deepEqual(report.unowned, entries());
    const names = entries().map((e) => e.name);
    assert.equal(new Set(names).size, names.length, 'unique names');
    for (const name of names) assert.match(name, /^[a-z][a-z0-9_]*$/);
    for (const e of entries().filter((e) => e.type === 'svc:index:DnsRecord')) {
      const record = await new DnsManager(adopter.client).getRecord(Number(e.id));
      const zone = entries().find(
        (z) => z.type === 'svc:index:DnsZone' && z.id === String(record.domainId),
      );
      assert.equal(
        e.parent,
        zone?.name,
        `record ${e.name} parented to its zone when it is adopted`,
      );
    }
    assert.deepEqual(
      report.orphans.map((o) => `${o.kind}:${o.id}`).sort(),
      [...providerTagged].sort(),
      'the tagged guests and volume are orphans of a stack, not unowned',
    );
    // The same account gives the same file.
    const again = await audit(['--import-file', importPath()]);
    assert.deepEqual(again.unowned, report.unowned);
  });

  it('filters narrow the file; an unknown flag is refused', async () => {
    const dal10 = await audit(['--datacenter', 'dal10', '--domain', '*.adopt.test']);
    assert.ok(dal10.unowned.length > 0);
    assert.ok(dal10.unowned.every((e) => e.type === 'svc:index:VirtualGuest'));
    const tagged = await audit(['--tag', 'hand']);
    assert.equal(tagged.unowned.length, Math.ceil(SCALE.guests / 3));
    const dal10Only = await audit(['--datacenter', 'dal10']);
    // The volumes (and guests) in dal10; kinds without a datacenter are left out.
    const dal10Kinds = new Set(dal10Only.unowned.map((e) => e.type.split(':').pop()));
    for (const kind of ['BlockVolume', 'FileVolume', 'VirtualGuest'])
      assert.ok(dal10Kinds.has(kind));
    for (const kind of ['DnsZone', 'DnsRecord', 'SshKey', 'SecurityGroup'])
      assert.ok(!dal10Kinds.has(kind), kind);
    const zone0 = await audit(['--domain', 'zone0.adopt.test']);
    assert.deepEqual([...new Set(zone0.unowned.map((e) => e.type))].sort(), [
      'svc:index:DnsRecord',
      'svc:index:DnsZone',
    ]);
    await assert.rejects(audit(['--import-fil', 'x.json']), /unknown argument --import-fil/);
  });

  it('pulumi import --file adopts them; the generated program, unchanged, shows no diff and writes nothing; destroy removes exactly those', async () => {
    await audit(['--import-file', importPath()]);
    const writesBefore = writeCalls(emulator);
    const generated = path.join(adopter.dir, 'imported.yaml');
    await adopter.stack.run(['import', '--file', importPath(), '--yes', '--out', generated]);
    const program = fs.readFileSync(generated, 'utf8');
    // The generated resources section is the program (Pulumi.yaml holds only the header).
    fs.appendFileSync(path.join(adopter.dir, 'Pulumi.yaml'), `\n${program}`);
    await adopter.stack.preview(['--expect-no-changes']);
    assert.equal(writeCalls(emulator), writesBefore, 'import and preview wrote nothing');
    const held = (await adopter.stack.resources()).filter((r) => r.id && r.type.startsWith('svc:'));
    assert.deepEqual(new Set(held.map((r) => `${r.type.split(':').pop()}:${r.id}`)), handMade);
    assert.doesNotMatch(program, /UBUNTU_24_64|waitForReady|readyTimeoutMinutes|name: ""/);
    // The guests keep where they are: web0 and web2 in the group, web4 on the host, web6 bound;
    // the second block volume keeps its snapshot space and schedule.
    const count = (field: string) => program.split(`${field}:`).length - 1;
    assert.deepEqual(
      [
        'placementGroupId',
        'dedicatedHostId',
        'securityGroupIds',
        'snapshotCapacityGb',
        'snapshotSchedules',
      ].map(count),
      [2, 1, 1, 1, 1],
      program,
    );

    const second = await audit([]);
    assert.deepEqual(second.unowned, [], 'a second audit finds nothing unowned');

    await adopter.stack.run(['state', 'unprotect', '--all', '--yes']);
    // The generated program names the group and the host by id, not as dependencies: the
    // guests go first (the API deletes a group or host only once its guests are gone).
    const guestUrns = held.filter((r) => r.type === 'svc:index:VirtualGuest').map((r) => r.urn);
    await adopter.stack.run([
      'destroy',
      '--yes',
      '--skip-preview',
      ...guestUrns.flatMap((urn) => ['--target', urn]),
    ]);
    await adopter.stack.destroy();
    const left = await accountKeys(adopter);
    for (const made of handMade) assert.ok(!left.has(made), `${made} was destroyed`);
    for (const tagged of providerTagged) assert.ok(left.has(tagged));
    for (const id of unfinishedTemplates) assert.ok(left.has(`ImageTemplate:${id}`));
    const notAdopted = [
      ...providerTagged,
      ...unfinishedTemplates.map((id) => `ImageTemplate:${id}`),
    ];
    assert.deepEqual(
      [...left].filter((k) => !notAdopted.includes(k)).length,
      (await owner.stack.resources()).filter((r) => r.id && r.type.startsWith('svc:index:'))
        .length + 1,
      "the owner stack's guest, key, zone and its record are all still there",
    );
  });
});

/**
 * `Kind:id` of every guest, VLAN and volume still billed, dedicated host, key, zone, record,
 * placement group, template and security group of the account.
 */
async function accountKeys(f: CliFixture): Promise<Set<string>> {
  const volumes = (await new StorageManager(f.client).listVolumes()).filter(
    (v) => v.billingItem && !v.billingItem.cancellationDate,
  );
  const securityGroups = await new SecurityGroupManager(f.client).listGroups('id');
  const guests = (await f.client.call('Account', 'getVirtualGuests', {
    mask: 'id,billingItem.id',
  })) as { id: number; billingItem?: { id: number } }[];
  const keys = await new SshKeyManager(f.client).listKeys();
  const zones = (await f.client.call('Account', 'getDomains', {
    mask: 'id,resourceRecords.id',
  })) as { id: number; resourceRecords?: { id: number }[] }[];
  const groups = (await f.client.call('Account', 'getPlacementGroups', { mask: 'id' })) as {
    id: number;
  }[];
  const vlans = (await listVlans(f.client)).filter(
    (v) => v.billingItem && !v.billingItem.cancellationDate,
  );
  const templates = await new ImageManager(f.client).listPrivate();
  const hosts = (await f.client.call('Account', 'getDedicatedHosts', { mask: 'id' })) as {
    id: number;
  }[];
  return new Set([
    ...hosts.map((h) => `DedicatedHost:${h.id}`),
    ...groups.map((g) => `PlacementGroup:${g.id}`),
    ...vlans.map((v) => `Vlan:${v.id}`),
    ...guests.filter((g) => g.billingItem).map((g) => `VirtualGuest:${g.id}`),
    ...templates.map((t) => `ImageTemplate:${t.id}`),
    ...keys.map((k) => `SshKey:${k.id}`),
    ...zones.map((z) => `DnsZone:${z.id}`),
    ...zones.flatMap((z) => (z.resourceRecords ?? []).map((r) => `DnsRecord:${r.id}`)),
    ...volumes.map((v) => `${v.nasType === 'ISCSI' ? 'Block' : 'File'}Volume:${v.id}`),
    ...securityGroups.map((g) => `SecurityGroup:${g.id}`),
  ]);
}

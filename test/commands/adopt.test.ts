import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADOPTION_FACES,
  importFile,
  leftovers,
  narrowed,
  unownedObjects,
  type AccountObjects,
} from '../../commands/adopt';
import { auditAccount, parseAuditArgs } from '../../commands/audit-command';
import { audit, formatAudit, hasFindings } from '../../commands/audit';
import type { Client } from '../../provider/client';
import { declaredOs } from '../../provider/kinds/virtual-guest/import-form';
import type { PlacementGroup } from '../../provider/kinds/placement-group/fields';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import type {
  DnsZone,
  ImageTemplate,
  SecurityGroup,
  SshKey,
  VirtualGuest,
} from '../../provider/managers';

const guest = (id: number, hostname: string, dc: string, tags: string[] = []): VirtualGuest =>
  ({
    id,
    hostname,
    domain: 'example.com',
    datacenter: { name: dc },
    tagReferences: tags.map((name) => ({ tag: { name } })),
  }) as VirtualGuest;

const ZONES: DnsZone[] = [
  {
    id: 30,
    name: 'example.com',
    resourceRecords: [
      { id: 300, domainId: 30, host: 'www', type: 'a', data: '10.0.0.1', ttl: 900 },
      { id: 301, domainId: 30, host: '@', type: 'soa', data: 'ns1.', ttl: 900 },
    ],
  },
  {
    id: 31,
    name: 'owned.org',
    resourceRecords: [
      { id: 310, domainId: 31, host: 'www', type: 'a', data: '10.0.0.2', ttl: 900 },
      { id: 311, domainId: 31, host: 'api', type: 'a', data: '10.0.0.3', ttl: 900 },
    ],
  },
];

const KEYS: SshKey[] = [
  { id: 20, label: 'Deploy Key', key: 'k', fingerprint: 'f' },
  { id: 21, label: 'owned', key: 'k', fingerprint: 'g' },
];
const GROUPS: SecurityGroup[] = [
  { id: 40, name: 'Web Tier' },
  { id: 41, name: 'owned' },
  { id: 42, name: 'web', description: 'pulumi-svc-0123456789abcdef01234567' }, // an unfinished create
];
// An unfinished create's group, named by its token.
const PLACEMENT_GROUPS: PlacementGroup[] = [
  { id: 60, name: 'pulumi-svc-0123456789abcdef01234567' },
];
const IMAGES: ImageTemplate[] = [
  { id: 50, name: 'Web Base', note: 'nginx' },
  { id: 51, name: 'owned' },
  { id: 52, name: 'capturing', note: 'pulumi-svc-0123456789abcdef01234567' }, // an unfinished create
];

// Each kind's objects as its adoption face lists them (a record inside its zone).
const ACCOUNT: AccountObjects = {
  VirtualGuest: [
    guest(1, 'web', 'dal10', ['blue']),
    guest(2, 'web', 'wdc07'), // the same name as guest 1: both get their id
    guest(3, 'db', 'dal10'), // in a state
    guest(4, 'killed', 'dal10', ['pulumi-svc-0123456789abcdef01234567']), // an unfinished create
    guest(5, 'other', 'dal10', [OWNED_TAG]), // a completed create of some stack
    guest(6, '9lives', 'dal10'),
  ],
  SshKey: KEYS,
  DnsZone: ZONES,
  DnsRecord: ZONES.flatMap((zone) => ADOPTION_FACES.DnsRecord.objectsIn!(zone)),
  SecurityGroup: GROUPS,
  ImageTemplate: IMAGES,
  PlacementGroup: PLACEMENT_GROUPS,
};

const STATES = [
  {
    stack: 'prod',
    resources: [
      { urn: 'u1', type: 'svc:index:VirtualGuest', id: '3' },
      { urn: 'u2', type: 'pulumi-nodejs:dynamic/svc:SshKey', id: '21' },
      { urn: 'u3', type: 'svc:index:DnsZone', id: '31', outputs: { recordIds: [310] } },
      { urn: 'u4', type: 'svc:index:SecurityGroup', id: '41' },
      { urn: 'u5', type: 'svc:index:ImageTemplate', id: '51' },
    ],
  },
];

describe('what no stack owns, as a bulk import file', () => {
  const unowned = unownedObjects(STATES, ACCOUNT);

  it('leaves out what a state holds (a zone’s own records too), guests with provider tags and SOA records', () => {
    assert.deepEqual(
      unowned.VirtualGuest.map((g) => g.id),
      [1, 2, 6],
    );
    assert.deepEqual(
      unowned.SshKey.map((k) => k.id),
      [20],
    );
    assert.deepEqual(
      unowned.DnsZone.map((z) => z.id),
      [30],
    );
    assert.deepEqual(
      unowned.DnsRecord.map((r) => r.id),
      [300, 311],
    );
    assert.deepEqual(
      unowned.SecurityGroup.map((g) => g.id),
      [40],
      'a group described by a creation token is an unfinished create, not adopted',
    );
    assert.deepEqual(unowned.PlacementGroup, [], 'nor one named by a creation token');
    assert.deepEqual(
      unowned.ImageTemplate.map((t) => t.id),
      [50],
      'a template noted with a creation token is an unfinished create, not adopted',
    );
  });

  it('names are identifiers, unique, from the objects’ own names; a record is parented to an adopted zone', () => {
    const { resources } = importFile(unowned);
    assert.deepEqual(resources, [
      { type: 'svc:index:DnsZone', name: 'zone_example_com', id: '30' },
      {
        type: 'svc:index:DnsRecord',
        name: 'www_a_example_com',
        id: '300',
        parent: 'zone_example_com',
      },
      { type: 'svc:index:DnsRecord', name: 'api_a_owned_org', id: '311' },
      { type: 'svc:index:SshKey', name: 'key_deploy_key', id: '20' },
      { type: 'svc:index:SecurityGroup', name: 'sg_web_tier', id: '40' },
      { type: 'svc:index:ImageTemplate', name: 'image_web_base', id: '50' },
      { type: 'svc:index:VirtualGuest', name: 'web_example_com_1', id: '1' },
      { type: 'svc:index:VirtualGuest', name: 'web_example_com_2', id: '2' },
      { type: 'svc:index:VirtualGuest', name: 'guest_9lives_example_com', id: '6' },
    ]);
  });

  it('filters keep what they describe', () => {
    const ids = (filters: Parameters<typeof narrowed>[1]) =>
      importFile(narrowed(unowned, filters)).resources.map((e) => Number(e.id));
    assert.deepEqual(ids({ datacenter: 'dal10' }), [1, 6]);
    assert.deepEqual(ids({ tag: 'Blue' }), [1]);
    assert.deepEqual(ids({ hostname: 'w?b' }), [1, 2]);
    assert.deepEqual(ids({ domain: '*.com' }), [30, 300, 1, 2, 6]);
    assert.deepEqual(ids({ domain: 'owned.org' }), []);
  });
});

describe('what an unfinished create left of the kinds that bill nothing', () => {
  // The group, the placement group and the template still carrying a creation token.
  const LEFT = [
    { kind: 'SecurityGroup', id: 42, name: 'sg-web' },
    { kind: 'PlacementGroup', id: 60, name: 'pg-pulumi-svc-0123456789abcdef01234567' },
    { kind: 'ImageTemplate', id: 52, name: 'image-capturing' },
  ];

  it('is exactly the objects no state holds whose token still stands in their text field', () => {
    assert.deepEqual(
      leftovers(STATES, ACCOUNT),
      LEFT,
      'not the guest with a token (a billed orphan), nor a group or template without one',
    );
    const holding = [
      ...STATES,
      { stack: 'dev', resources: [{ urn: 'u6', type: 'svc:index:PlacementGroup', id: '60' }] },
    ];
    assert.deepEqual(
      leftovers(holding, ACCOUNT).map((l) => l.id),
      [42, 52],
      'one a state holds (its create failed after making it) is that stack’s',
    );
  });

  it('the audit of the account lists them apart, never in the import file, as findings', async () => {
    // An account answering each list method with ACCOUNT's objects, page by page.
    const client = {
      call: (service: string, method: string, options: { offset?: number }) => {
        const listed = Object.entries(ADOPTION_FACES).filter(
          ([, face]) =>
            !face.objectsIn && face.list.service === service && face.list.method === method,
        );
        const items = listed.flatMap(([kind]) => ACCOUNT[kind] ?? []);
        return Promise.resolve(options.offset ? [] : items);
      },
    } as unknown as Client;
    const report = await auditAccount(client, STATES);
    assert.deepEqual(report.leftovers, LEFT);
    const imported = report.importable.map((e) => `${e.type.split(':').pop()} ${e.id}`);
    for (const { kind, id } of LEFT)
      assert.ok(!imported.includes(`${kind} ${id}`), `${kind} ${id}`);
    assert.deepEqual(report.unowned, report.importable);

    const onlyLeft = audit([], {}, { leftovers: LEFT.slice(0, 1) });
    assert.ok(hasFindings(onlyLeft), 'a leftover alone is a finding (exit status 3)');
    assert.ok(!hasFindings(audit([], {}, {})));
    const text = formatAudit(onlyLeft);
    assert.match(
      text,
      /^Left by an unfinished create \(1: 1 SecurityGroup\):\n {2}SecurityGroup {2}42 {2}sg-web$/m,
    );
    assert.match(text, /next `pulumi up` of its stack takes each over/);
    assert.doesNotMatch(text, /Nothing to report|no audited stack owns/);
    assert.deepEqual(JSON.parse(JSON.stringify(onlyLeft)).leftovers, LEFT.slice(0, 1));
  });
});

describe('pulumi-svc audit arguments', () => {
  it('takes the filters and the import file, and refuses what it does not know', () => {
    assert.deepEqual(
      parseAuditArgs(['--stack', 'a', '--stack=b', '--import-file', 'f.json', '--tag', 'x']),
      { stacks: ['a', 'b'], json: false, importFile: 'f.json', filters: { tag: 'x' } },
    );
    assert.throws(
      () => parseAuditArgs(['--import-fil', 'f.json']),
      /unknown argument --import-fil/,
    );
    assert.throws(() => parseAuditArgs(['--import-file']), /--import-file needs a value/);
  });
});

describe('an imported guest’s OS as a user names it', () => {
  const offered = [
    'UBUNTU_22_64',
    'UBUNTU_24_64',
    'UBUNTU_LATEST',
    'WIN_2019-STD_64',
    'WIN_2022-STD_64',
    'WIN_LATEST',
    'ROCKYLINUX_9_64',
  ];
  it('the newest of a family is its LATEST alias; an older one or one without an alias stays', () => {
    assert.equal(declaredOs('UBUNTU_24_64', offered), 'UBUNTU_LATEST');
    assert.equal(declaredOs('UBUNTU_22_64', offered), 'UBUNTU_22_64');
    assert.equal(declaredOs('WIN_2022-STD_64', offered), 'WIN_LATEST');
    assert.equal(declaredOs('WIN_2019-STD_64', offered), 'WIN_2019-STD_64');
    assert.equal(declaredOs('ROCKYLINUX_9_64', offered), 'ROCKYLINUX_9_64');
  });
});

describe('the audit report for people', () => {
  it('lists what no stack owns per kind, and says where the import file is', () => {
    const unowned = importFile(unownedObjects(STATES, ACCOUNT)).resources;
    const text = formatAudit(
      audit(STATES, { VirtualGuest: ACCOUNT.VirtualGuest }, { unowned }),
      'adopt.json',
    );
    assert.match(
      text,
      /Objects no audited stack owns \(9: 1 DnsZone, 2 DnsRecord, 1 SshKey, 1 SecurityGroup, 1 ImageTemplate, 3 VirtualGuest\)/,
    );
    assert.match(text, /pulumi import --file adopt.json/);
    const none = formatAudit(audit([], {}, {}), 'adopt.json');
    assert.match(none, /Nothing to report[\s\S]*Nothing to adopt: adopt.json lists no resource/);
  });
});

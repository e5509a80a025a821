import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { SCHEMA_FILE, pluginSchema } from '../../scripts/plugin-schema';
import { RECORD_TYPES } from '../../provider/kinds/dns-record/fields';
import { KINDS, pluginToken, type ResourceKind } from '../../provider/kinds/index';

type Bag = Record<string, unknown>;

it('the plugin serves exactly the schema scripts/plugin-schema.ts makes from the field tables', () => {
  const committed = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(
    committed,
    pluginSchema(),
    'run `npm run generate` and commit provider/plugin/schema.json',
  );
});

it('every kind of the registry is a resource of the schema, with its arguments as inputs', () => {
  const schema = pluginSchema() as {
    resources: Record<
      string,
      { inputProperties: Record<string, unknown>; requiredInputs: string[] }
    >;
    config: { variables: Record<string, { secret?: boolean }> };
  };
  for (const kind of Object.keys(KINDS) as ResourceKind[]) {
    const spec = schema.resources[pluginToken(kind)];
    assert.ok(spec, `${kind} is in the schema`);
    for (const [name, field] of Object.entries(KINDS[kind].fields)) {
      const isArg = 'input' in field && !('internal' in field);
      assert.equal(
        name in spec.inputProperties,
        isArg,
        `${kind}.${name} is an input iff an argument`,
      );
    }
  }
  assert.equal(schema.config.variables.apiKey.secret, true, 'svc:apiKey is a secret');
  assert.equal(
    (schema.resources['svc:index:VirtualGuest'].inputProperties.startCpus as { type: string }).type,
    'integer',
  );
});

it('the inputs whose change replaces the resource say so (willReplaceOnChanges), as hints only', () => {
  const schema = pluginSchema() as {
    resources: Record<string, Record<'inputProperties' | 'properties', Record<string, Bag>>>;
  };
  const marked = (kind: ResourceKind, key: 'inputProperties' | 'properties', flag: string) =>
    Object.entries(schema.resources[pluginToken(kind)][key])
      .filter(([, p]) => p[flag] === true)
      .map(([name]) => name);
  // What each kind's provider replaces on (its diff's `replaces`), written out: a field marked by
  // mistake, or one left out, fails here.
  const REPLACING: Record<ResourceKind, string[]> = {
    VirtualGuest: [
      'hourlyBillingFlag',
      'transientGuestFlag',
      'localDiskFlag',
      'operatingSystemReferenceCode',
      'imageTemplateId',
      'datacenter',
      'datacenters',
      'privateNetworkOnly',
      'placementGroupId',
      'dedicatedHostId',
      'dedicatedAccountHostOnlyFlag',
      'publicVlanId',
      'privateVlanId',
      'publicSubnetId',
      'privateSubnetId',
      'userData',
      'sshKeyIds',
      'adoptId',
    ],
    DnsRecord: ['zoneId', 'zoneName', 'type'],
    DnsZone: ['name', 'adoptId'],
    BareMetalServer: [
      'preset',
      'operatingSystemReferenceCode',
      'datacenter',
      'redundantNetwork',
      'hourlyBilling',
      'publicVlanId',
      'privateVlanId',
      'sshKeyIds',
      'userData',
    ],
    ImageTemplate: ['guestId', 'includeAdditionalDisks'],
    SshKey: ['publicKey', 'adoptId'],
    BlockVolume: ['datacenter', 'hourlyBilling', 'osFormat'],
    DedicatedHost: ['domain', 'datacenter', 'size', 'hourlyBilling'],
    FileVolume: ['datacenter', 'hourlyBilling'],
    TicketUpdate: ['ticketId', 'entry'],
    SecurityGroup: [],
    PlacementGroup: ['datacenter', 'backendRouterId', 'rule'],
    Vlan: ['datacenter', 'networkSpace', 'routerHostname'],
  };
  for (const kind of Object.keys(KINDS) as ResourceKind[]) {
    assert.deepEqual(
      marked(kind, 'inputProperties', 'willReplaceOnChanges'),
      REPLACING[kind],
      kind,
    );
    // `replaceOnChanges` would become an SDK resource option forcing the engine to replace, so
    // `onImageChange: reload` could no longer reload a guest in place.
    for (const key of ['inputProperties', 'properties'] as const)
      assert.deepEqual(marked(kind, key, 'replaceOnChanges'), [], `${kind} ${key}`);
  }
  // A record's type replaces a DnsRecord, but in a zone it is an update of the zone.
  assert.equal(JSON.stringify(pluginSchema().types).includes('ReplaceOnChanges'), false);
});

it("a field that takes a fixed list of values is typed by an enum of that list, the check's own", () => {
  const schema = pluginSchema() as {
    types: Record<string, { enum?: { value: string }[]; properties?: Record<string, Bag> }>;
    resources: Record<string, { inputProperties: Record<string, Bag> }>;
  };
  const values = (ref: unknown) =>
    schema.types[String(ref).replace('#/types/', '')].enum?.map((e) => e.value);
  // A record's type is taken in any case (`a`, as the API and earlier versions take it): any
  // string or the enum.
  const record = schema.resources[pluginToken('DnsRecord')].inputProperties.type;
  const [anyString, recordEnum] = record.oneOf as Bag[];
  assert.deepEqual(anyString, { type: 'string' });
  assert.deepEqual(values(recordEnum.$ref), [...RECORD_TYPES]);
  // A zone's records are typed the same way.
  assert.deepEqual(schema.types['svc:index:ZoneRecord'].properties?.type.oneOf, record.oneOf);
  const image = schema.resources[pluginToken('VirtualGuest')].inputProperties.onImageChange;
  assert.deepEqual(values(image.$ref), ['replace', 'reload']);
});

it("every resource is described by its resource class's doc comment, not a placeholder", () => {
  const schema = pluginSchema() as { resources: Record<string, { description: string }> };
  const descriptions = (Object.keys(KINDS) as ResourceKind[]).map(
    (kind) => schema.resources[pluginToken(kind)].description,
  );
  for (const text of descriptions) assert.doesNotMatch(text, /^A Svc \w+\.$/);
  assert.equal(new Set(descriptions).size, descriptions.length, 'each its own');
  assert.match(schema.resources[pluginToken('VirtualGuest')].description, /compute instance/);
  assert.match(schema.resources[pluginToken('DnsRecord')].description, /record in a DNS zone/);
});

it("a first-class package's schema: typed function results, one id type, every property described, examples, import", () => {
  const schema = pluginSchema() as {
    types: Record<string, { description?: string; properties?: Record<string, Bag> }>;
    resources: Record<string, { description: string } & Record<string, Record<string, Bag>>>;
    functions: Record<string, { description: string; inputs: Bag; outputs: Bag }>;
    config: { variables: Record<string, Bag> };
    language: { go: Bag; python: Bag };
  } & Bag;
  // What an answer names, through the types it refers to.
  const reachable = (spec: unknown, seen = new Set<string>()): string[] => {
    const text = JSON.stringify(spec);
    const refs = [...text.matchAll(/"#\/types\/([^"]+)"/g)].map((m) => m[1]);
    const fresh = refs.filter((ref) => !seen.has(ref));
    fresh.forEach((ref) => seen.add(ref));
    return [text, ...fresh.flatMap((ref) => reachable(schema.types[ref], seen))];
  };
  for (const [token, fn] of Object.entries(schema.functions)) {
    assert.doesNotMatch(
      reachable(fn.outputs).join(),
      /pulumi\.json#\/Any/,
      `${token}: a typed answer`,
    );
  }
  // Every id a lookup takes or answers is an integer, as every object's id in the API.
  const ids = [
    ...Object.values(schema.functions).flatMap((fn) => [
      (fn.inputs as { properties: Record<string, Bag> }).properties.id,
      (fn.outputs as { properties: Record<string, Bag> }).properties.id,
    ]),
    ...Object.values(schema.types).map((type) => type.properties?.id),
  ].filter(Boolean);
  assert.ok(ids.length >= 10);
  for (const id of ids) assert.equal(id!.type, 'integer');

  const undescribed = [
    ...Object.entries(schema.resources).flatMap(([token, r]) =>
      ['inputProperties', 'properties'].flatMap((key) =>
        Object.entries(r[key]).map(([name, p]) => [`${token}.${name}`, p] as const),
      ),
    ),
    ...Object.entries(schema.functions).flatMap(([token, fn]) =>
      (['inputs', 'outputs'] as const).flatMap((key) =>
        Object.entries((fn[key] as { properties: Record<string, Bag> }).properties).map(
          ([name, p]) => [`${token}.${name}`, p] as const,
        ),
      ),
    ),
    ...Object.entries(schema.types).flatMap(([token, type]) => [
      [token, type as Bag] as const,
      ...Object.entries(type.properties ?? {}).map(([name, p]) => [`${token}.${name}`, p] as const),
    ]),
    ...Object.entries(schema.config.variables).map(([name, p]) => [`config ${name}`, p] as const),
  ]
    .filter(([, p]) => !p.description)
    .map(([where]) => where);
  assert.deepEqual(undescribed, []);

  for (const [token, { description }] of [
    ...Object.entries(schema.resources),
    ...Object.entries(schema.functions),
  ]) {
    for (const language of ['typescript', 'python', 'go', 'yaml'])
      assert.match(description, new RegExp(`\`\`\`${language}\\n`), `${token}: ${language}`);
  }
  for (const kind of Object.keys(KINDS) as ResourceKind[]) {
    assert.equal(
      schema.resources[pluginToken(kind)].description.includes(
        `## Import\n\n\`\`\`sh\n$ pulumi import ${pluginToken(kind)} `,
      ),
      kind !== 'TicketUpdate',
      `${kind}: an import section where pulumi import takes the kind`,
    );
  }
  for (const key of ['homepage', 'repository', 'publisher', 'pluginDownloadURL', 'license'])
    assert.ok(schema[key], key);
  assert.ok((schema.keywords as string[]).includes('kind/native'));
  assert.equal(schema.language.go.generateResourceContainerTypes, true);
  assert.deepEqual(schema.language.python.pyproject, { enabled: true });
  // What the SDKs say is true of the plugin: nothing speaks of the dynamic classes' limits.
  assert.doesNotMatch(JSON.stringify(schema), /dynamic resources|`SshKey\.keyId` or its `id`/);
});

it('the schema shows as the Registry shows a package: a logo, a description, every enum value described, no untyped input', () => {
  const schema = pluginSchema() as {
    logoUrl: string;
    description: string;
    provider: { description: string };
    types: Record<string, { enum?: { value: string; description?: string }[] }>;
  };
  const logo = /\/main\/(.+)$/.exec(schema.logoUrl)?.[1];
  assert.match(schema.logoUrl, /^https:\/\/raw\.githubusercontent\.com\//);
  assert.ok(logo && existsSync(join(__dirname, '..', '..', logo)), `${logo} is in the repository`);
  for (const kind of Object.keys(KINDS)) assert.ok(schema.description.includes(kind), kind);
  assert.match(schema.provider.description, /svc:/);
  for (const [token, type] of Object.entries(schema.types))
    for (const { value, description } of type.enum ?? [])
      assert.ok(description, `${token}: ${value} has a description`);
  assert.doesNotMatch(JSON.stringify(schema), /pulumi\.json#\/Any/, 'every input has a type');
});

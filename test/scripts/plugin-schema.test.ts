import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
    'run `node --import tsx scripts/plugin-schema.ts` and commit provider/plugin/schema.json',
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
      'localDiskFlag',
      'operatingSystemReferenceCode',
      'datacenter',
      'datacenters',
      'privateNetworkOnly',
      'userData',
      'sshKeyIds',
      'adoptId',
    ],
    DnsRecord: ['zoneId', 'zoneName', 'type'],
    DnsZone: ['name', 'adoptId'],
    SshKey: ['publicKey', 'adoptId'],
    TicketUpdate: ['ticketId', 'entry'],
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
  const record = schema.resources[pluginToken('DnsRecord')].inputProperties.type;
  assert.deepEqual(values(record.$ref), [...RECORD_TYPES]);
  // A zone's records are typed by the same enum.
  assert.equal(schema.types['svc:index:ZoneRecord'].properties?.type.$ref, record.$ref);
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

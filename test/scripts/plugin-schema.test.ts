import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { SCHEMA_FILE, pluginSchema } from '../../scripts/plugin-schema';
import { KINDS, pluginToken, type ResourceKind } from '../../provider/kinds/index';

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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMigrateArgs } from '../../commands/migrate-command';
import {
  MigrationRefused,
  defaultProviderName,
  migrateState,
  type ExportedResource,
  type ExportedState,
} from '../../commands/migrate';
import { creationToken } from '../../provider/framework/creation-token';

const STACK = 'urn:pulumi:dev::app::pulumi:pulumi:Stack::app-dev';
const urn = (type: string, name: string) => `urn:pulumi:dev::app::${type}::${name}`;
const NODEJS = urn('pulumi:providers:pulumi-nodejs', 'default');
const NODEJS_REF = `${NODEJS}::1111`;
const GUEST = 'pulumi-nodejs:dynamic/svc:VirtualGuest';
const RECORD = 'pulumi-nodejs:dynamic/svc:DnsRecord';
const APP = 'my:index:App';
/** A secret as `pulumi stack export` shows it: ciphertext under the secret signature. */
const SECRET = {
  '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270',
  ciphertext: 'v1:xyz',
};
const CODE = 'exports.handler = __f0; function __f0() { return require("pulumi-svc/runtime"); }';

/** A guest of the dynamic classes as its state holds it. */
function dynamicGuest(name: string, parent = STACK): ExportedResource {
  const type = parent === STACK ? GUEST : `${APP}$${GUEST}`;
  const internal = {
    resourceName: name,
    identity: `app/dev/${name}`,
    provenance: `organization/${urn(type, name)}`,
    creationToken: 'pulumi-svc-000000000000000000000001',
  };
  const inputs = {
    __provider: CODE,
    ...internal,
    domain: 'example.com',
    startCpus: 1,
    notes: SECRET,
  };
  return {
    urn: urn(type, name),
    custom: true,
    id: name === 'web' ? '100' : '101',
    type: GUEST,
    inputs,
    outputs: { ...inputs, guestId: 100, accountId: 1 },
    parent,
    provider: NODEJS_REF,
    propertyDependencies: { __provider: [], domain: [], provenance: [], resourceName: [] },
  };
}

/** Two guests (one in a component), a record under the first, and someone else's dynamic resource. */
function dynamicState(): ExportedState {
  const web = dynamicGuest('web');
  const app = { urn: urn(APP, 'app'), custom: false, type: APP, parent: STACK };
  return {
    version: 3,
    deployment: {
      manifest: { version: 'v3.248.0' },
      resources: [
        { urn: STACK, custom: false, type: 'pulumi:pulumi:Stack', outputs: { ip: '1.2.3.4' } },
        {
          urn: NODEJS,
          custom: true,
          id: '1111',
          type: 'pulumi:providers:pulumi-nodejs',
          inputs: { 'svc:apiKey': SECRET, 'svc:username': 'demo', 'other:key': 'x' },
          outputs: { 'svc:apiKey': SECRET, 'svc:username': 'demo', 'other:key': 'x' },
        },
        web,
        app,
        dynamicGuest('db', app.urn),
        {
          urn: urn(`${GUEST}$${RECORD}`, 'web-a'),
          custom: true,
          id: '410',
          type: RECORD,
          inputs: { __provider: CODE, host: 'web', data: '1.2.3.4' },
          outputs: { __provider: CODE, host: 'web', data: '1.2.3.4', recordId: 410 },
          parent: web.urn,
          dependencies: [web.urn],
          provider: NODEJS_REF,
          propertyDependencies: { __provider: [], host: [web.urn], data: [web.urn] },
          protect: true,
        },
        {
          urn: urn('pulumi-nodejs:dynamic:Resource', 'mine'),
          custom: true,
          id: 'mine',
          type: 'pulumi-nodejs:dynamic:Resource',
          inputs: { __provider: 'their code' },
          parent: STACK,
          provider: NODEJS_REF,
          dependencies: [web.urn],
        },
      ],
    },
  };
}

const find = (state: ExportedState, name: string) =>
  state.deployment.resources!.find((r) => r.urn.endsWith(`::${name}`))!;
const pluginProvider = (state: ExportedState, name = 'default') =>
  state.deployment.resources!.find((r) => r.urn === urn('pulumi:providers:svc', name))!;

describe('pulumi-svc migrate: the state rewritten for the plugin', () => {
  it('moves types, URNs (type chains included) and every reference; ids and secrets are kept', () => {
    const before = dynamicState();
    const { state, moved, provider, droppedProviders } = migrateState(before, {
      backend: 'file:///b',
    });
    assert.deepEqual(
      moved.map((m) => [m.kind, m.name, m.id, m.to]),
      [
        ['VirtualGuest', 'web', '100', urn('svc:index:VirtualGuest', 'web')],
        ['VirtualGuest', 'db', '101', urn(`${APP}$svc:index:VirtualGuest`, 'db')],
        ['DnsRecord', 'web-a', '410', urn('svc:index:VirtualGuest$svc:index:DnsRecord', 'web-a')],
      ],
    );
    const web = find(state, 'web');
    const record = find(state, 'web-a');
    assert.equal(web.type, 'svc:index:VirtualGuest');
    assert.equal(record.parent, web.urn);
    assert.deepEqual(record.dependencies, [web.urn]);
    assert.deepEqual(record.propertyDependencies, { host: [web.urn], data: [web.urn] });
    assert.equal(record.protect, true);
    assert.equal(find(state, 'db').parent, urn(APP, 'app'), 'a component parent stays');
    assert.deepEqual(find(state, 'mine').dependencies, [web.urn], "others' references follow");

    // The plugin's default provider: the stack's svc:* config, the secret as its ciphertext.
    assert.deepEqual(provider, {
      urn: urn('pulumi:providers:svc', 'default'),
      version: undefined,
      added: true,
    });
    const plugin = pluginProvider(state);
    assert.equal(plugin.type, 'pulumi:providers:svc');
    assert.deepEqual(plugin.inputs, { apiKey: SECRET, username: 'demo' });
    assert.equal(web.provider, `${plugin.urn}::${plugin.id}`);
    const order = state.deployment.resources!.map((r) => r.urn);
    assert.ok(order.indexOf(plugin.urn) < order.indexOf(web.urn), 'the provider comes first');
    assert.deepEqual(droppedProviders, [], "the pulumi-nodejs provider stays: 'mine' uses it");
    assert.equal(find(state, 'mine').provider, NODEJS_REF);

    // No code; the internal inputs as the plugin derives them from the URN.
    assert.doesNotMatch(JSON.stringify([web, record, find(state, 'db')]), /__provider/);
    const provenance = `plugin/${web.urn}`;
    assert.deepEqual(
      [web.inputs!.provenance, web.inputs!.identity, web.inputs!.resourceName],
      [provenance, 'app/dev/web', 'web'],
    );
    assert.equal(web.inputs!.creationToken, creationToken({ provenance }, 'file:///b'));
    assert.equal(
      web.outputs!.creationToken,
      'pulumi-svc-000000000000000000000001',
      'the tag ordered with',
    );
    assert.equal(web.outputs!.provenance, provenance);
    assert.deepEqual(web.propertyDependencies, { domain: [] });
    assert.equal(web.inputs!.notes, SECRET);
    assert.equal(web.outputs!.notes, SECRET);
    assert.equal(web.id, '100');
    assert.deepEqual(before, dynamicState(), 'the input state is not modified');
  });

  it('drops a pulumi-nodejs provider nothing uses any more; a migrated stack is left as it is', () => {
    const mixed = dynamicState();
    mixed.deployment.resources = mixed.deployment.resources!.filter(
      (r) => !r.urn.endsWith('::mine'),
    );
    const { state, droppedProviders } = migrateState(mixed);
    assert.deepEqual(droppedProviders, [NODEJS]);
    assert.doesNotMatch(JSON.stringify(state), /pulumi-nodejs/);
    const again = migrateState(state);
    assert.deepEqual(again.moved, []);
    assert.equal(again.state, state);
  });

  it('names the default provider as the engine does for the version the program asks for', () => {
    assert.equal(defaultProviderName(), 'default');
    assert.equal(defaultProviderName('v0.1.0'), 'default_0_1_0');
    assert.equal(defaultProviderName('1.0.0-alpha.1+b5'), 'default_1_0_0_alpha_1_b5');
    const { state } = migrateState(dynamicState(), { providerVersion: '0.1.0' });
    const plugin = pluginProvider(state, 'default_0_1_0');
    assert.deepEqual(plugin.inputs, {
      __internal: {},
      apiKey: SECRET,
      username: 'demo',
      version: '0.1.0',
    });
    assert.deepEqual(plugin.outputs, { apiKey: SECRET, username: 'demo', version: '0.1.0' });
    const moved = migrateState(dynamicState(), { config: { 'svc:movedToPlugin': 'true' } });
    assert.equal(pluginProvider(moved.state).inputs!.movedToPlugin, 'true', 'config set with it');
    assert.throws(
      () => migrateState(dynamicState(), { providerVersion: 'latest' }),
      /not a semantic version/,
    );
  });

  it('reuses the default plugin provider a stack already has', () => {
    const half = migrateState(dynamicState()).state;
    const plugin = pluginProvider(half);
    const more = dynamicState();
    more.deployment.resources = [
      ...half.deployment.resources!,
      { ...dynamicGuest('api'), id: '102' },
    ];
    const { state, provider } = migrateState(more);
    assert.equal(provider?.added, false);
    assert.equal(find(state, 'api').provider, `${plugin.urn}::${plugin.id}`);
    assert.equal(
      state.deployment.resources!.filter((r) => r.type === 'pulumi:providers:svc').length,
      1,
    );
  });

  it('refuses, naming every problem, a stack with pending operations, unknown kinds or its own provider', () => {
    const state = dynamicState();
    const web = find(state, 'web');
    state.deployment.pending_operations = [{ type: 'creating', resource: { urn: web.urn } }];
    state.deployment.resources!.push(
      {
        ...dynamicGuest('vol'),
        type: 'pulumi-nodejs:dynamic/svc:Teleporter',
        urn: urn('pulumi-nodejs:dynamic/svc:Teleporter', 'vol'),
      },
      { ...dynamicGuest('api'), provider: `${urn('pulumi:providers:pulumi-nodejs', 'mine')}::2` },
    );
    const refused = (() => {
      try {
        migrateState(state);
      } catch (err) {
        return err as MigrationRefused;
      }
      return assert.fail('migrated');
    })();
    assert.ok(refused instanceof MigrationRefused);
    assert.equal(refused.problems.length, 3);
    assert.match(
      refused.problems[0],
      /1 pending operation\(s\).*creating of .*::web.*pulumi refresh --clear-pending-creates/,
    );
    assert.match(
      refused.problems[1],
      /::vol is of type pulumi-nodejs:dynamic\/svc:Teleporter, which this version of pulumi-svc does not know/,
    );
    assert.match(refused.problems[2], /::api uses the provider .*::mine::2/);
    assert.throws(() => migrateState({ ...state, version: 2 }), /version 3/);
  });

  it('reads its options', () => {
    assert.deepEqual(parseMigrateArgs(['--stack', 'dev', '--dry-run']), {
      stack: 'dev',
      dryRun: true,
      providerVersion: undefined,
      backup: undefined,
      json: false,
    });
    assert.equal(parseMigrateArgs(['--provider-version=0.1.0']).providerVersion, '0.1.0');
    assert.throws(() => parseMigrateArgs(['--stak', 'dev']), /unknown argument --stak/);
    assert.throws(() => parseMigrateArgs(['--stack']), /--stack needs a value/);
  });
});

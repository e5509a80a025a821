import * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { delegatingProvider, type ResourceKind } from '../../provider/dynamic/delegate';
import { providerEnv, stackConfig, type Emulator } from '../support/provider-env';

type LoadedProvider = { handler(): pulumi.dynamic.ResourceProvider };
// The loader the dynamic-provider host itself uses (a dependency of @pulumi/pulumi, untyped).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFromString = require('require-from-string') as (code: string) => LoadedProvider;

/** Serializes a provider the way `pulumi.dynamic.Resource` does and loads it back as the provider process does. */
async function roundTrip(kind: ResourceKind) {
  const serialized = await pulumi.runtime.serializeFunction(() => delegatingProvider(kind), {
    allowSecrets: true,
  });
  return { text: serialized.text, provider: requireFromString(serialized.text).handler() };
}

describe('dynamic providers survive closure serialization', () => {
  let emulator: Emulator;
  before(async () => ({ emulator } = await providerEnv()));
  after(() => emulator?.close());

  for (const kind of ['VirtualGuest', 'DnsRecord', 'TicketUpdate'] as const) {
    it(`${kind}: small, no secret, loads its runtime by package name`, async () => {
      const { text } = await roundTrip(kind);
      assert.ok(text.length < 3_000, `serialized provider is ${text.length} chars`);
      assert.match(text, /require\("pulumi-svc\/runtime"\)/);
      assert.ok(!text.includes(emulator.credentials.apiKey));
      assert.ok(!/undici|saxes|Client/.test(text), 'no client code inlined');
    });
  }

  it('VirtualGuest: a reloaded provider configures, checks, creates, reads and deletes for real', async () => {
    const { provider } = await roundTrip('VirtualGuest');
    const { username, apiKey } = emulator.credentials;
    await provider.configure!({
      config: stackConfig({
        'svc:endpointUrl': emulator.url,
        'svc:username': username,
        'svc:apiKey': apiKey,
      }),
    } as never);
    const checked = await provider.check!(
      {},
      {
        resourceName: 'rt',
        identity: 'p/s/rt',
        domain: 'roundtrip.example.com',
        startCpus: 1,
        maxMemory: 1024,
        operatingSystemReferenceCode: 'UBUNTU_LATEST',
        datacenter: 'dal10',
      },
    );
    assert.deepEqual(checked.failures, []);
    const created = await provider.create(checked.inputs!);
    assert.match(created.id, /^\d+$/);
    const read = await provider.read!(created.id, created.outs);
    assert.equal(read.id, created.id);
    assert.equal((read.props as Record<string, unknown>).domain, 'roundtrip.example.com');
    await provider.delete!(created.id, created.outs);
    assert.deepEqual(await provider.read!(created.id, created.outs), {});
  });
});

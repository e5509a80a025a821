/**
 * A plain-text `svc:apiKey` in the stack config is refused before anything runs: no resource is
 * registered and no lookup reaches the API. Tested in-process through the SDK's config store,
 * which is where the language host's PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS end up.
 */
import * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DnsRecord,
  DnsZone,
  SshKey,
  TicketUpdate,
  VirtualGuest,
  getAccount,
  getDnsZone,
} from '../../resources';
import { SET_SECRET_COMMAND } from '../../resources/secret-config';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';

const calls = (emulator: Emulator) =>
  Object.values(emulator.stats().calls).reduce((sum, n) => sum + n, 0);

describe('svc:apiKey must be a secret', () => {
  let emulator: Emulator;
  before(async () => ({ emulator } = await providerEnv()));
  after(() => emulator?.close());

  const refused = (err: unknown) => {
    assert.ok(pulumi.RunError.isInstance(err), String(err));
    const message = (err as Error).message;
    assert.ok(message.includes(`\n    ${SET_SECRET_COMMAND}\n`), message);
    assert.equal(SET_SECRET_COMMAND, 'pulumi config set --secret svc:apiKey <value>');
    assert.ok(!message.includes(emulator.credentials.apiKey.slice(0, 8)), 'the key is not shown');
    return true;
  };

  it('a plain key stops every resource and lookup before any call', async () => {
    setProgramConfig(emulator, []);
    const before = calls(emulator);
    assert.throws(
      () =>
        new VirtualGuest('web', {
          domain: 'example.com',
          startCpus: 1,
          maxMemory: 1024,
          operatingSystemReferenceCode: 'UBUNTU_LATEST',
          datacenter: 'dal10',
        }),
      refused,
    );
    assert.throws(
      () =>
        new DnsRecord('a', { zoneName: 'example.com', host: 'www', type: 'A', data: '1.2.3.4' }),
      refused,
    );
    assert.throws(() => new TicketUpdate('t', { ticketId: 1, entry: 'x' }), refused);
    assert.throws(() => new DnsZone('z', { name: 'example.org' }), refused);
    assert.throws(() => new SshKey('k', { label: 'k', publicKey: 'ssh-ed25519 AAAA' }), refused);
    await assert.rejects(getAccount(), refused);
    await assert.rejects(getDnsZone({ name: 'example.com' }), refused);
    assert.equal(calls(emulator), before, 'no call reached the API');
  });

  it('the same key set as a secret is used', async () => {
    setProgramConfig(emulator);
    assert.equal((await getAccount()).companyName, emulator.accounts.demo.companyName);
  });

  it('no key in the stack config at all is fine (the environment or ~/.svc may hold it)', async () => {
    setProgramConfig(emulator, [], {
      'svc:endpointUrl': emulator.url,
      'svc:username': emulator.credentials.username,
    });
    const previous = process.env.SVC_API_KEY;
    process.env.SVC_API_KEY = emulator.credentials.apiKey;
    try {
      // The program client is made once per process; what matters here is that nothing refuses.
      assert.equal((await getAccount()).companyName, emulator.accounts.demo.companyName);
    } finally {
      if (previous === undefined) delete process.env.SVC_API_KEY;
      else process.env.SVC_API_KEY = previous;
    }
  });
});

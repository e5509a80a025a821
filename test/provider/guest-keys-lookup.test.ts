import * as pulumi from '@pulumi/pulumi';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { UNKNOWN } from '../../provider/framework/unknown';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import type { SshKey, VirtualGuest } from '../../provider/managers';
import { getVirtualGuest, getVirtualGuestOutput } from '../../resources';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';
import { answerProblems, outputProblems } from '../support/schema-types';
import { FUNCTIONS } from '../../provider/plugin/functions';
import { freshEd25519 } from '../support/ssh-keys';
import { printed } from '../support/printed';

type Bag = Record<string, unknown>;

/** cloud-init text with CRLF line ends and a base64-looking line: sent and read back as is. */
const USER_DATA = '#cloud-config\r\nwrite_files:\r\n  - content: I2Nsb3VkLWNvbmZpZwo=\r\n';

describe('VirtualGuest with SSH keys, user data and tags; getVirtualGuest', () => {
  let emulator: Emulator;
  let client: Client;
  let keys: SshKey[];
  let id = '';
  let outs: Bag = {};
  let checked: Bag = {};

  before(async () => {
    ({ emulator, client } = await providerEnv(200));
    setProgramConfig(emulator);
    keys = [];
    for (const label of ['a', 'b']) {
      keys.push(
        (await client.call('Security_Ssh_Key', 'createObject', {
          args: [{ label, key: freshEd25519() }],
        })) as SshKey,
      );
    }
  });
  after(() => emulator?.close());

  const declared = (): Bag => ({
    resourceName: 'keyed',
    identity: 'proj/dev/keyed',
    hostname: 'keyed',
    domain: 'keys.example.com',
    startCpus: 1,
    maxMemory: 2048,
    operatingSystemReferenceCode: 'UBUNTU_LATEST',
    datacenter: 'dal10',
    networkSpeed: 100,
    // An SshKey's id is a string; ids come in any order and may repeat.
    sshKeyIds: [String(keys[1].id), keys[0].id, keys[1].id],
    userData: USER_DATA,
    tags: ['Web', ' DB ', 'web'],
  });

  it('check takes key ids as numbers or strings, in any order, and tags as the API stores them', async () => {
    const result = await provider.check({}, declared());
    assert.deepEqual(result.failures, []);
    checked = result.inputs as Bag;
    assert.deepEqual(checked.sshKeyIds, [keys[0].id, keys[1].id]);
    assert.deepEqual(checked.tags, ['db', 'web']);
    assert.equal(checked.userData, USER_DATA, 'user data untouched');
    const empty = (await provider.check({}, { ...declared(), userData: '' })).inputs as Bag;
    assert.equal('userData' in empty, false, 'empty user data is no user data');
    // In a preview the key made by the same program is not known yet: the guest is still priced.
    const preview = await provider.check({}, { ...declared(), sshKeyIds: [UNKNOWN] });
    assert.deepEqual(preview.failures, []);
    assert.equal((preview.inputs as Bag).estimatedHourlyCost, checked.estimatedHourlyCost);
    assert.equal(
      (preview.inputs as Bag).creationToken,
      undefined,
      'no token until the order is known',
    );
    const bad = await provider.check({}, { ...declared(), sshKeyIds: ['abc', 0] });
    assert.deepEqual(
      (bad.failures ?? []).map((f) => [f.property, f.reason]),
      [['sshKeyIds', 'sshKeyIds[0] must be an integer id of at least 1, got "abc" (a string)']],
      'one failure for the field, naming the first bad item',
    );
  });

  it('the guest is ordered with its keys and user data, and reads back with no diff', async () => {
    ({ id, outs } = (await provider.create(checked)) as { id: string; outs: Bag });
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: 'sshKeys.id,userData.value,tagReferences.tag.name',
    })) as VirtualGuest;
    assert.deepEqual(
      guest.sshKeys?.map((k) => k.id),
      [keys[1].id, keys[0].id].sort((a, b) => a - b),
    );
    assert.equal(guest.userData?.[0].value, USER_DATA, 'stored exactly');
    const read = (await provider.read(id, outs)).props as Bag;
    for (const field of ['userData', 'sshKeyIds', 'tags'])
      assert.deepEqual(read[field], outs[field], field);
    const again = (await provider.check(read, declared())).inputs as Bag;
    assert.equal((await provider.diff(id, read, again)).changes, false, 'no perpetual diff');
  });

  it("the outputs of a real guest, as created and as read, are of the plugin schema's types", async () => {
    // What an SDK decodes: a type the provider does not return fails there (sshKeyIds as strings).
    assert.deepEqual(outputProblems('VirtualGuest', outs), []);
    assert.deepEqual(
      outputProblems('VirtualGuest', (await provider.read(id, outs)).props as Bag),
      [],
    );
    assert.ok((outs.sshKeyIds as unknown[]).length === 2, 'the keys are among what is checked');
  });

  it('new user data replaces the guest, and the plan says why', async () => {
    const next = { ...checked, userData: `${USER_DATA}runcmd: [reboot]\n` };
    const { result, lines } = await printed(() => provider.diff(id, outs, next));
    assert.deepEqual(result.replaces, ['userData']);
    assert.match(lines, /BILLING replace VirtualGuest "keyed" \(changed: userData\)/);
    assert.match(
      lines,
      /VirtualGuest "keyed" is replaced because userData changed: cloud-init runs user data only on the first boot/,
    );
    const keysChanged = await provider.diff(id, outs, { ...checked, sshKeyIds: [keys[0].id] });
    assert.deepEqual(keysChanged.replaces, ['sshKeyIds']);
  });

  it('getVirtualGuest by id and by hostname and domain returns the resource outputs', async () => {
    const byId = await getVirtualGuest({ id });
    const byName = await getVirtualGuest({ hostname: 'KEYED', domain: 'keys.example.com' });
    assert.deepEqual(byName, byId);
    // The lookup answers the API's integer id (the resource's Pulumi id is its string form).
    assert.equal(byId.id, Number(id));
    // The plugin's function answers the same guest, typed as its schema says.
    const served = (await FUNCTIONS.getVirtualGuest.answer(client, { id: Number(id) })) as Bag;
    assert.deepEqual(answerProblems('getVirtualGuest', served), []);
    assert.deepEqual(served.sshKeyIds, byId.sshKeyIds);
    assert.equal(served.estimatedMonthlyCost, byId.estimatedMonthlyCost);
    for (const field of [
      'guestId',
      'hostname',
      'domain',
      'startCpus',
      'maxMemory',
      'hourlyBillingFlag',
      'localDiskFlag',
      'datacenter',
      'networkSpeed',
      'privateNetworkOnly',
      'tags',
      'userData',
      'sshKeyIds',
      'fullyQualifiedDomainName',
      'primaryIpAddress',
      'primaryBackendIpAddress',
      'provisionDate',
      'powerState',
      'globalIdentifier',
      'status',
      'estimatedHourlyCost',
      'estimatedMonthlyCost',
    ]) {
      assert.deepEqual(byId[field as keyof typeof byId], outs[field], field);
    }
    assert.match(byId.operatingSystemReferenceCode ?? '', /^UBUNTU_/);
    const viaOutput = getVirtualGuestOutput({ id: pulumi.output(Number(id)) });
    assert.equal(await new Promise((resolve) => viaOutput.guestId.apply(resolve)), Number(id));
  });

  it('several guests of that name: an error listing them, or the newest with mostRecent', async () => {
    const second = (await provider.create({
      ...checked,
      identity: 'proj/dev/keyed-2',
      creationToken: undefined,
    })) as { id: string };
    await assert.rejects(
      getVirtualGuest({ hostname: 'keyed', domain: 'keys.example.com' }),
      new RegExp(
        `2 guests are named keyed\\.keys\\.example\\.com: ${second.id} \\(created .*dal10\\), ${id} \\(created .*; pass mostRecent: true`,
      ),
    );
    const newest = await getVirtualGuest({
      hostname: 'keyed',
      domain: 'keys.example.com',
      mostRecent: true,
    });
    assert.equal(newest.id, Number(second.id));
  });

  it('getVirtualGuest names bad arguments and a missing guest', async () => {
    await assert.rejects(getVirtualGuest({}), /give either id, or hostname and domain/);
    await assert.rejects(
      getVirtualGuest({ id: 5, hostname: 'x', domain: 'y.z' }),
      /give either id, or hostname and domain/,
    );
    await assert.rejects(getVirtualGuest({ id: 'abc' }), /id must be a guest's numeric id/);
    await assert.rejects(getVirtualGuest({ hostname: 'x' }), /domain is required/);
    await assert.rejects(
      getVirtualGuest({ id: 999999 }),
      /the account has no guest with id 999999/,
    );
    await assert.rejects(
      getVirtualGuest({ hostname: 'nobody', domain: 'keys.example.com' }),
      /the account has no guest nobody\.keys\.example\.com/,
    );
  });
});

import assert from 'node:assert/strict';
import type { VirtualGuest } from '../../provider/managers';
import { KEY_VECTORS } from '../support/ssh-keys';
import type { CliFixture } from './cli';

/**
 * One program per language on the plugin sets every kind of property a resource takes and reads
 * a typed lookup result back: a string, integers, booleans (a monthly guest), a list of integers
 * (`sshKeyIds` from an `SshKey`'s `keyId`), a list of strings (`tags`), a secret (`userData`),
 * an enum (`onImageChange`), and `getVirtualGuest` by the guest's integer id. The values are these;
 * `assertPropertyKinds` checks the emulator's objects, the stack's outputs and its state.
 * The TypeScript and YAML programs are the examples typescript-sdk and yaml-guest.
 */
export const KINDS_VALUES = {
  publicKey: KEY_VECTORS.ed25519.key,
  hostname: 'web',
  startCpus: 2,
  maxMemory: 2048,
  userData: '#!/bin/sh\necho hello\n',
};

/** The stack config of a property program (its project name is `project`). */
export const kindsConfig = (project: string, language: string) => ({
  [`${project}:publicKey`]: { value: KINDS_VALUES.publicKey },
  [`${project}:tag`]: { value: `kinds-${language}` },
});

const SECRET_SIG = '4dabf18193072939515e22adb298388d';

/** Up, then the world and the outputs as the program declared them, then destroy. */
export async function assertPropertyKinds(f: CliFixture, language: string): Promise<void> {
  const tag = `kinds-${language}`;
  await f.stack.up();
  const [listed, ...others] = await f.guests((g) => g.hostname === KINDS_VALUES.hostname);
  assert.equal(others.length, 0, 'one guest ordered');
  const guest = (await f.client.call('Virtual_Guest', 'getObject', {
    id: listed.id,
    mask: 'id,startCpus,maxMemory,hourlyBillingFlag,sshKeys.id,userData.value,tagReferences.tag.name',
  })) as VirtualGuest & { userData?: { value: string }[] };
  const [key] = (await f.client.call('Account', 'getSshKeys', { mask: 'id,key' })) as {
    id: number;
    key: string;
  }[];
  assert.equal(key.key, KINDS_VALUES.publicKey);
  assert.equal(guest.startCpus, KINDS_VALUES.startCpus);
  assert.equal(guest.maxMemory, KINDS_VALUES.maxMemory);
  assert.equal(guest.hourlyBillingFlag, false, 'a monthly guest');
  assert.deepEqual(
    guest.sshKeys?.map((k) => k.id),
    [key.id],
  );
  assert.equal(guest.userData?.[0]?.value, KINDS_VALUES.userData);
  // The program's tags, beside the provider's own (ownership, creation token).
  const tags = guest.tagReferences?.map((t) => t.tag?.name ?? '') ?? [];
  assert.deepEqual(tags.filter((t) => !t.startsWith('pulumi-svc-')).sort(), ['kinds', tag].sort());

  const outputs = await f.stack.outputs();
  assert.equal(outputs.guestId, guest.id);
  assert.equal(outputs.keyId, key.id);
  assert.equal(outputs.userData, '[secret]', 'a secret input stays a secret output');
  // The typed getVirtualGuest result, read by the guest's integer id.
  assert.equal(outputs.foundId, guest.id);
  assert.equal(outputs.foundHostname, KINDS_VALUES.hostname);
  assert.equal(outputs.foundCpus, KINDS_VALUES.startCpus);
  assert.equal(outputs.foundHourly, false);
  assert.deepEqual(outputs.foundKeyIds, [key.id]);
  assert.deepEqual(outputs.foundTags, ['kinds', tag].sort());
  assert.ok((outputs.foundMonthlyCost as number) > 0, 'a monthly cost');
  assert.equal(outputs.onImageChange, 'reload');

  // The state holds the user data encrypted, nowhere in plain text.
  const resources = await f.stack.resources();
  const stored = resources.find((r) => r.type === 'svc:index:VirtualGuest');
  assert.equal(
    (stored?.outputs?.userData as Record<string, string>)[SECRET_SIG],
    '1b47061264138c4ac30d75fd1eb44270',
  );
  assert.doesNotMatch(JSON.stringify(resources), /echo hello/);

  await f.stack.destroy();
  assert.deepEqual(await f.guests((g) => g.hostname === KINDS_VALUES.hostname), []);
  assert.deepEqual(await f.client.call('Account', 'getSshKeys', { mask: 'id' }), []);
}

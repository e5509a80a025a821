import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { SshKeyManager, type VirtualGuest } from '../../provider/managers';
import { freshEd25519 } from '../support/ssh-keys';
import { providerEnv, type Emulator } from '../support/provider-env';

type Bag = Record<string, unknown>;

const declared: Bag = {
  resourceName: 'app',
  identity: 'proj/dev/app',
  domain: 'reload.example.com',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'DEBIAN_12_64',
  datacenter: 'dal10',
  userData: '#cloud-config\n',
  onImageChange: 'reload',
};

const MASK =
  'id,operatingSystemReferenceCode,sshKeys.id,userData.value,primaryIpAddress,billingItem.id,activeTransaction.id';

// `onImageChange: reload`: an OS, user data or SSH key change reinstalls the guest in place
// (Virtual_Guest.reloadOperatingSystem) instead of replacing it, once, and waits for it.
describe('VirtualGuest onImageChange: reload', () => {
  let emulator: Emulator;
  let client: Client;
  let id = '';
  let outs: Bag = {};
  let original: VirtualGuest;
  before(async () => {
    ({ emulator, client } = await providerEnv(300));
    const checked = await provider.check({}, declared);
    const made = await provider.create(checked.inputs as Bag);
    [id, outs] = [made.id, made.outs as Bag];
    original = await guest();
  });
  after(() => emulator?.close());

  const guest = async () =>
    (await client.call('Virtual_Guest', 'getObject', {
      id: Number(id),
      mask: MASK,
    })) as VirtualGuest;
  const calls = (method: string) => emulator.stats().calls[method] ?? 0;
  const checkedAgainst = async (news: Bag) => {
    const checked = await provider.check(outs, news);
    assert.deepEqual(checked.failures, []);
    return checked.inputs as Bag;
  };

  it('left out, onImageChange is not stored: a state from before it existed shows no change', async () => {
    const { onImageChange: _reload, ...program } = declared;
    const { inputs } = await provider.check({}, program);
    assert.equal('onImageChange' in (inputs as Bag), false);
    const { onImageChange: _stored, ...before } = inputs as Bag;
    assert.equal((await provider.diff('1', before, inputs as Bag)).changes, false);
  });

  it('check refuses a wrong onImageChange, naming the field and the rule', async () => {
    const { failures } = await provider.check({}, { ...declared, onImageChange: 'rebuild' });
    assert.match(
      failures?.map((f) => `${f.property}: ${f.reason}`).join() ?? '',
      /onImageChange.*replace or reload/,
    );
  });

  it('diff: an OS, user data or key change is an update in place, never a replace; replace stays the default', async () => {
    const news = await checkedAgainst({
      ...declared,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
    });
    const diff = await provider.diff(id, outs, news);
    assert.deepEqual(diff.replaces ?? [], []);
    assert.notEqual(diff.changes, false);
    const replaced = await provider.diff(id, outs, { ...news, onImageChange: 'replace' });
    assert.deepEqual(replaced.replaces, ['operatingSystemReferenceCode']);
    const moved = await provider.diff(id, outs, { ...news, datacenter: 'wdc07' });
    assert.deepEqual(
      [...(moved.replaces ?? [])].sort(),
      ['datacenter', 'operatingSystemReferenceCode'],
      'another replacing change still replaces',
    );
  });

  it('check refuses a reload to an OS priced otherwise (the bill is kept), before any write', async () => {
    const writes = calls('Virtual_Guest.reloadOperatingSystem');
    const { failures } = await provider.check(outs, {
      ...declared,
      operatingSystemReferenceCode: 'REDHAT_9_64',
    });
    assert.match(failures?.[0]?.reason ?? '', /changes the price .* set onImageChange: replace/);
    assert.equal(calls('Virtual_Guest.reloadOperatingSystem'), writes);
  });

  it('update reloads once: new OS, keys and user data; same id, addresses and billing item', async () => {
    const key = await new SshKeyManager(client).createKey({ label: 'reload', key: freshEd25519() });
    const news = await checkedAgainst({
      ...declared,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      userData: '#cloud-config\nruncmd: [echo new]\n',
      sshKeyIds: [key.id],
    });
    const result = await provider.update(id, outs, news);
    outs = result.outs as Bag;
    const now = await guest();
    assert.equal(calls('Virtual_Guest.reloadOperatingSystem'), 1);
    assert.equal(calls('Virtual_Guest.createObject'), 1, 'no second order');
    assert.equal(now.operatingSystemReferenceCode, 'UBUNTU_24_64');
    assert.deepEqual(
      now.sshKeys?.map((k) => k.id),
      [key.id],
    );
    assert.equal(now.userData?.[0]?.value, '#cloud-config\nruncmd: [echo new]\n');
    assert.equal(now.activeTransaction, undefined, 'the reload is waited for');
    assert.deepEqual(
      [now.id, now.primaryIpAddress, now.billingItem?.id],
      [original.id, original.primaryIpAddress, original.billingItem?.id],
    );
    assert.equal(typeof outs.osReloadId, 'number');
    // The same inputs again: nothing to reload.
    await provider.update(id, outs, news);
    assert.equal(calls('Virtual_Guest.reloadOperatingSystem'), 1);
  });

  it('a reload whose answer is lost is found by its transaction, never sent twice', async () => {
    const news = await checkedAgainst({
      ...declared,
      operatingSystemReferenceCode: 'DEBIAN_11_64',
      userData: 'two',
    });
    const sent = calls('Virtual_Guest.reloadOperatingSystem');
    emulator.setFaults({
      once: { service: 'Virtual_Guest', method: 'reloadOperatingSystem', fault: 'lose-response' },
    });
    outs = (await provider.update(id, outs, news)).outs as Bag;
    assert.equal(calls('Virtual_Guest.reloadOperatingSystem') - sent, 1);
    assert.equal((await guest()).operatingSystemReferenceCode, 'DEBIAN_11_64');
  });

  it('a run that died after its reload landed: the next one sees it and sends nothing', async () => {
    const stale = { ...outs };
    const news = await checkedAgainst({
      ...declared,
      operatingSystemReferenceCode: 'DEBIAN_11_64',
      userData: 'three',
    });
    await provider.update(id, stale, news);
    const sent = calls('Virtual_Guest.reloadOperatingSystem');
    // The state still holds the inputs from before that reload (its answer never reached it).
    await provider.update(id, stale, news);
    assert.equal(
      calls('Virtual_Guest.reloadOperatingSystem'),
      sent,
      'a user-data reload that landed is not repeated',
    );
  });

  it('a guest made from an image template, another template declared: reloaded in place from it (by its id), and back to an OS code', async () => {
    const templates = (await client.call(
      'Virtual_Guest_Block_Device_Template_Group',
      'getPublicImages',
      {
        mask: 'id,globalIdentifier,name',
      },
    )) as { id: number; globalIdentifier: string; name: string }[];
    const [ubuntu, debian] = ['Ubuntu', 'Debian'].map((name) =>
      templates.find((t) => t.name.startsWith(name))!,
    );
    const { operatingSystemReferenceCode: _os, ...stock } = declared;
    const program = { ...stock, resourceName: 'tpl', identity: 'proj/dev/tpl' };
    const first = await provider.check(
      {},
      { ...program, imageTemplateId: ubuntu.globalIdentifier },
    );
    const made = await provider.create(first.inputs as Bag);
    const read = async () =>
      (await client.call('Virtual_Guest', 'getObject', {
        id: Number(made.id),
        mask: 'id,operatingSystemReferenceCode,blockDeviceTemplateGroup.globalIdentifier,billingItem.id',
      })) as VirtualGuest & { billingItem: { id: number } };
    const before = await read();
    assert.equal(before.blockDeviceTemplateGroup?.globalIdentifier, ubuntu.globalIdentifier);

    const checked = await provider.check(made.outs as Bag, {
      ...program,
      imageTemplateId: debian.globalIdentifier,
    });
    assert.deepEqual(checked.failures, []);
    const news = checked.inputs as Bag;
    const diff = await provider.diff(made.id, made.outs as Bag, news);
    assert.deepEqual(diff.replaces ?? [], [], 'reloaded, not replaced');
    assert.notEqual(diff.changes, false);
    const replaced = await provider.diff(made.id, made.outs as Bag, {
      ...news,
      onImageChange: 'replace',
    });
    assert.deepEqual(replaced.replaces, ['imageTemplateId'], 'replace stays the default');
    const sent = calls('Virtual_Guest.reloadOperatingSystem');
    const updated = await provider.update(made.id, made.outs as Bag, news);
    assert.equal(calls('Virtual_Guest.reloadOperatingSystem'), sent + 1, 'one reload');
    const after = await read();
    assert.equal(after.id, before.id, 'the same guest');
    assert.equal(after.billingItem.id, before.billingItem.id, 'the same bill');
    assert.equal(after.blockDeviceTemplateGroup?.globalIdentifier, debian.globalIdentifier);
    assert.match(String(after.operatingSystemReferenceCode), /^DEBIAN_12/);
    assert.equal(updated.outs!.imageTemplateId, debian.globalIdentifier);

    // From the template to an OS code: a stock OS again, still in place.
    const stockOs = await provider.check(updated.outs as Bag, {
      ...program,
      operatingSystemReferenceCode: 'DEBIAN_12_64',
    });
    assert.deepEqual(stockOs.failures, []);
    assert.deepEqual(
      (await provider.diff(made.id, updated.outs as Bag, stockOs.inputs as Bag)).replaces ?? [],
      [],
    );
    await provider.update(made.id, updated.outs as Bag, stockOs.inputs as Bag);
    const last = await read();
    assert.equal(last.id, before.id);
    assert.equal(last.blockDeviceTemplateGroup?.globalIdentifier ?? undefined, undefined);
  });
});

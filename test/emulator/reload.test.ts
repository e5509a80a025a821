/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshEd25519 } from '../support/ssh-keys';
import { createGuest, sleep, useEmulator } from '../support/emulator-harness';

const DELAY = 1500;
const h = useEmulator({ provisioningDelayMs: DELAY });

const MASK =
  'mask[id, operatingSystemReferenceCode, sshKeys.id, userData.value, primaryIpAddress, primaryBackendIpAddress, ' +
  'billingItem.id, notes, tagReferences.tag.name, provisionDate, powerState.keyName, ' +
  'activeTransaction[id, transactionStatus.name], lastOperatingSystemReload.id]';

async function osPriceId(code: string): Promise<number> {
  const options = await h.demo.call<any>('Virtual_Guest', 'getCreateObjectOptions', {});
  const option = options.operatingSystems.find(
    (o: any) => o.template.operatingSystemReferenceCode === code,
  );
  return option.itemPrice.id;
}

describe('Virtual_Guest.reloadOperatingSystem', () => {
  it('reinstalls in place: a transaction like provisioning, then the new OS and keys; id, addresses, bill, tags and user data kept', async () => {
    const key = await h.demo.call<any>('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'reload', key: freshEd25519('reload@svc') }],
    });
    const made = await createGuest(h.demo, {
      hostname: 'reload',
      operatingSystemReferenceCode: 'DEBIAN_12_64',
      notes: 'keep',
      tagReferences: [{ tag: { name: 'keep' } }],
    });
    await sleep(DELAY + 50);
    const before = await h.demo.call<any>('Virtual_Guest', 'getObject', {
      id: made.id,
      mask: MASK,
    });
    assert.equal(before.activeTransaction, undefined);

    await h.demo.call('Virtual_Guest', 'setUserMetadata', { id: made.id, args: [['#new']] });
    const answer = await h.demo.call('Virtual_Guest', 'reloadOperatingSystem', {
      id: made.id,
      args: [
        'FORCE',
        { itemPrices: [{ id: await osPriceId('UBUNTU_LATEST') }], sshKeyIds: [key.id] },
      ],
    });
    assert.equal(answer, 'OK');
    const during = await h.demo.call<any>('Virtual_Guest', 'getObject', {
      id: made.id,
      mask: MASK,
    });
    assert.equal(during.activeTransaction.transactionStatus.name, 'RELOAD_OPERATING_SYSTEM');
    assert.equal(during.lastOperatingSystemReload.id, during.activeTransaction.id);
    assert.equal(during.powerState.keyName, 'HALTED');
    assert.equal(
      during.operatingSystemReferenceCode,
      'DEBIAN_12_64',
      'the old OS until it is done',
    );
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'reloadOperatingSystem', { id: made.id, args: ['FORCE', {}] }),
      /has an active transaction \(RELOAD_OPERATING_SYSTEM\)/,
    );
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'deleteObject', { id: made.id }),
      /active transaction/,
    );

    await sleep(DELAY + 50);
    const after = await h.demo.call<any>('Virtual_Guest', 'getObject', { id: made.id, mask: MASK });
    assert.equal(after.activeTransaction, undefined);
    assert.equal(
      after.operatingSystemReferenceCode,
      'UBUNTU_24_64',
      'LATEST resolves as on an order',
    );
    assert.deepEqual(
      after.sshKeys.map((k: any) => k.id),
      [key.id],
    );
    assert.equal(after.lastOperatingSystemReload.id, during.activeTransaction.id);
    for (const kept of [
      'id',
      'primaryIpAddress',
      'primaryBackendIpAddress',
      'billingItem',
      'notes',
      'tagReferences',
      'provisionDate',
    ])
      assert.deepEqual(after[kept], before[kept], `${kept} is kept`);
    assert.deepEqual(after.userData, [{ value: '#new' }]);
    assert.equal(after.powerState.keyName, 'RUNNING');
  });

  it('reinstalls from an image template (config.imageTemplateId, its id): the guest runs its OS and shows it; an OS price makes it stock again', async () => {
    const images = await h.demo.call<any[]>(
      'Virtual_Guest_Block_Device_Template_Group',
      'getPublicImages',
      { mask: 'mask[id,globalIdentifier,name]' },
    );
    const debian = images.find((i) => i.name.startsWith('Debian'));
    const made = await createGuest(h.demo, {
      hostname: 'from-image',
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
    });
    await sleep(DELAY + 50);
    const both = await h.demo.callRaw('Virtual_Guest', 'reloadOperatingSystem', {
      id: made.id,
      args: [
        'FORCE',
        { imageTemplateId: debian.id, itemPrices: [{ id: await osPriceId('UBUNTU_LATEST') }] },
      ],
    });
    assert.match(
      String(both.fault?.faultString),
      /itemPrices .* or config.imageTemplateId, not both/,
    );
    const unknown = await h.demo.callRaw('Virtual_Guest', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE', { imageTemplateId: 999 }],
    });
    assert.match(
      String(unknown.fault?.faultString),
      /config.imageTemplateId.*no image template 999/,
    );
    const shown = () =>
      h.demo.call<any>('Virtual_Guest', 'getObject', {
        id: made.id,
        mask: 'mask[operatingSystemReferenceCode,blockDeviceTemplateGroup.globalIdentifier]',
      });
    await h.demo.call('Virtual_Guest', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE', { imageTemplateId: debian.id }],
    });
    assert.equal((await shown()).blockDeviceTemplateGroup, undefined, 'not until it is done');
    await sleep(DELAY + 50);
    const fromImage = await shown();
    assert.equal(fromImage.blockDeviceTemplateGroup.globalIdentifier, debian.globalIdentifier);
    assert.match(fromImage.operatingSystemReferenceCode, /^DEBIAN_12/);
    await h.demo.call('Virtual_Guest', 'reloadOperatingSystem', {
      id: made.id,
      args: ['FORCE', { itemPrices: [{ id: await osPriceId('UBUNTU_LATEST') }] }],
    });
    await sleep(DELAY + 50);
    const stock = await shown();
    assert.equal(stock.blockDeviceTemplateGroup, undefined);
    assert.match(stock.operatingSystemReferenceCode, /^UBUNTU/);
  });

  it('refuses what it cannot do, naming it', async () => {
    const made = await createGuest(h.demo, { hostname: 'refuse' });
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'reloadOperatingSystem', { id: made.id, args: ['FORCE'] }),
      /active transaction/,
      'still provisioning',
    );
    await sleep(DELAY + 50);
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'reloadOperatingSystem', { id: made.id, args: ['yes'] }),
      /pass 'FORCE'/,
    );
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'reloadOperatingSystem', {
        id: made.id,
        args: ['FORCE', { itemPrices: [{ id: 1 }] }],
      }),
      /not an operating system price/,
    );
    await assert.rejects(
      h.demo.call('Virtual_Guest', 'reloadOperatingSystem', {
        id: made.id,
        args: ['FORCE', { hostname: 'renamed' }],
      }),
      /config.hostname is not supported/,
    );
  });
});

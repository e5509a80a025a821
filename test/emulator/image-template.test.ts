/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { createGuest, freshAccount, sleep, useEmulator } from '../support/emulator-harness';

const h = useEmulator({ provisioningDelayMs: 1500 });
type Row = Record<string, any>;
const TEMPLATE_GROUP = 'Virtual_Guest_Block_Device_Template_Group';

/** Waits until `read` answers something `done` accepts. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await sleep(100);
  }
}

const fault = async (client: EmulatorClient, service: string, method: string, options: any) => {
  const res = await client.callRaw(service, method, options);
  assert.ok(res.fault, `${service}.${method} is refused`);
  return res.fault;
};

const idleGuest = async (client: EmulatorClient, over: Record<string, unknown> = {}) => {
  const guest = await createGuest(client, {
    operatingSystemReferenceCode: 'DEBIAN_12_64',
    ...over,
  });
  return until(
    () =>
      client.call<Row>('Virtual_Guest', 'getObject', {
        id: guest.id,
        mask: 'mask[id,activeTransactionCount,blockDevices[id,device]]',
      }),
    (g) => g.activeTransactionCount === 0,
  );
};

const image = (client: EmulatorClient, id: number) =>
  client.call<Row>(TEMPLATE_GROUP, 'getObject', {
    id,
    mask: 'mask[id,name,note,globalIdentifier,status.keyName,datacenters.name,transaction.transactionStatus.name]',
  });

/** Captures the guest's boot disk; answers the template once its capture is done. */
async function captured(client: EmulatorClient, name: string) {
  const guest = await idleGuest(client);
  const boot = guest.blockDevices.find((d: Row) => d.device === '0');
  const swap = guest.blockDevices.find((d: Row) => d.device === '1');
  const noSwap = await fault(client, 'Virtual_Guest', 'createArchiveTransaction', {
    id: guest.id,
    args: [name, [{ id: swap.id }], 'n'],
  });
  assert.match(noSwap.faultString, /blockDevices\[0\]\.id/);
  const transaction = await client.call<Row>('Virtual_Guest', 'createArchiveTransaction', {
    id: guest.id,
    args: [name, [{ id: boot.id }], 'captured by a test'],
    mask: 'mask[id,transactionStatus.name]',
  });
  assert.equal(transaction.transactionStatus.name, 'CLOUD_CREATE_ARCHIVE');
  const [template] = await client.call<Row[]>('Account', 'getPrivateBlockDeviceTemplateGroups', {
    mask: 'mask[id,name,globalIdentifier,status.keyName]',
    filter: { privateBlockDeviceTemplateGroups: { name: { operation: name } } },
  });
  return { guest, template };
}

describe('Virtual_Guest_Block_Device_Template_Group', () => {
  it('captures a guest into a private template; guests are ordered from it where it is available', async () => {
    const client = await freshAccount(h.emu);
    const { template } = await captured(client, 'base-1');
    assert.equal(template.status.keyName, 'CREATING');
    const early = await fault(client, 'Virtual_Guest', 'createObject', {
      args: [{ ...guestFrom(template), hostname: 'early' }],
    });
    assert.match(early.faultString, /still being captured/);
    const ready = await until(
      () => image(client, template.id),
      (t) => t.status.keyName === 'ACTIVE',
    );
    assert.deepEqual(
      ready.datacenters.map((d: Row) => d.name),
      ['dal10'],
    );
    const away = await fault(client, 'Virtual_Guest', 'createObject', {
      args: [{ ...guestFrom(template), datacenter: { name: 'fra02' } }],
    });
    assert.match(away.faultString, /not available in the datacenter ordered.*dal10/);
    await client.call(TEMPLATE_GROUP, 'setAvailableLocations', {
      id: template.id,
      args: [[{ id: 1441195 }, { id: 449506 }]],
    });
    const made = await client.call<Row>('Virtual_Guest', 'createObject', {
      args: [{ ...guestFrom(template), datacenter: { name: 'fra02' } }],
      mask: 'mask[id,operatingSystemReferenceCode,blockDeviceTemplateGroup.globalIdentifier]',
    });
    assert.equal(made.operatingSystemReferenceCode, 'DEBIAN_12_64', "the template's OS");
    assert.equal(made.blockDeviceTemplateGroup.globalIdentifier, template.globalIdentifier);
    const both = await fault(client, 'Virtual_Guest', 'createObject', {
      args: [{ ...guestFrom(template), operatingSystemReferenceCode: 'UBUNTU_LATEST' }],
    });
    assert.match(
      both.faultString,
      /either operatingSystemReferenceCode or blockDeviceTemplateGroup/,
    );
  });

  it('renames, notes, deletes its own; public templates are listed and usable but not changed; another account sees none of it', async () => {
    const client = await freshAccount(h.emu);
    const { template } = await captured(client, 'base-2');
    const busy = await fault(client, TEMPLATE_GROUP, 'editObject', {
      id: template.id,
      args: [{ name: 'x' }],
    });
    assert.match(busy.faultString, /still being captured/);
    await until(
      () => image(client, template.id),
      (t) => t.status.keyName === 'ACTIVE',
    );
    await client.call(TEMPLATE_GROUP, 'editObject', {
      id: template.id,
      args: [{ name: 'base-2b', note: 'golden' }],
    });
    const edited = await image(client, template.id);
    assert.deepEqual([edited.name, edited.note], ['base-2b', 'golden']);
    const stranger = await freshAccount(h.emu);
    const hidden = await fault(stranger, TEMPLATE_GROUP, 'getObject', { id: template.id });
    assert.equal(hidden.faultCode, 'Svc_Exception_ObjectNotFound');
    const notTheirs = await fault(stranger, 'Virtual_Guest', 'createObject', {
      args: [guestFrom(template)],
    });
    assert.match(notTheirs.faultString, /no image template/);
    const publics = await stranger.call<Row[]>(TEMPLATE_GROUP, 'getPublicImages', {
      mask: 'mask[id,name,globalIdentifier]',
    });
    assert.ok(publics.length >= 3);
    const fromPublic = await stranger.call<Row>('Virtual_Guest', 'createObject', {
      args: [guestFrom(publics[0])],
      mask: 'mask[id,blockDeviceTemplateGroup.id]',
    });
    assert.equal(fromPublic.blockDeviceTemplateGroup.id, publics[0].id);
    const publicEdit = await fault(stranger, TEMPLATE_GROUP, 'editObject', {
      id: publics[0].id,
      args: [{ name: 'mine' }],
    });
    assert.match(publicEdit.faultString, /public/);
    await client.call(TEMPLATE_GROUP, 'deleteObject', { id: template.id });
    const gone = await fault(client, TEMPLATE_GROUP, 'getObject', { id: template.id });
    assert.equal(gone.faultCode, 'Svc_Exception_ObjectNotFound');
  });

  it('orders guests from a template through Product_Order (imageTemplateGlobalIdentifier)', async () => {
    const client = await freshAccount(h.emu);
    const [pub] = await client.call<Row[]>(TEMPLATE_GROUP, 'getPublicImages', {
      mask: 'mask[id,globalIdentifier]',
    });
    const template = await client.call<Row>('Virtual_Guest', 'generateOrderTemplate', {
      args: [guestFrom(pub)],
    });
    await client.call('Product_Order', 'placeOrder', {
      args: [{ ...template, imageTemplateGlobalIdentifier: pub.globalIdentifier }],
    });
    const [guest] = await client.call<Row[]>('Account', 'getVirtualGuests', {
      mask: 'mask[id,blockDeviceTemplateGroup.globalIdentifier]',
    });
    assert.equal(guest.blockDeviceTemplateGroup.globalIdentifier, pub.globalIdentifier);
  });
});

/** A createObject template ordering a guest from `template` in dal10. */
function guestFrom(template: Row): Record<string, unknown> {
  return {
    hostname: 'from-image',
    domain: 'example.com',
    startCpus: 1,
    maxMemory: 1024,
    hourlyBillingFlag: true,
    localDiskFlag: false,
    datacenter: { name: 'dal10' },
    blockDeviceTemplateGroup: { globalIdentifier: template.globalIdentifier },
  };
}

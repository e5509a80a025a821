/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * The services behind the reference CLI's account commands, over HTTP: Tag (attached and
 * unattached tags, references), Billing_Order (the orders of the account's guests), the storage
 * of a guest (none is modeled), and the services the emulator does not model (a clear -32601).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';

const h = useEmulator();

describe('account services of the reference CLI', () => {
  let client: EmulatorClient;
  let guest: any;

  before(async () => {
    client = await freshAccount(h.emu);
    guest = await createGuest(client, { hostname: 'tagged' });
    await client.call('Virtual_Guest', 'setTags', { id: guest.id, args: ['web, db'] });
    await client.call('Virtual_Guest', 'setTags', { id: guest.id, args: ['web'] });
  });

  it('Tag lists attached and unattached tags with their references', async () => {
    const attached = await client.call<any[]>('Tag', 'getAttachedTagsForCurrentUser', {
      mask: 'mask[id, name, referenceCount]',
    });
    assert.deepEqual(
      attached.map((t) => [t.name, t.referenceCount]),
      [['web', 1]],
    );
    const unattached = await client.call<any[]>('Tag', 'getUnattachedTagsForCurrentUser');
    assert.deepEqual(
      unattached.map((t) => t.name),
      ['db'],
    );
    const refs = await client.call<any[]>('Tag', 'getReferences', {
      id: attached[0].id,
      mask: 'tagType',
    });
    assert.deepEqual(
      refs.map((r) => [r.resourceTableId, r.tagType.keyName]),
      [[guest.id, 'GUEST']],
    );
  });

  it('Billing_Order lists the orders of the account guests', async () => {
    const orders = await client.call<any[]>('Billing_Order', 'getAllObjects', {
      mask: 'mask[id, status, orderTotalAmount, userRecord.username, items[description, hostName]]',
    });
    assert.equal(orders.length, 1);
    assert.equal(orders[0].items[0].hostName, 'tagged');
    assert.ok(Number(orders[0].orderTotalAmount) > 0);
    const one = await client.call<any>('Billing_Order', 'getObject', { id: orders[0].id });
    assert.equal(one.id, orders[0].id);
  });

  it('a guest has no attached storage; unmodeled services say so', async () => {
    assert.deepEqual(
      await client.call('Virtual_Guest', 'getAttachedNetworkStorages', {
        id: guest.id,
        args: ['ISCSI'],
      }),
      [],
    );
    const raw = await client.callRaw('Notification_Occurrence_Event', 'getAllObjects');
    assert.equal(raw.fault?.faultCode, '-32601');
    assert.match(raw.fault!.faultString, /part of the API but not modeled here/);
    const unknown = await client.callRaw('Banana_Service', 'getObject');
    assert.equal(unknown.fault?.faultString, 'Service does not exist');
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseMaskString, type MaskNode } from '../../emulator/query/mask';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';
import type { EmulatorClient } from '../support/emulator-client';

/** The mask tree as nested plain objects, for deepEqual. */
const tree = (node: MaskNode): Record<string, unknown> =>
  Object.fromEntries([...node.props].map(([name, child]) => [name, tree(child)]));
const parsed = (text: string) => tree(parseMaskString(text).root);

describe('object mask grammar', () => {
  it('parses every spelling clients send into the same tree', () => {
    const expected = { id: {}, hostname: {}, datacenter: { name: {} } };
    for (const text of [
      'mask[id,hostname,datacenter.name]',
      'mask[id, hostname, datacenter[name]]',
      'id,hostname,datacenter.name',
      '[mask.id, mask.hostname, mask.datacenter.name]',
      'mask.id,mask.hostname,mask.datacenter.name',
      'filteredMask[id,hostname,datacenter[name]]',
      '\n  mask[\n    id,\n    hostname,\n    datacenter [ name ]\n  ]\n',
      'mask(Svc_Virtual_Guest)[id,hostname,datacenter(Svc_Location_Datacenter).name]',
      'mask[id,datacenter.name,hostname,datacenter[name]]',
      // `;` separates like `,`: softlayer-go's documented form, and SLDN's own examples.
      'mask[id;hostname;datacenter.name]',
      'id;hostname;datacenter[name]',
    ]) {
      assert.deepEqual(parsed(text), expected, text);
    }
  });

  it('nests deeply and merges repeated paths', () => {
    assert.deepEqual(
      parsed('mask[activeTransaction.transactionStatus[friendlyName,name],activeTransaction.id]'),
      {
        activeTransaction: { transactionStatus: { friendlyName: {}, name: {} }, id: {} },
      },
    );
    assert.deepEqual(parsed('mask'), {});
    assert.deepEqual(parsed('mask[]'), {});
    assert.equal(parseMaskString('filteredMask[a]').filtered, true);
    assert.equal(parseMaskString('mask[a]').filtered, false);
  });

  it('rejects malformed masks with a public fault', () => {
    for (const text of [
      'mask[id',
      'mask[id,,x]',
      'mask[id]]',
      'id..name',
      'mask[id:x]',
      'mask[1abc]',
      'mask(x[id]',
    ]) {
      assert.throws(() => parseMaskString(text), { faultCode: 'Svc_Exception_Public' }, text);
    }
  });
});

describe('object masks over the API', () => {
  const h = useEmulator();
  let client: EmulatorClient;
  let guestId: number;

  before(async () => {
    client = await freshAccount(h.emu);
    guestId = (
      await createGuest(client, {
        hostname: 'masked',
        tagReferences: [{ tag: { name: 'a' } }, { tag: { name: 'b' } }],
      })
    ).id;
  });

  it('returns only the named local properties at a level that names some', async () => {
    const got = await client.call('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[id,hostname]',
    });
    assert.deepEqual(got, { id: guestId, hostname: 'masked' });
    const nested = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[id,datacenter.name]',
    });
    assert.deepEqual(nested, { id: guestId, datacenter: { name: 'dal10' } });
  });

  it('returns every local property plus the relations when only relations are named', async () => {
    const got = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[datacenter]',
    });
    assert.equal(got.hostname, 'masked');
    assert.equal(got.maxMemory, 1024);
    assert.deepEqual(got.datacenter, {
      id: 1441195,
      name: 'dal10',
      longName: 'Dallas 10',
      statusId: 2,
    });
    assert.equal(got.tagReferences, undefined);
    const plain = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guestId,
    });
    for (const relation of [
      'datacenter',
      'tagReferences',
      'billingItem',
      'powerState',
      'networkComponents',
    ]) {
      assert.equal(plain[relation], undefined, `${relation} only when asked`);
    }
  });

  it('prunes nested lists by the filter with filteredMask', async () => {
    const filter = { virtualGuests: { tagReferences: { tag: { name: { operation: 'a' } } } } };
    const full = await client.call<any[]>('Account', 'getVirtualGuests', {
      mask: 'mask[id, tagReferences.tag.name]',
      filter,
    });
    assert.deepEqual(
      full[0].tagReferences.map((r: any) => r.tag.name),
      ['a', 'b'],
    );
    const pruned = await client.call<any[]>('Account', 'getVirtualGuests', {
      mask: 'filteredMask[id, tagReferences.tag.name]',
      filter,
    });
    assert.deepEqual(
      pruned[0].tagReferences.map((r: any) => r.tag.name),
      ['a'],
    );
  });

  it('faults on unknown properties at any depth, naming the type', async () => {
    const top = await client.callRaw('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[id,bogus]',
    });
    assert.equal(top.fault?.faultCode, 'Svc_Exception_Public');
    assert.equal(top.fault?.faultString, "Property 'bogus' not valid for 'Svc_Virtual_Guest'.");
    const deep = await client.callRaw('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'datacenter.planet',
    });
    assert.equal(deep.fault?.faultString, "Property 'planet' not valid for 'Svc_Location'.");
    const onList = await client.callRaw('Account', 'getVirtualGuests', { mask: 'mask[nope]' });
    assert.equal(
      onList.fault?.faultString,
      "Property 'nope' not valid for 'Svc_Virtual_Guest'.",
      'checked even for an empty page',
    );
    const local = await client.callRaw('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'hostname.length',
    });
    assert.equal(local.fault?.faultCode, 'Svc_Exception_Public');
    const syntax = await client.callRaw('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[id',
    });
    assert.equal(syntax.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(syntax.fault!.faultString, /not valid/);
  });

  it('accepts legacy struct masks', async () => {
    const got = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: { datacenter: {}, tagReferences: { tag: null } },
    });
    assert.equal(got.datacenter.name, 'dal10');
    assert.deepEqual(
      got.tagReferences.map((r: any) => r.tag.name),
      ['a', 'b'],
    );
  });
});

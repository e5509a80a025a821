import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { encodeCall, type EmulatorClient } from '../support/emulator-client';
import { createGuest, useEmulator } from '../support/emulator-harness';
import { rawPost } from '../support/raw-post';

const h = useEmulator({ maxBodyBytes: 256 * 1024 });

const headersParam = (extra: Record<string, unknown> = {}) => ({
  headers: {
    authenticate: { username: h.emu.accounts.demo.username, apiKey: h.emu.accounts.demo.apiKey },
    ...extra,
  },
});

async function faultOf(
  client: EmulatorClient,
  service: string,
  body: string | Buffer,
  httpHeaders?: Record<string, string>,
) {
  const res = await client.post(service, body, httpHeaders);
  assert.equal(res.status, 200, res.body);
  assert.ok(res.fault, `expected a fault, got ${res.body.slice(0, 300)}`);
  return res.fault;
}

/** Raw HTTP (no automatic decompression) for checks on the bytes on the wire. */
const postPath = (path: string, body: Buffer, headers: Record<string, string>) =>
  rawPost(new URL(path, h.emu.url).toString(), body, { headers });

describe('wire format', () => {
  it('answers an unknown service with the string fault code -32601', async () => {
    const res = await h.demo.callRaw('Nonexistent_Service', 'getObject');
    assert.equal(res.fault?.faultCode, '-32601');
    assert.equal(res.fault?.faultString, 'Service does not exist');
    assert.match(res.body, /<name>faultCode<\/name>\s*<value>\s*<string>-32601<\/string>/);
  });

  it('answers an unknown method and a path without the Svc_ prefix with -32601', async () => {
    const method = await h.demo.callRaw('Account', 'noSuchMethod');
    assert.equal(method.fault?.faultCode, '-32601');
    assert.match(method.fault!.faultString, /noSuchMethod/);
    const res = await fetch(`${h.emu.url}/Account`, {
      method: 'POST',
      body: encodeCall('getObject', [headersParam()]),
    });
    assert.match(await res.text(), /-32601/);
  });

  it('also serves /xmlrpc/v3/ and a trailing slash', async () => {
    const base = h.emu.url.replace('/v3.1', '/v3');
    const res = await fetch(`${base}/Svc_Account/`, {
      method: 'POST',
      body: encodeCall('getObject', [headersParam()]),
    });
    assert.match(await res.text(), /Svc Demo Company/);
  });

  it('rejects malformed and non-XML-RPC bodies with -32700', async () => {
    const truncated = encodeCall('getObject', [headersParam()]).slice(0, 120);
    for (const body of [
      truncated,
      'hello world',
      '<methodCall><methodName>getObject</methodName><params><param><value><bogus/></value></param></params></methodCall>',
      '',
    ]) {
      const fault = await faultOf(h.demo, 'Account', body);
      assert.equal(fault.faultCode, '-32700', `${body}: ${fault.faultString}`);
    }
  });

  it('refuses DOCTYPE and entity declarations before parsing', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      '<methodCall><methodName>getObject</methodName><params><param><value><string>&lol2;</string></value></param></params></methodCall>';
    const fault = await faultOf(h.demo, 'Account', laughs);
    assert.equal(fault.faultCode, '-32700');
    assert.match(fault.faultString, /DOCTYPE/);
    const external =
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><methodCall><methodName>getObject</methodName></methodCall>';
    assert.equal((await faultOf(h.demo, 'Account', external)).faultCode, '-32700');
  });

  it('answers an oversized body with HTTP 413 and keeps serving', async () => {
    const big = encodeCall('getObject', [headersParam(), 'x'.repeat(300 * 1024)]);
    const res = await h.demo.post('Account', big);
    assert.equal(res.status, 413);
    assert.match(res.body, /too large/);
    assert.equal(
      (await h.demo.call<{ id: number }>('Account', 'getObject')).id,
      h.emu.accounts.demo.accountId,
    );
  });

  it('accepts gzip request bodies, and refuses one that inflates past the limit', async () => {
    const body = gzipSync(Buffer.from(encodeCall('getObject', [headersParam()])));
    const ok = await h.demo.post('Account', body, { 'Content-Encoding': 'gzip' });
    assert.equal((ok.value as { companyName: string }).companyName, 'Svc Demo Company');
    const bomb = gzipSync(
      Buffer.from(encodeCall('getObject', [headersParam(), ' '.repeat(2 * 1024 * 1024)])),
    );
    assert.ok(bomb.length < 256 * 1024);
    const fault = await faultOf(h.demo, 'Account', bomb, { 'Content-Encoding': 'gzip' });
    assert.match(fault.faultString, /too large/);
  });

  it('gzips responses only when the client accepts gzip', async () => {
    const body = Buffer.from(encodeCall('getDatacenters', [headersParam()]));
    const zipped = await postPath('/xmlrpc/v3.1/Svc_Location_Datacenter', body, {
      'Accept-Encoding': 'gzip, deflate, compress',
    });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(gunzipSync(zipped.body).toString('utf8'), /dal10/);
    const plain = await postPath('/xmlrpc/v3.1/Svc_Location_Datacenter', body, {
      'Accept-Encoding': 'identity',
    });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(plain.body.toString('utf8'), /dal10/);
  });

  it('sends Svc-Total-Items with the count before limit/offset', async () => {
    const all = await h.demo.callRaw('Account', 'getTickets');
    assert.equal(all.totalItems, 3);
    const page = await h.demo.callRaw('Account', 'getTickets', { limit: 2, offset: 2, mask: 'id' });
    assert.equal(page.totalItems, 3);
    assert.equal((page.value as unknown[]).length, 1);
    assert.deepEqual(page.value, [{ id: (all.value as { id: number }[])[2].id }]);
  });

  it('does not depend on the order of header members', async () => {
    const headers = {
      resultLimit: { limit: 1, offset: 0 },
      Svc_AccountObjectFilter: { tickets: { title: { operation: '*= dns' } } },
      Svc_ObjectMask: { mask: 'mask[title]' },
      authenticate: headersParam().headers.authenticate,
    };
    const res = await h.demo.post('Account', encodeCall('getTickets', [{ headers }]));
    assert.deepEqual(res.value, [{ title: 'Reverse DNS for 192.0.2.10' }]);
  });

  it('answers wrong parameter types with -32602', async () => {
    const cases: [string, unknown[]][] = [
      ['no headers struct', [{ authenticate: 1 }]],
      ['headers not a struct', [{ headers: 'x' }]],
      ['negative limit', [headersParam({ resultLimit: { limit: -1, offset: 0 } })]],
      ['mask holder not a struct', [headersParam({ Svc_ObjectMask: 'id' })]],
      ['filter not a struct', [headersParam({ Svc_AccountObjectFilter: ['x'] })]],
      ['authenticate without apiKey', [{ headers: { authenticate: { username: 'demo' } } }]],
    ];
    for (const [name, params] of cases) {
      const fault = await faultOf(h.demo, 'Account', encodeCall('getObject', params));
      assert.equal(fault.faultCode, '-32602', `${name}: ${fault.faultString}`);
    }
    const wrongArg = await h.demo.callRaw('Virtual_Guest', 'createObject', {
      args: ['not a struct'],
    });
    assert.equal(wrongArg.fault?.faultCode, '-32602');
    const extra = await h.demo.callRaw('Account', 'getObject', { args: [1, 2] });
    assert.equal(extra.fault?.faultCode, '-32602');
    assert.match(extra.fault!.faultString, /takes 0 parameter/);
  });

  it('takes ids as <int>, <string> and <i8>, and masks as struct or under <Service>ObjectMask', async () => {
    const guest = await createGuest(h.demo);
    for (const id of [guest.id, String(guest.id)]) {
      const got = await h.demo.call<{ id: number }>('Virtual_Guest', 'getObject', {
        id,
        mask: 'id',
      });
      assert.deepEqual(got, { id: guest.id });
    }
    const i8 = encodeCall('getObject', [headersParam()]).replace(
      '<struct>\n<member>\n<name>authenticate',
      `<struct>\n<member><name>Svc_Virtual_GuestInitParameters</name><value><struct><member><name>id</name><value><i8>${guest.id}</i8></value></member></struct></value></member>\n<member>\n<name>authenticate`,
    );
    assert.equal(((await h.demo.post('Virtual_Guest', i8)).value as { id: number }).id, guest.id);
    const structMask = await h.demo.call<Record<string, unknown>>('Account', 'getObject', {
      mask: { domains: {} },
    });
    assert.ok(Array.isArray(structMask.domains));
    const serviceKey = await h.demo.call<Record<string, unknown>>('Account', 'getObject', {
      mask: 'mask[id]',
      maskKey: 'Svc_AccountObjectMask',
    });
    assert.deepEqual(serviceKey, { id: h.emu.accounts.demo.accountId });
  });

  it('reads UTF-8 bytes under an iso-8859-1 prolog, and refuses control characters', async () => {
    const guest = await createGuest(h.demo, { notes: 'café ✓ 日本' });
    const got = await h.demo.call<{ notes: string }>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'notes',
    });
    assert.equal(got.notes, 'café ✓ 日本');
    const withControl = encodeCall('setTags', [
      headersParam({ Svc_Virtual_GuestInitParameters: { id: guest.id } }),
      'aXYb',
    ]).replace('aXYb', 'a&#1;b');
    assert.equal((await faultOf(h.demo, 'Virtual_Guest', withControl)).faultCode, '-32702');
  });

  it('answers other HTTP methods and paths plainly', async () => {
    assert.equal((await fetch(`${h.emu.url}/Svc_Account`)).status, 405);
    assert.equal(
      (await fetch(h.emu.url.replace('/xmlrpc/v3.1', '/elsewhere'), { method: 'POST' })).status,
      404,
    );
  });

  it('accepts HTTP Basic credentials in place of the authenticate header', async () => {
    const { username, apiKey } = h.emu.accounts.other;
    const res = await h.anonymous.callRaw('Account', 'getObject', {
      mask: 'companyName',
      httpHeaders: {
        Authorization: `Basic ${Buffer.from(`${username}:${apiKey}`).toString('base64')}`,
      },
    });
    assert.deepEqual(res.value, { companyName: 'Other Corp' });
  });
});

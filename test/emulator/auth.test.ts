import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EmulatorClient } from '../support/emulator-client';
import { createGuest, useEmulator } from '../support/emulator-harness';

const h = useEmulator();

const login = (client: EmulatorClient, args: unknown[]) =>
  client.callRaw('User_Customer', 'getPortalLoginToken', { args, auth: null });

describe('API-key authentication', () => {
  it('accepts the seeded key and rejects a wrong key or user with the real fault', async () => {
    const account = await h.demo.call<{ companyName: string }>('Account', 'getObject');
    assert.equal(account.companyName, 'Svc Demo Company');
    for (const auth of [
      { username: 'demo', apiKey: 'f'.repeat(64) },
      { username: 'nobody', apiKey: h.emu.accounts.demo.apiKey },
      { username: 'demo', apiKey: '' },
    ]) {
      const res = await h.demo.callRaw('Account', 'getObject', { auth });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_Public');
      assert.equal(res.fault?.faultString, 'Invalid API token.');
    }
  });

  it('refuses a call without credentials', async () => {
    const res = await h.anonymous.callRaw('Account', 'getObject');
    assert.equal(res.fault?.faultCode, 'Svc_Exception_NotAuthorized');
  });

  it('lets catalog lookups through without credentials, but still checks given ones', async () => {
    const dcs = await h.anonymous.call<{ name: string }[]>('Location_Datacenter', 'getDatacenters');
    assert.ok(dcs.some((d) => d.name === 'dal10'));
    const bad = await h.anonymous.callRaw('Location_Datacenter', 'getDatacenters', {
      auth: { username: 'demo', apiKey: 'x' },
    });
    assert.equal(bad.fault?.faultString, 'Invalid API token.');
  });
});

describe('password login and token authentication', () => {
  it('issues a token for a user without security questions and accepts it', async () => {
    const { demo } = h.emu.accounts;
    const res = await login(h.anonymous, [demo.username, demo.password, null, null]);
    const token = res.value as { userId: number; hash: string };
    assert.equal(token.userId, demo.userId);
    assert.match(token.hash, /^[0-9a-f]{64}$/);
    const client = h.anonymous.withAuth({ userId: token.userId, authToken: token.hash });
    const user = await client.call<{ username: string }>('Account', 'getCurrentUser');
    assert.equal(user.username, 'demo');
    // userId may arrive as a string too
    const asString = await client.call<{ id: number }>('Account', 'getObject', {
      auth: null,
      headers: {
        authenticate: {
          complexType: 'PortalLoginToken',
          userId: String(token.userId),
          authToken: token.hash,
        },
      },
    });
    assert.equal(asString.id, demo.accountId);
  });

  it('rejects a wrong password', async () => {
    const res = await login(h.anonymous, ['demo', 'wrong', null, null]);
    assert.equal(res.fault?.faultCode, 'Svc_Exception_Public');
    assert.equal(res.fault?.faultString, 'Invalid username/password');
    const unknown = await login(h.anonymous, ['ghost', 'x']);
    assert.equal(unknown.fault?.faultString, 'Invalid username/password');
  });

  it('enforces the security question of a user who has one', async () => {
    const { demoOps } = h.emu.accounts;
    const question = demoOps.securityQuestion!;
    const none = await login(h.anonymous, [demoOps.username, demoOps.password, null, null]);
    assert.equal(none.fault?.faultCode, 'Svc_Exception_Public');
    assert.match(none.fault!.faultString, /security question/);
    const wrong = await login(h.anonymous, [
      demoOps.username,
      demoOps.password,
      question.id,
      'fido',
    ]);
    assert.equal(wrong.fault?.faultString, 'Invalid security question answer.');
    const wrongQuestion = await login(h.anonymous, [
      demoOps.username,
      demoOps.password,
      99,
      question.answer,
    ]);
    assert.equal(wrongQuestion.fault?.faultString, 'Invalid security question answer.');
    const right = await login(h.anonymous, [
      demoOps.username,
      demoOps.password,
      question.id,
      `  ${question.answer.toUpperCase()} `,
    ]);
    const token = right.value as { userId: number; hash: string };
    assert.equal(token.userId, demoOps.userId);
    const me = await h.anonymous
      .withAuth({ userId: token.userId, authToken: token.hash })
      .call<{ username: string }>('Account', 'getCurrentUser');
    assert.equal(me.username, 'demo.ops');
  });

  it('rejects unknown tokens and tokens presented for another user', async () => {
    const { demo, other } = h.emu.accounts;
    const token = (await login(h.anonymous, [demo.username, demo.password])).value as {
      userId: number;
      hash: string;
    };
    for (const auth of [
      { userId: demo.userId, authToken: 'f'.repeat(64) },
      { userId: other.userId, authToken: token.hash },
      { userId: 99999999, authToken: token.hash },
    ]) {
      const res = await h.anonymous.callRaw('Account', 'getObject', { auth });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_InvalidLegacyToken');
    }
  });
});

describe('account isolation', () => {
  it("hides another account's objects behind the same fault as a missing one", async () => {
    const theirs = await createGuest(h.other, { hostname: 'secret' });
    const missing = await h.demo.callRaw('Virtual_Guest', 'getObject', { id: 999999999 });
    const foreign = await h.demo.callRaw('Virtual_Guest', 'getObject', { id: theirs.id });
    assert.equal(missing.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    assert.equal(foreign.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    assert.equal(
      foreign.fault?.faultString,
      missing.fault?.faultString.replace('999999999', String(theirs.id)),
    );
    assert.equal(foreign.fault?.faultString, `Unable to find object with id of '${theirs.id}'.`);
  });

  it("cannot change another account's objects", async () => {
    const theirs = await createGuest(h.other, { hostname: 'keepme' });
    for (const [method, args] of [
      ['deleteObject', []],
      ['editObject', [{ hostname: 'stolen' }]],
      ['setTags', ['pwned']],
      ['powerOff', []],
    ] as const) {
      const res = await h.demo.callRaw('Virtual_Guest', method, { id: theirs.id, args: [...args] });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_ObjectNotFound', method);
    }
    const still = await h.other.call<{ hostname: string; tagReferences: unknown[] }>(
      'Virtual_Guest',
      'getObject',
      {
        id: theirs.id,
        mask: 'hostname, tagReferences',
      },
    );
    assert.deepEqual(still, { hostname: 'keepme', tagReferences: [] });

    const theirBilling = await h.other.call<{ billingItem: { id: number } }>(
      'Virtual_Guest',
      'getObject',
      { id: theirs.id, mask: 'billingItem.id' },
    );
    const cancel = await h.demo.callRaw('Billing_Item', 'cancelService', {
      id: theirBilling.billingItem.id,
    });
    assert.equal(cancel.fault?.faultCode, 'Svc_Exception_ObjectNotFound');

    const theirTickets = await h.other.call<{ id: number }[]>('Account', 'getTickets', {
      mask: 'id',
    });
    const update = await h.demo.callRaw('Ticket', 'addUpdate', {
      id: theirTickets[0].id,
      args: [{ entry: 'hi' }],
    });
    assert.equal(update.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    const read = await h.demo.callRaw('Ticket', 'getObject', { id: theirTickets[0].id });
    assert.equal(read.fault?.faultCode, 'Svc_Exception_ObjectNotFound');

    const [theirZone] = await h.other.call<{ id: number }[]>('Account', 'getDomains', {
      mask: 'id',
    });
    const record = await h.demo.callRaw('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ host: 'x', data: '192.0.2.1', ttl: 60, type: 'a', domainId: theirZone.id }],
    });
    assert.equal(record.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    assert.deepEqual(
      await h.demo.call('Dns_Domain', 'getByDomainName', { args: ['other.example.org'] }),
      [],
    );
  });

  it('lists only the caller account and refuses another account id', async () => {
    const guests = await h.demo.call<{ hostname: string }[]>('Account', 'getVirtualGuests', {
      mask: 'hostname',
    });
    assert.ok(
      !guests.some(
        (g) =>
          g.hostname.startsWith('legacy') || g.hostname === 'secret' || g.hostname === 'keepme',
      ),
    );
    const res = await h.demo.callRaw('Account', 'getObject', {
      id: h.emu.accounts.other.accountId,
    });
    assert.equal(res.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    const own = await h.demo.call<{ id: number }>('Account', 'getObject', {
      id: h.emu.accounts.demo.accountId,
      mask: 'id',
    });
    assert.deepEqual(own, { id: h.emu.accounts.demo.accountId });
    const users = await h.demo.call<{ username: string }[]>('Account', 'getUsers', {
      mask: 'username',
    });
    assert.deepEqual(users.map((u) => u.username).sort(), ['demo', 'demo.ops']);
  });

  it("shows only the caller's own API key", async () => {
    const me = await h.demo.call<{ apiAuthenticationKeys: { authenticationKey: string }[] }>(
      'Account',
      'getCurrentUser',
      {
        mask: 'apiAuthenticationKeys',
      },
    );
    assert.equal(me.apiAuthenticationKeys[0].authenticationKey, h.emu.accounts.demo.apiKey);
    const users = await h.demo.call<{ username: string; apiAuthenticationKeys: unknown[] }[]>(
      'Account',
      'getUsers',
      {
        mask: 'username, apiAuthenticationKeys',
      },
    );
    assert.deepEqual(users.find((u) => u.username === 'demo.ops')?.apiAuthenticationKeys, []);
  });
});

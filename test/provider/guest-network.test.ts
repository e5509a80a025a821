import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '../../provider/client';
import { virtualGuestProvider as provider } from '../../provider/kinds/virtual-guest/provider';
import { checkedGuest, declaredGuest, providerEnv, type Emulator } from '../support/provider-env';
import { bindOutside, guestBindings, newSecurityGroup } from '../support/guest-network';

type Bag = Record<string, unknown>;

/** The fields a diff says change. */
const changedFields = (diff: object) =>
  ((diff as { fields?: { name: string }[] }).fields ?? []).map((f) => f.name);

/** The emulator's bindings take effect this long after an order's provisioning or a request. */
const DELAY = 300;

describe("VirtualGuest's network inputs against the emulator", () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(DELAY)));
  after(() => emulator?.close());

  const newGroup = (name: string, as: Client = client) => newSecurityGroup(as, name);
  const bindings = (id: string) => guestBindings(client, id);
  const failuresOf = async (inputs: Bag, olds: Bag = {}) =>
    Object.fromEntries(
      ((await provider.check(olds, inputs)).failures ?? []).map((f) => [f.property, f.reason]),
    );
  const writes = () => {
    const calls = emulator.stats().calls;
    return ['Virtual_Guest.createObject', 'Product_Order.placeOrder'].map((m) => calls[m] ?? 0);
  };

  it('check names the field of a group on no interface, of another account or missing, before any order', async () => {
    const { username, apiKey } = emulator.accounts.other;
    const other = new Client({ username, apiKey, endpointUrl: emulator.url });
    const theirs = await newGroup('theirs', other);
    const mine = await newGroup('mine');
    const before = writes();
    const privateOnly = await failuresOf(
      declaredGuest('sg-bad', 'example.com', {
        privateNetworkOnly: true,
        securityGroupIds: [mine],
      }),
    );
    assert.match(privateOnly.securityGroupIds, /privateNetworkOnly does not have/);
    const foreign = await failuresOf(
      declaredGuest('sg-bad', 'example.com', {
        securityGroupIds: [mine],
        privateSecurityGroupIds: [theirs, 999_999],
      }),
    );
    assert.deepEqual(Object.keys(foreign), ['privateSecurityGroupIds']);
    assert.match(
      foreign.privateSecurityGroupIds,
      new RegExp(`no security group ${theirs} on this account`),
    );
    const tooMany = await failuresOf(
      declaredGuest('sg-bad', 'example.com', { securityGroupIds: [1, 2, 3, 4, 5, 6] }),
    );
    assert.match(tooMany.securityGroupIds, /at most 5/);
    assert.deepEqual(writes(), before, 'nothing ordered');
  });

  it('orders the guest with its groups, imports them, changes them in place, repairs drift, detaches before the cancel', async () => {
    const [web, ssh, db] = [await newGroup('web'), await newGroup('ssh'), await newGroup('db')];
    const declared = declaredGuest('sg-guest', 'example.com', {
      securityGroupIds: [web, ssh],
      privateSecurityGroupIds: [db],
    });
    const inputs = await checkedGuest(declared);
    const { id, outs } = await provider.create(inputs);
    assert.deepEqual(await bindings(id), {
      public: [web, ssh].sort((a, b) => a - b),
      private: [db],
    });
    assert.deepEqual(
      outs!.securityGroupIds,
      [web, ssh].sort((a, b) => a - b),
    );

    // An import reads them back: the program that declares them shows no change.
    const imported = (await provider.read(id, {})).inputs as Bag;
    assert.deepEqual(
      imported.securityGroupIds,
      [web, ssh].sort((a, b) => a - b),
    );
    assert.deepEqual(imported.privateSecurityGroupIds, [db]);
    assert.equal((await provider.diff(id, outs!, inputs)).changes, false);

    // A change is made in place: ssh detached, db bound to the public interface too.
    const changed = await checkedGuest({ ...declared, securityGroupIds: [web, db] });
    const diff = await provider.diff(id, outs!, changed);
    assert.deepEqual(diff.replaces, []);
    assert.deepEqual(changedFields(diff), ['securityGroupIds']);
    emulator.setFaults({
      once: [
        // The attach is applied, its answer lost; the detach is applied and answered 502.
        {
          service: 'Network_SecurityGroup',
          method: 'attachNetworkComponents',
          fault: 'lose-response',
        },
        {
          service: 'Network_SecurityGroup',
          method: 'detachNetworkComponents',
          fault: 'error-after-commit',
        },
      ],
    });
    const injected = () => emulator.stats().faultsInjected;
    const faultsBefore = { ...injected() };
    const updated = await provider.update(id, outs!, changed);
    for (const kind of ['lose-response', 'error-after-commit'])
      assert.equal(injected()[kind], (faultsBefore[kind] ?? 0) + 1, `${kind} was injected`);
    assert.deepEqual(await bindings(id), {
      public: [web, db].sort((a, b) => a - b),
      private: [db],
    });
    assert.deepEqual(
      (updated.outs as Bag).securityGroupIds,
      [web, db].sort((a, b) => a - b),
    );

    // Bound outside Pulumi: refresh sees it, up takes it away again.
    await bindOutside(client, id, 'primaryBackendNetworkComponent', ssh, DELAY + 100);
    const refreshed = (await provider.read(id, updated.outs as Bag)).props as Bag;
    assert.deepEqual(
      refreshed.privateSecurityGroupIds,
      [ssh, db].sort((a, b) => a - b),
    );
    const drift = await provider.diff(id, refreshed, changed);
    assert.deepEqual(changedFields(drift), ['privateSecurityGroupIds']);
    const repaired = await provider.update(id, refreshed, changed);
    assert.deepEqual((await bindings(id)).private, [db]);

    // The delete detaches its groups first: each group can then be deleted.
    await provider.delete(id, repaired.outs as Bag);
    for (const group of [web, ssh, db])
      await client.call('Network_SecurityGroup', 'deleteObject', { id: group });
  });
});

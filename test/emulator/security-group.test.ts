/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient, RawResponse } from '../support/emulator-client';
import {
  createGuest,
  freshAccount,
  guestTemplate,
  sleep,
  useEmulator,
} from '../support/emulator-harness';

/** Bindings (and guests) take this long: the API applies them asynchronously. */
const DELAY = 300;
const h = useEmulator({ provisioningDelayMs: DELAY });

type Row = Record<string, any>;
const SG = 'Network_SecurityGroup';
const BINDINGS =
  'id,networkComponentBindings[networkComponentId,networkComponent[id,port,guest[id]]]';

const newGroup = (client: EmulatorClient, name = 'web') =>
  client.call<Row>(SG, 'createObject', { args: [{ name, description: 'the web tier' }] });

/** An interface's part of a guest template binding `groupId`. */
const bindings = (groupId: number) => ({
  securityGroupBindings: [{ securityGroup: { id: groupId } }],
});

const createRaw = (client: EmulatorClient, overrides: Row) =>
  client.callRaw('Virtual_Guest', 'createObject', { args: [guestTemplate(overrides)] });

async function fault(promise: Promise<RawResponse>) {
  const res = await promise;
  assert.ok(res.fault, 'expected a fault');
  return { faultCode: String(res.fault.faultCode), faultString: String(res.fault.faultString) };
}

/** A provisioned guest's private and public component ids. */
async function guestComponents(client: EmulatorClient, overrides: Row = {}) {
  const guest = await createGuest(client, overrides);
  await sleep(DELAY + 50);
  const read = await client.call<Row>('Virtual_Guest', 'getObject', {
    id: guest.id,
    mask: 'id,networkComponents[id,port]',
  });
  const port = (p: number) => read.networkComponents.find((n: Row) => n.port === p)?.id;
  return { id: guest.id as number, private: port(0) as number, public: port(1) as number };
}

describe('Network_SecurityGroup', () => {
  it('creates, edits and lists groups; rules are added, edited and removed in place', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    assert.equal(group.name, 'web');
    assert.match(group.createDate, /^\d{4}-\d\d-\d\dT/);
    assert.equal(
      await client.call(SG, 'editObject', { id: group.id, args: [{ name: 'web2' }] }),
      true,
    );

    const added = await client.call<Row>(SG, 'addRules', {
      id: group.id,
      args: [
        [
          {
            direction: 'ingress',
            protocol: 'tcp',
            portRangeMin: 22,
            portRangeMax: 22,
            remoteIp: '10.0.0.0/8',
          },
          { direction: 'egress', ethertype: 'IPv6' },
        ],
      ],
    });
    assert.ok(added.requestId);
    const [ssh, out] = added.rules as Row[];
    assert.equal(ssh.ethertype, 'IPv4', 'ethertype defaults to IPv4');
    await client.call(SG, 'editRules', {
      id: group.id,
      args: [[{ id: ssh.id, portRangeMax: 23 }]],
    });
    await client.call(SG, 'removeRules', { id: group.id, args: [[out.id]] });

    const rules = await client.call<Row[]>(SG, 'getRules', { id: group.id });
    assert.deepEqual(
      rules.map((r) => [r.id, r.direction, r.protocol, r.portRangeMin, r.portRangeMax, r.remoteIp]),
      [[ssh.id, 'ingress', 'tcp', 22, 23, '10.0.0.0/8']],
      'the edit kept what it did not name',
    );
    const listed = await client.call<Row[]>('Account', 'getSecurityGroups', {
      mask: 'id,name,ruleCount',
    });
    assert.deepEqual(listed, [{ id: group.id, name: 'web2', ruleCount: 1 }]);
    assert.equal((await client.call<Row[]>(SG, 'getAllObjects')).length, 1);
  });

  it('names the field of a bad rule, and nothing is added', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    const cases: [Row, RegExp][] = [
      [{ protocol: 'tcp' }, /ruleObjects\[0\]\.direction' must be set/],
      [{ direction: 'sideways' }, /'ruleObjects\[0\]\.direction' is not offered/],
      [{ direction: 'ingress', protocol: 'sctp' }, /'ruleObjects\[0\]\.protocol' is not offered/],
      [
        { direction: 'ingress', portRangeMin: 80 },
        /ruleObjects\[0\]\.portRangeMin.*need a protocol/,
      ],
      [{ direction: 'ingress', protocol: 'tcp', portRangeMin: 0 }, /portRangeMin.*1 to 65535/],
      [
        { direction: 'ingress', protocol: 'tcp', portRangeMin: 90, portRangeMax: 80 },
        /portRangeMax/,
      ],
      [{ direction: 'ingress', remoteIp: '10.0.0.0/33' }, /remoteIp.*CIDR/],
      [{ direction: 'ingress', remoteIp: '::1' }, /IPv6 but the rule's ethertype is IPv4/],
      [
        { direction: 'ingress', remoteGroupId: 1 },
        /remoteGroupId: security group 1 does not exist/,
      ],
      [{ direction: 'ingress', color: 'red' }, /'color' not valid/],
    ];
    for (const [rule, message] of cases) {
      const f = await fault(
        client.callRaw(SG, 'addRules', { id: group.id, args: [[{ direction: 'egress' }, rule]] }),
      );
      assert.match(
        f.faultString,
        new RegExp(message.source.replace('\\[0\\]', '\\[1\\]')),
        JSON.stringify(rule),
      );
    }
    assert.deepEqual(await client.call(SG, 'getRules', { id: group.id }), []);
    const other = await newGroup(client, 'other');
    const f = await fault(client.callRaw(SG, 'removeRules', { id: other.id, args: [[123]] }));
    assert.match(f.faultString, /rule 123 is not a rule of security group/);
  });

  it('binds components asynchronously; a bound group is not deleted; detach, then delete', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    const guest = await guestComponents(client);
    const attached = await client.call<Row>(SG, 'attachNetworkComponents', {
      id: group.id,
      args: [[guest.private, guest.public]],
    });
    assert.ok(attached.requestId);
    let read = await client.call<Row>(SG, 'getObject', { id: group.id, mask: BINDINGS });
    assert.deepEqual(read.networkComponentBindings, [], 'not yet in force');
    const early = await fault(client.callRaw(SG, 'deleteObject', { id: group.id }));
    assert.match(early.faultString, /bound to network component\(s\).*detach them/);

    await sleep(DELAY + 50);
    read = await client.call<Row>(SG, 'getObject', { id: group.id, mask: BINDINGS });
    assert.deepEqual(
      read.networkComponentBindings.map((b: Row) => [
        b.networkComponentId,
        b.networkComponent.port,
        b.networkComponent.guest.id,
      ]),
      [
        [guest.private, 0, guest.id],
        [guest.public, 1, guest.id],
      ],
    );
    const nic = await client.call<Row>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'primaryBackendNetworkComponent[securityGroupBindings[securityGroupId]]',
    });
    assert.deepEqual(nic.primaryBackendNetworkComponent.securityGroupBindings, [
      { securityGroupId: group.id },
    ]);
    const twice = await fault(
      client.callRaw(SG, 'attachNetworkComponents', { id: group.id, args: [[guest.public]] }),
    );
    assert.match(twice.faultString, /already bound/);

    await client.call(SG, 'detachNetworkComponents', {
      id: group.id,
      args: [[guest.private, guest.public]],
    });
    const pending = await fault(client.callRaw(SG, 'deleteObject', { id: group.id }));
    assert.match(pending.faultString, /detach them/, 'the detach has not finished yet');
    await sleep(DELAY + 50);
    assert.equal(await client.call(SG, 'deleteObject', { id: group.id }), true);
    assert.deepEqual(await client.call(SG, 'getAllObjects'), []);
  });

  it('binds the groups a guest is ordered with once it is provisioned; they go with the guest', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    const guest = await createGuest(client, {
      primaryBackendNetworkComponent: bindings(group.id),
    });
    await sleep(DELAY + 50);
    const read = await client.call<Row>(SG, 'getObject', { id: group.id, mask: BINDINGS });
    assert.deepEqual(
      read.networkComponentBindings.map((b: Row) => b.networkComponent.port),
      [0],
    );
    assert.match(
      (await fault(client.callRaw(SG, 'deleteObject', { id: group.id }))).faultString,
      /detach/,
    );
    await client.call('Virtual_Guest', 'deleteObject', { id: guest.id });
    assert.equal(await client.call(SG, 'deleteObject', { id: group.id }), true);

    const privateOnly = await fault(
      createRaw(client, {
        privateNetworkOnlyFlag: true,
        primaryNetworkComponent: bindings(group.id),
      }),
    );
    assert.match(
      privateOnly.faultString,
      /primaryNetworkComponent\.securityGroupBindings: the guest has no public interface/,
    );
  });

  it("another account's groups and components are as if they did not exist", async () => {
    const owner = await freshAccount(h.emu);
    const stranger = await freshAccount(h.emu);
    const group = await newGroup(owner);
    const guest = await guestComponents(owner);
    for (const method of ['getObject', 'deleteObject', 'getRules'])
      assert.equal(
        (await fault(stranger.callRaw(SG, method, { id: group.id }))).faultCode,
        'Svc_Exception_ObjectNotFound',
      );
    const theirs = await newGroup(stranger);
    const attach = await fault(
      stranger.callRaw(SG, 'attachNetworkComponents', { id: theirs.id, args: [[guest.private]] }),
    );
    assert.match(attach.faultString, /network component \d+ does not exist on this account/);
    const ordered = await fault(
      createRaw(stranger, { primaryBackendNetworkComponent: bindings(group.id) }),
    );
    assert.match(
      ordered.faultString,
      new RegExp(`security group ${group.id} does not exist on this account`),
    );
    assert.deepEqual(await stranger.call(SG, 'getAllObjects', { mask: 'id' }), [{ id: theirs.id }]);
    const read = await owner.call<Row>(SG, 'getObject', { id: group.id, mask: BINDINGS });
    assert.deepEqual(read.networkComponentBindings, [], 'nothing was bound');
  });

  it('an attach whose answer is lost has still been made: a retry is told it is bound', async () => {
    const client = await freshAccount(h.emu);
    const group = await newGroup(client);
    const guest = await guestComponents(client);
    h.emu.setFaults({
      once: { service: SG, method: 'attachNetworkComponents', fault: 'lose-response' },
    });
    await assert.rejects(
      client.call(SG, 'attachNetworkComponents', { id: group.id, args: [[guest.private]] }),
    );
    const again = await fault(
      client.callRaw(SG, 'attachNetworkComponents', { id: group.id, args: [[guest.private]] }),
    );
    assert.match(again.faultString, /already bound/);
    await sleep(DELAY + 50);
    const read = await client.call<Row>(SG, 'getObject', {
      id: group.id,
      mask: 'networkComponentBindingCount',
    });
    assert.equal(read.networkComponentBindingCount, 1);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { securityGroupProvider as provider } from '../../provider/kinds/security-group/provider';
import type { SecurityGroup } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { guestTemplate } from '../support/emulator-harness';
import { outputProblems } from '../support/schema-types';

type Bag = Record<string, unknown>;

const SSH = {
  direction: 'ingress',
  protocol: 'tcp',
  portRangeMin: 22,
  portRangeMax: 22,
  remoteIp: '10.0.0.0/8',
};
const HTTPS = { direction: 'ingress', protocol: 'tcp', portRangeMin: 443, portRangeMax: 443 };
const OUT = { direction: 'egress' };
const DELAY = 200;

describe('SecurityGroup provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(DELAY)));
  after(() => emulator?.close());

  const group = async (id: string) =>
    (await client.call('Network_SecurityGroup', 'getObject', {
      id: Number(id),
      mask: 'id,name,description,rules[id,direction,protocol,portRangeMin,portRangeMax,remoteIp]',
    })) as SecurityGroup;
  const ruleRows = async (id: string) =>
    ((await group(id)).rules ?? []).map((r) => [
      r.direction,
      r.protocol ?? null,
      r.portRangeMin ?? null,
    ]);
  const checked = async (inputs: Bag, olds: Bag = {}) => {
    const result = await provider.check(olds, inputs);
    assert.deepEqual(result.failures, []);
    return result.inputs!;
  };

  it('check names the rule and the field of each mistake', async () => {
    const result = await provider.check(
      {},
      {
        rules: [
          { direction: 'ingress', portRangeMin: 22 },
          { direction: 'sideways' },
          { direction: 'ingress', protocol: 'tcp', portRangeMin: 90, portRangeMax: 80 },
          { direction: 'ingress', remoteIp: '2001:db8::/32' },
          { direction: 'ingress', remoteIp: '10.0.0.0/8', remoteGroupId: 5 },
          { direction: 'egress', colour: 'red' },
        ],
      },
    );
    const byField = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byField.name, /name is required/);
    assert.match(byField['rules[0].portRangeMin'], /^rules\[0\]\.portRangeMin needs a protocol/);
    assert.match(byField['rules[1].direction'], /rules\[1\]\.direction/);
    assert.match(byField['rules[2].portRangeMax'], /must not be below portRangeMin 90/);
    assert.match(byField['rules[3].remoteIp'], /is IPv6, the rule's ethertype IPv4/);
    assert.match(byField['rules[4].remoteIp'], /not both/);
    assert.match(byField['rules[5]'], /no field colour/);
  });

  it('creates the group with its rules; imports it; edits a rule in place; repairs drift', async () => {
    const inputs = await checked({ name: 'web', description: 'tier', rules: [SSH, HTTPS, OUT] });
    const { id, outs } = await provider.create(inputs);
    assert.equal(outs!.groupId, Number(id));
    assert.deepEqual(await ruleRows(id), [
      ['ingress', 'tcp', 22],
      ['ingress', 'tcp', 443],
      ['egress', null, null],
    ]);
    assert.deepEqual(outputProblems('SecurityGroup', outs as Bag), []);
    const imported = await provider.read(id, {});
    const importedProps = imported.inputs as Bag;
    assert.equal(importedProps.name, 'web');
    assert.equal((importedProps.rules as unknown[]).length, 3, 'an import reads every rule');
    assert.equal((await provider.diff(id, outs!, inputs)).changes, false);

    // A rule changed: edited in place, keeping its id.
    const before = (await group(id)).rules!.find((r) => r.portRangeMin === 443)!;
    const wider = await checked(
      { ...inputs, rules: [SSH, { ...HTTPS, portRangeMin: 8443, portRangeMax: 8443 }, OUT] },
      outs!,
    );
    const diff = await provider.diff(id, outs!, wider);
    assert.deepEqual([diff.changes, diff.replaces], [undefined, []]);
    const updated = await provider.update(id, outs!, wider);
    const after = (await group(id)).rules!.find((r) => r.portRangeMin === 8443);
    assert.equal(after?.id, before.id, 'the same rule, edited');

    // Out of band: a rule added and one removed by hand. Refresh sees it; up puts it back.
    await client.call('Network_SecurityGroup', 'addRules', {
      id: Number(id),
      args: [[{ direction: 'ingress', protocol: 'udp', portRangeMin: 53, portRangeMax: 53 }]],
    });
    const ssh = (await group(id)).rules!.find((r) => r.portRangeMin === 22)!;
    await client.call('Network_SecurityGroup', 'removeRules', { id: Number(id), args: [[ssh.id]] });
    const refreshed = await provider.read(id, updated.outs!);
    const seen = (refreshed.props as Bag).rules as Bag[];
    assert.ok(seen.some((r) => r.protocol === 'udp') && !seen.some((r) => r.portRangeMin === 22));
    const repair = await provider.diff(id, refreshed.props as Bag, wider);
    assert.notEqual(repair.changes, false, 'the declared rules differ from the refreshed ones');
    const repaired = await provider.update(id, refreshed.props as Bag, wider);
    assert.deepEqual((await ruleRows(id)).sort(), [
      ['egress', null, null],
      ['ingress', 'tcp', 22],
      ['ingress', 'tcp', 8443],
    ]);
    assert.equal((await provider.diff(id, repaired.outs!, wider)).changes, false);

    await provider.delete(id, repaired.outs!);
    assert.deepEqual(
      await provider.read(id, repaired.outs!),
      {},
      'a deleted group leaves the stack',
    );
  });

  it('a lost createObject or addRules answer makes one group with each rule once', async () => {
    const inputs = await checked({ name: 'lost', rules: [SSH, OUT] });
    const count = async () =>
      (
        (await client.call('Account', 'getSecurityGroups', { mask: 'id,name' })) as SecurityGroup[]
      ).filter((g) => g.name === 'lost').length;
    emulator.setFaults({
      once: { service: 'Network_SecurityGroup', method: 'createObject', fault: 'lose-response' },
    });
    const first = await provider.create(inputs);
    assert.equal(await count(), 1);
    assert.equal((await ruleRows(first.id)).length, 2);
    await provider.delete(first.id, first.outs!);

    emulator.setFaults({
      once: { service: 'Network_SecurityGroup', method: 'addRules', fault: 'lose-response' },
    });
    const second = await provider.create(inputs);
    assert.equal((await ruleRows(second.id)).length, 2, 'the rules were not added twice');
    await provider.delete(second.id, second.outs!);
  });

  it('rules refused after the group is made: the create fails keeping the group id', async () => {
    const inputs = await checked({ name: 'half-made', rules: [SSH] });
    emulator.setFaults({
      once: {
        service: 'Network_SecurityGroup',
        method: 'addRules',
        fault: 'api-fault',
        faultCode: 'Svc_Exception_Public',
        faultString: 'The rules could not be added.',
      },
    });
    const failure = (await provider.create(inputs).then(
      () => assert.fail('created'),
      (err: unknown) => err,
    )) as Error & { id?: string };
    assert.match(failure.message, /was made, then setting its rules failed/);
    assert.ok(failure.id, 'the id is handed to the engine');
    assert.equal((await group(failure.id)).name, 'half-made', 'the group it names exists');
  });

  it('a group bound to a guest is not deleted: the error names the guest and what to do', async () => {
    const { id, outs } = await provider.create(await checked({ name: 'bound', rules: [OUT] }));
    const guest = (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname: 'sg-guest' })],
      mask: 'id,primaryBackendNetworkComponent.id',
    })) as { id: number; primaryBackendNetworkComponent: { id: number } };
    const component = guest.primaryBackendNetworkComponent.id;
    await client.call('Network_SecurityGroup', 'attachNetworkComponents', {
      id: Number(id),
      args: [[component]],
    });
    await new Promise((r) => setTimeout(r, DELAY + 100));
    await assert.rejects(provider.delete(id, outs!), (err: Error) => {
      assert.match(
        err.message,
        /SecurityGroup "bound" \(id \d+\) is still bound to sg-guest \(id \d+\)/,
      );
      assert.match(
        err.message,
        /detach it from those guests first \(a VirtualGuest of a stack: remove the group from its securityGroupIds/,
      );
      return true;
    });
    assert.ok(await group(id), 'still there');
    await client.call('Network_SecurityGroup', 'detachNetworkComponents', {
      id: Number(id),
      args: [[component]],
    });
    await new Promise((r) => setTimeout(r, DELAY + 100));
    await provider.delete(id, outs!);
  });

  it('a group another group’s rule names waits for that rule to go; past its bound the error names the rule', async () => {
    const target = await provider.create(await checked({ name: 'target', rules: [OUT] }));
    const rule = { ...SSH, remoteIp: undefined, remoteGroupId: Number(target.id) };
    const referrer = await provider.create(await checked({ name: 'referrer', rules: [rule] }));
    const groupIds = async () =>
      ((await client.call('Account', 'getSecurityGroups', { mask: 'id' })) as { id: number }[]).map(
        (g) => String(g.id),
      );
    // The engine's deadline bounds the wait: refused, naming the rule, nothing deleted.
    const request = { signal: new AbortController().signal, deadline: Date.now() + 1500 };
    await assert.rejects(
      provider.delete(target.id, target.outs!, request),
      /SecurityGroup "target" \(id \d+\) is the remote group of rule \d+ of "referrer" \(id \d+\)\. Deleting it is refused while a rule names it/,
    );
    assert.ok((await groupIds()).includes(target.id), 'still there');
    // A destroy of both with no dependency between them: the target's delete waits for the other.
    const waiting = provider.delete(target.id, target.outs!);
    await new Promise((r) => setTimeout(r, 300));
    await provider.delete(referrer.id, referrer.outs!);
    await waiting;
    const left = await groupIds();
    assert.ok(!left.includes(target.id) && !left.includes(referrer.id), 'both deleted');
  });
});

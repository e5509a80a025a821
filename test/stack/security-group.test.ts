import assert from 'node:assert/strict';
import { SecurityGroupManager, type SecurityGroup } from '../../provider/managers';
import { cliFixture, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';

const SSH = {
  direction: 'ingress',
  protocol: 'tcp',
  portRangeMin: 22,
  portRangeMax: 22,
  remoteIp: '10.0.0.0/8',
};
const HTTPS = { direction: 'ingress', protocol: 'tcp', portRangeMin: 443, portRangeMax: 443 };
const OUT = { direction: 'egress' as const };

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'network', emulator }),
  write: (f, web) => f.stack.setConfig({ 'network:group': { value: JSON.stringify(web) } }),
});

scenarioPerDoor(
  'SecurityGroup through the Pulumi CLI: create, change in place, drift, import, destroy',
  scenario,
);

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin'
      ? yamlOneKind('network', 'SecurityGroup', 'web', { name: 'x' })
      : tsProgram();
  const f = await program.fixture(emulator);
  try {
    const groups = new SecurityGroupManager(f.client);
    const ports = async (id: string) =>
      ((await groups.getGroup(Number(id))).rules ?? []).map((r) => r.portRangeMin ?? null).sort();
    const name = `web-${door.name}`;

    await program.write(f, { name, rules: [SSH, OUT] });
    await f.stack.up();
    const [id] = await f.stateIds('SecurityGroup');
    assert.deepEqual(await ports(id), [22, null]);

    // In place: the description and one more rule; the same group.
    await program.write(f, { name, description: 'the web tier', rules: [SSH, HTTPS, OUT] });
    await f.stack.up();
    assert.deepEqual(await f.stateIds('SecurityGroup'), [id]);
    assert.equal((await groups.getGroup(Number(id))).description, 'the web tier');
    assert.deepEqual(await ports(id), [22, 443, null]);

    // Out of band over XML-RPC: the SSH rule removed. Refresh sees it; up puts it back.
    const ssh = (await groups.getGroup(Number(id))).rules!.find((r) => r.portRangeMin === 22)!;
    await groups.removeRules(Number(id), [ssh.id]);
    await f.stack.refresh();
    const refreshed = (await f.stack.resources()).find((r) => r.id === id)!;
    assert.equal((refreshed.outputs?.rules as unknown[]).length, 2, 'refresh saw the rule gone');
    await f.stack.up();
    assert.deepEqual(await ports(id), [22, 443, null]);
    await f.stack.preview(['--expect-no-changes']);

    // Import (the plugin: Pulumi imports no dynamic resource, README's Limitations): a group
    // made over XML-RPC, then declared as it is: no change.
    const made = (await f.client.call('Network_SecurityGroup', 'createObject', {
      args: [{ name: `by-hand-${door.name}` }],
    })) as SecurityGroup;
    const web = { name, description: 'the web tier', rules: [SSH, HTTPS, OUT] };
    if (door.name === 'plugin') {
      await groups.addRules(made.id, [OUT]);
      await f.stack.run([
        'import',
        'svc:index:SecurityGroup',
        'imported',
        String(made.id),
        '--yes',
        '--protect=false',
      ]);
      await program.write(f, web, {
        name: `by-hand-${door.name}`,
        rules: [{ direction: 'egress' }],
      });
      assert.deepEqual((await f.stateIds('SecurityGroup')).sort(), [id, String(made.id)].sort());
      await f.stack.preview(['--expect-no-changes']);
    } else {
      await groups.deleteGroup(made.id);
    }

    await f.stack.destroy();
    assert.equal(await groups.findGroup(Number(id)), undefined);
    assert.equal(await groups.findGroup(made.id), undefined);
  } finally {
    await f.close();
  }
}

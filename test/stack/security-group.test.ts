import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import { SecurityGroupManager, type SecurityGroup } from '../../provider/managers';
import { cliFixture, type CliFixture, type Emulator } from './cli';
import { frontDoors, type FrontDoor } from './front-door';
import { yamlOnPlugin } from './plugin-project';

type Args = Record<string, unknown>;

const SSH = {
  direction: 'ingress',
  protocol: 'tcp',
  portRangeMin: 22,
  portRangeMax: 22,
  remoteIp: '10.0.0.0/8',
};
const HTTPS = { direction: 'ingress', protocol: 'tcp', portRangeMin: 443, portRangeMax: 443 };
const OUT = { direction: 'egress' as const };

/** A program of the group `web` (and `imported`), written for one door. */
interface Program {
  fixture(emulator: Emulator): Promise<CliFixture>;
  write(f: CliFixture, web: Args, imported?: Args): Promise<void>;
}

const yamlProgram = (): Program => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sg-yaml-'));
  const write = (web: Args, imported?: Args) => {
    const resources: Args = { web: { type: 'svc:index:SecurityGroup', properties: web } };
    if (imported) resources.imported = { type: 'svc:index:SecurityGroup', properties: imported };
    const lines = [...yamlOnPlugin('network'), `resources: ${JSON.stringify(resources)}`];
    fs.writeFileSync(path.join(dir, 'Pulumi.yaml'), `${lines.join('\n')}\n`);
  };
  return {
    fixture: async (emulator) => {
      write({ name: 'x' });
      const f = await cliFixture({ program: dir, inPlace: true, emulator });
      return {
        ...f,
        close: async () => (await f.close(), fs.rmSync(dir, { recursive: true, force: true })),
      };
    },
    write: async (_f, web, imported) => write(web, imported),
  };
};

const tsProgram = (): Program => ({
  fixture: (emulator) => cliFixture({ program: 'network', emulator }),
  write: (f, web) => f.stack.setConfig({ 'network:group': { value: JSON.stringify(web) } }),
});

describe('SecurityGroup through the Pulumi CLI: create, change in place, drift, import, destroy', () => {
  let emulator: Emulator;
  before(
    async () =>
      (emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 200 })),
  );
  after(() => emulator?.close());

  for (const door of frontDoors()) {
    it(`through the ${door.name} door`, { timeout: 600_000 }, () => scenario(door, emulator));
  }
});

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program = door.name === 'plugin' ? yamlProgram() : tsProgram();
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

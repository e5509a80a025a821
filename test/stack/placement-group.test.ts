import assert from 'node:assert/strict';
import { cliFixture, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';
import { guestTemplate } from '../support/emulator-harness';

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'network', emulator }),
  write: (f, spread) =>
    f.stack.setConfig({ 'network:placementGroup': { value: JSON.stringify(spread) } }),
});

scenarioPerDoor(
  'PlacementGroup through the Pulumi CLI: create, rename in place, a delete refused while it holds a guest, import, destroy',
  scenario,
);

interface Group {
  id: number;
  name: string;
}

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin'
      ? yamlOneKind('network', 'PlacementGroup', 'spread', { name: 'x', datacenter: 'dal10' })
      : tsProgram();
  const f = await program.fixture(emulator);
  try {
    const group = (id: number | string) =>
      f.client.call('Virtual_PlacementGroup', 'getObject', {
        id: Number(id),
        mask: 'id,name,guests.id',
      }) as Promise<Group & { guests?: { id: number }[] }>;
    const live = async () =>
      ((await f.client.call('Account', 'getPlacementGroups', { mask: 'id' })) as Group[]).map((g) =>
        String(g.id),
      );
    const name = `spread-${door.name}`;

    await program.write(f, { name, datacenter: 'dal10' });
    await f.stack.up();
    const [id] = await f.stateIds('PlacementGroup');
    assert.ok((await live()).includes(id));

    // The name in place: the same group.
    await program.write(f, { name: `${name}-2`, datacenter: 'dal10' });
    await f.stack.up();
    assert.deepEqual(await f.stateIds('PlacementGroup'), [id]);
    assert.equal((await group(id)).name, `${name}-2`);

    // A guest ordered into it over XML-RPC: refresh sees it; destroy is refused, naming it.
    const guest = (await f.client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname: `in-${door.name}`, placementGroupId: Number(id) })],
    })) as { id: number };
    await f.stack.refresh();
    const refreshed = (await f.stack.resources()).find((r) => r.id === id)!;
    assert.deepEqual(refreshed.outputs?.guestIds, [guest.id]);
    await assert.rejects(f.stack.destroy(), /still holds guests in-\w+ \(id \d+\)/);
    assert.deepEqual(await f.stateIds('PlacementGroup'), [id], 'the group stays in the stack');
    await f.client.call('Virtual_Guest', 'deleteObject', { id: guest.id });

    // Import (the plugin: Pulumi imports no dynamic resource): a group made over XML-RPC.
    let byHand: Group | undefined;
    if (door.name === 'plugin') {
      const [router] = (await f.client.call('Virtual_PlacementGroup', 'getAvailableRouters', {
        mask: 'id,topLevelLocation.name',
      })) as { id: number; topLevelLocation: { name: string } }[];
      byHand = (await f.client.call('Virtual_PlacementGroup', 'createObject', {
        args: [{ name: 'by-hand', backendRouterId: router.id, ruleId: 1 }],
      })) as Group;
      await f.stack.run([
        'import',
        'svc:index:PlacementGroup',
        'imported',
        String(byHand.id),
        '--yes',
        '--protect=false',
      ]);
      await program.write(
        f,
        { name: `${name}-2`, datacenter: 'dal10' },
        { name: 'by-hand', datacenter: router.topLevelLocation.name, backendRouterId: router.id },
      );
      assert.deepEqual((await f.stateIds('PlacementGroup')).sort(), [id, String(byHand.id)].sort());
      await f.stack.preview(['--expect-no-changes']);
    }

    await f.stack.destroy();
    const left = await live();
    assert.ok(!left.includes(id), 'the group is deleted');
    if (byHand) assert.ok(!left.includes(String(byHand.id)), 'the imported group is deleted');
    assert.deepEqual(await f.stateIds('PlacementGroup'), []);
  } finally {
    await f.close();
  }
}

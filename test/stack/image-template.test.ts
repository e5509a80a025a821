import assert from 'node:assert/strict';
import type { Client } from '../../provider/client';
import { ImageManager, type ImageTemplate } from '../../provider/managers';
import { cliFixture, writeCalls, type Emulator } from './cli';
import { scenarioPerDoor, type FrontDoor } from './front-door';
import { yamlOneKind, type OneKindProgram } from './plugin-project';
import { guestTemplate } from '../support/emulator-harness';
import { untilIdle } from '../support/idle-guest';

const CAPTURE = 'Virtual_Guest.createArchiveTransaction';

const tsProgram = (): OneKindProgram => ({
  fixture: (emulator) => cliFixture({ program: 'image', emulator }),
  write: (f, data) => f.stack.setConfig({ 'image:base': { value: JSON.stringify(data) } }),
});

scenarioPerDoor(
  'ImageTemplate through the Pulumi CLI: capture once (its answer lost), rename in place, a deadline, destroy',
  scenario,
);

/** A provisioned, idle guest in dal10, made over XML-RPC. */
async function idleGuest(client: Client, hostname: string): Promise<number> {
  const { id } = (await client.call('Virtual_Guest', 'createObject', {
    args: [guestTemplate({ hostname, domain: 'image.example.com' })],
  })) as { id: number };
  return untilIdle(client, id);
}

async function scenario(door: FrontDoor, emulator: Emulator): Promise<void> {
  const program =
    door.name === 'plugin' ? yamlOneKind('image', 'ImageTemplate', 'base', {}) : tsProgram();
  const f = await program.fixture(emulator);
  const images = new ImageManager(f.client);
  const before = (await images.listPrivate()).map((t) => t.id);
  const made = async () => (await images.listPrivate()).filter((t) => !before.includes(t.id));
  const captures = () => writeCalls(emulator, CAPTURE);
  try {
    const guestId = await idleGuest(f.client, `web-${door.name}`);
    const data = { guestId, name: `web-base-${door.name}`, note: 'nginx baked in' };
    await program.write(f, data);

    // The capture's answer is lost: the template is found by its token, not captured twice.
    const capturedBefore = captures();
    emulator.setFaults({
      once: {
        service: 'Virtual_Guest',
        method: 'createArchiveTransaction',
        fault: 'lose-response',
      },
    });
    await f.stack.up();
    const [id] = await f.stateIds('ImageTemplate');
    const [template, ...others] = await made();
    assert.deepEqual(others, [], 'exactly one template');
    assert.equal(String(template.id), id);
    assert.equal(template.status?.keyName, 'ACTIVE');
    assert.equal(template.note, 'nginx baked in', "the program's note, not the token");
    assert.equal(captures() - capturedBefore, 1, 'one capture sent');

    // Another up: nothing to do, nothing captured.
    await f.stack.up();
    await f.stack.preview(['--expect-no-changes']);
    assert.equal(captures() - capturedBefore, 1, 'no second capture');

    // A rename and another datacenter: in place, the same template.
    const renamed = { ...data, name: `web-base-${door.name}-v2`, datacenters: ['dal10', 'wdc07'] };
    await program.write(f, renamed);
    await f.stack.up();
    assert.deepEqual(await f.stateIds('ImageTemplate'), [id]);
    const after: ImageTemplate = await images.getTemplate(Number(id));
    assert.equal(after.name, renamed.name);
    assert.deepEqual(after.datacenters?.map((d) => d.name).sort(), ['dal10', 'wdc07']);
    assert.equal((await made()).length, 1, 'no second template');

    await f.stack.destroy();
    assert.deepEqual(await made(), [], 'the template is deleted');
    assert.deepEqual(await f.stateIds('ImageTemplate'), []);

    if (door.name === 'plugin') {
      // customTimeouts: a capture past its deadline fails with the id kept; the next up captures
      // nothing and finishes that template.
      const slow = { ...data, name: `slow-${door.name}` };
      const capturesBefore = captures();
      emulator.settings.provisioningDelayMs = 8_000;
      try {
        await program.write(f, slow, undefined, { customTimeouts: { create: '3s' } });
        await assert.rejects(f.stack.up(), /still being captured/);
      } finally {
        emulator.settings.provisioningDelayMs = 200;
      }
      const [kept] = await made();
      assert.deepEqual(await f.stateIds('ImageTemplate'), [String(kept.id)], 'the id is kept');
      await program.write(f, slow);
      await f.stack.up();
      assert.equal(captures() - capturesBefore, 1, 'no second capture');
      assert.deepEqual(
        (await made()).map((t) => t.id),
        [kept.id],
      );
      assert.equal((await images.getTemplate(kept.id)).note, 'nginx baked in');
      await f.stack.destroy();
      assert.deepEqual(await made(), []);
    }
  } finally {
    await f.close();
  }
}

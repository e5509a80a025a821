import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../provider/client';
import { claimScope, inScope, release, releaseUnanswered } from '../../provider/framework/claims';
import { LOOKUPS, PROVIDERS } from '../../provider/kinds';
import type { ImageTemplate } from '../../provider/managers';
import { providerEnv, type Emulator } from '../support/provider-env';
import { outputProblems } from '../support/schema-types';
import { guestTemplate } from '../support/emulator-harness';
import { untilIdle } from '../support/idle-guest';

type Bag = Record<string, unknown>;
const provider = PROVIDERS.ImageTemplate;

describe('ImageTemplate provider against the emulator', () => {
  let emulator: Emulator;
  let client: Client;
  before(async () => ({ emulator, client } = await providerEnv(300)));
  after(() => emulator?.close());

  const calls = (method: string) => emulator.stats().calls[method] ?? 0;
  const templates = async () =>
    (await client.call('Account', 'getPrivateBlockDeviceTemplateGroups', {
      mask: 'id,name,note,status.keyName,datacenters[id,name]',
    })) as ImageTemplate[];
  /** A provisioned, idle guest to capture. */
  async function idleGuest(hostname: string) {
    const { id } = (await client.call('Virtual_Guest', 'createObject', {
      args: [guestTemplate({ hostname })],
    })) as { id: number };
    return untilIdle(client, id);
  }
  const declared = (name: string, guestId: number, extra: Bag = {}): Bag => ({
    resourceName: name,
    identity: `proj/dev/${name}`,
    provenance: `test/${name}-${Math.random()}`,
    guestId,
    name: `${name}-image`,
    ...extra,
  });
  const checked = async (olds: Bag, news: Bag) => {
    const result = await provider.check(olds, news);
    assert.deepEqual(result.failures, []);
    return result.inputs!;
  };

  it('check names the field and the rule before anything is captured', async () => {
    const guestId = await idleGuest('rules');
    const captures = calls('Virtual_Guest.createArchiveTransaction');
    const problems = async (extra: Bag) =>
      (await provider.check({}, declared('bad', guestId, extra))).failures?.map(
        (f) => `${f.property}: ${f.reason}`,
      );
    assert.match(String(await problems({ name: '' })), /^name: /);
    assert.match(String(await problems({ name: 'x'.repeat(101) })), /name.*100 characters/);
    assert.match(String(await problems({ datacenters: ['Dallas'] })), /datacenters.*dal10/);
    assert.match(String(await problems({ datacenters: [] })), /datacenters must name at least one/);
    assert.match(String(await problems({ datacenters: ['xyz99'] })), /no datacenter named xyz99/);
    assert.match(String(await problems({ guestId: 999_999_999 })), /guestId: .*no guest 999999999/);
    assert.match(String(await problems({ guestId: 0 })), /^guestId: /);
    assert.equal(calls('Virtual_Guest.createArchiveTransaction'), captures, 'nothing captured');
  });

  it('captures once (its answer lost), waits until active, renames in place, keeps its datacenters, imports, deletes', async () => {
    const guestId = await idleGuest('web');
    const inputs = await checked({}, declared('base', guestId, { note: 'nginx baked in' }));
    emulator.setFaults({
      once: {
        service: 'Virtual_Guest',
        method: 'createArchiveTransaction',
        fault: 'lose-response',
      },
    });
    const { id, outs } = await provider.create(inputs);
    const [only, ...others] = await templates();
    assert.deepEqual(others, [], 'one template, not two');
    assert.equal(String(only.id), id);
    assert.equal(only.status?.keyName, 'ACTIVE');
    assert.equal(only.note, 'nginx baked in', 'the declared note replaced the token');
    assert.equal(outs!.status, 'ACTIVE');
    assert.match(String(outs!.globalIdentifier), /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      only.datacenters?.map((d) => d.name),
      ['dal10'],
      "left out: the guest's datacenter",
    );
    assert.deepEqual(outputProblems('ImageTemplate', outs!), []);

    const renamed = await checked(outs!, {
      ...declared('base', guestId),
      name: 'web-base-v2',
      datacenters: ['dal10', 'wdc07'],
    });
    const diff = await provider.diff(id, outs!, renamed);
    assert.deepEqual(diff.replaces, [], 'name, note and datacenters change in place');
    const updated = await provider.update(id, outs!, renamed);
    const [after] = await templates();
    assert.equal(after.id, Number(id), 'the same template');
    assert.equal(after.name, 'web-base-v2');
    assert.ok(!after.note, 'the note removed');
    assert.deepEqual(after.datacenters?.map((d) => d.name).sort(), ['dal10', 'wdc07']);

    // A datacenter removed outside Pulumi: drift that refresh shows and update puts back.
    const dal10 = after.datacenters!.find((d) => d.name === 'dal10')!;
    await client.call('Virtual_Guest_Block_Device_Template_Group', 'setAvailableLocations', {
      id: Number(id),
      args: [[{ id: dal10.id }]],
    });
    const refreshed = await provider.read(id, updated.outs!);
    assert.deepEqual((refreshed.props as Bag).datacenters, ['dal10']);
    const repaired = await provider.update(id, refreshed.props as Bag, renamed);
    assert.deepEqual(repaired.outs!.datacenters, ['dal10', 'wdc07']);

    const imported = await provider.read(id, {});
    assert.deepEqual(
      [imported.inputs?.name, imported.inputs?.datacenters, imported.inputs?.guestId],
      ['web-base-v2', ['dal10', 'wdc07'], undefined],
    );
    // The API does not record the guest: an import checks without one, and declaring it later
    // replaces nothing.
    const asImported = await checked(imported.inputs!, imported.inputs!);
    const declaredLater = await checked(asImported, { ...asImported, guestId });
    const later = await provider.diff(id, { ...imported.props, ...asImported }, declaredLater);
    assert.deepEqual(later.replaces, []);
    const noGuest = await provider.check({}, { ...declared('x', guestId), guestId: undefined });
    assert.match(String(noGuest.failures?.[0]?.reason), /guestId is required/);

    const other = await idleGuest('other');
    const moved = await checked(repaired.outs!, {
      ...declared('base', other),
      name: 'web-base-v2',
    });
    assert.deepEqual((await provider.diff(id, repaired.outs!, moved)).replaces, ['guestId']);

    await provider.delete(id, repaired.outs!);
    assert.deepEqual(await templates(), []);
    assert.deepEqual(await provider.read(id, repaired.outs!), {}, 'gone: it leaves the stack');
  });

  it('a capture past its deadline fails with the id kept; the next create captures nothing twice', async () => {
    const guestId = await idleGuest('slow');
    const inputs = await checked({}, declared('slow', guestId));
    const before = (await templates()).length;
    emulator.settings.provisioningDelayMs = 4_000;
    try {
      const request = { signal: new AbortController().signal, deadline: Date.now() + 2_000 };
      const err = await provider.create(inputs, request).then(
        () => assert.fail('a 4 s capture ended within a 2 s deadline'),
        (e: Error & { id?: string }) => e,
      );
      assert.match(err.message, /still being captured after \d+ s/);
      assert.ok(err.id, 'the error carries the id');
      // A killed CLI loses even that: the next create finds the template by its token.
      const again = await provider.create(inputs);
      assert.equal(again.id, err.id, 'the same template, no second capture');
      assert.equal((await templates()).length, before + 1);
      await provider.delete(again.id, again.outs!);
    } finally {
      emulator.settings.provisioningDelayMs = 300;
    }
  });

  it('a run killed after the handover was sent puts the token back as the note; the next create takes the template over', async () => {
    const guestId = await idleGuest('handover');
    const inputs = await checked({}, declared('handover', guestId, { note: 'base' }));
    const captures = calls('Virtual_Guest.createArchiveTransaction');
    // The create completes, but its engine never sees the answer (a killed CLI).
    const scope = claimScope();
    const first = await inScope(scope, () => provider.create(inputs));
    const noteOf = async (id: string) => (await templates()).find((t) => t.id === Number(id))?.note;
    assert.equal(await noteOf(first.id), 'base', 'handed over');
    release(scope);
    await releaseUnanswered();
    assert.equal(await noteOf(first.id), inputs.creationToken, 'the token is back: unfinished');
    const again = await provider.create(inputs);
    assert.equal(again.id, first.id, 'taken over');
    assert.equal(calls('Virtual_Guest.createArchiveTransaction') - captures, 1, 'one capture');
    assert.equal(await noteOf(again.id), 'base');
    await provider.delete(again.id, again.outs!);
  });

  it('getImageTemplates lists the private and public templates, by name', async () => {
    const lookup = LOOKUPS.getImageTemplates;
    const guestId = await idleGuest('listed');
    const made = await provider.create(await checked({}, declared('listed', guestId)));
    const all = (await lookup.call(client, {})) as Bag[];
    assert.ok(all.some((t) => t.id === made.outs!.templateId && t.publicFlag === false));
    assert.ok(all.some((t) => t.publicFlag === true));
    const publicOnes = (await lookup.call(client, { visibility: 'public' })) as Bag[];
    assert.ok(publicOnes.length > 0 && publicOnes.every((t) => t.publicFlag === true));
    const byName = (await lookup.call(client, {
      visibility: 'private',
      name: 'listed-image',
    })) as Bag[];
    assert.deepEqual(
      byName.map((t) => t.id),
      [made.outs!.templateId],
    );
    await provider.delete(made.id, made.outs!);
  });
});

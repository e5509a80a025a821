import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { VirtualGuest } from '../../provider/managers';
import { cliFixture, writeCalls, type CliFixture } from './cli';
import { yamlOnPlugin } from './plugin-project';

const program = (osCode: string, userData: string) => `
resources:
  app:
    type: svc:index:VirtualGuest
    properties:
      domain: reload.example.com
      datacenter: dal10
      startCpus: 1
      maxMemory: 1024
      operatingSystemReferenceCode: ${osCode}
      userData: ${JSON.stringify(userData)}
      onImageChange: reload
`;

// Through the CLI on the plugin: with `onImageChange: reload`, an OS and user-data change is
// previewed as an update in place (no BILLING line), and `up` reloads the same guest once.
describe('onImageChange: reload through the Pulumi CLI (YAML on the plugin)', () => {
  let f: CliFixture;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-reload-'));
  const write = (osCode: string, userData: string) =>
    fs.writeFileSync(
      path.join(dir, 'Pulumi.yaml'),
      [...yamlOnPlugin('reload'), program(osCode, userData)].join('\n'),
    );
  after(async () => {
    await f?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('previews the reload in place, then reloads the same guest once: same id, addresses and bill', async () => {
    write('DEBIAN_12_64', '#one');
    f = await cliFixture({ program: dir, inPlace: true, provisioningDelayMs: 500 });
    await f.stack.up();
    const mask = 'id,primaryIpAddress,billingItem.id,operatingSystemReferenceCode,userData.value';
    const read = async () => {
      const [g] = (await f.client.call('Account', 'getVirtualGuests', {
        mask,
      })) as (VirtualGuest & {
        billingItem: { id: number };
      })[];
      return g;
    };
    const before = await read();

    write('UBUNTU_LATEST', '#two');
    const preview = await f.stack.preview(['--json']);
    const plan = JSON.parse(preview.stdout) as {
      steps: { op: string; urn: string }[];
      diagnostics?: { message?: string }[];
    };
    const step = plan.steps.find((s) => s.urn.endsWith('::app'))!;
    assert.equal(step.op, 'update', 'reloaded in place, not replaced');
    const said = (plan.diagnostics ?? []).map((d) => d.message ?? '').join('');
    assert.match(
      said,
      /reloaded in place \(changed: operatingSystemReferenceCode, userData\): same guest, id, addresses and bill; the primary disk is erased/,
    );
    assert.doesNotMatch(said, /BILLING/, 'no billing change');

    await f.stack.up();
    const after = await read();
    assert.deepEqual(
      [after.id, after.primaryIpAddress, after.billingItem.id],
      [before.id, before.primaryIpAddress, before.billingItem.id],
    );
    assert.equal(after.operatingSystemReferenceCode, 'UBUNTU_24_64');
    assert.deepEqual(after.userData, [{ value: '#two' }]);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.reloadOperatingSystem'), 1);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'one order only');
    await f.stack.preview(['--expect-no-changes']);
    await f.stack.destroy();
  });
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import { VirtualGuestManager, tagNames, type VirtualGuest } from '../../provider/managers';
import { cliFixture, hasTag, writeCalls, type CliFixture } from './cli';
import { yamlOnPlugin } from './plugin-project';

/** A YAML program using the plugin: `resources` is the YAML of its resources section. */
function yamlProject(resources: string, outputs = ''): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-yaml-'));
  fs.writeFileSync(
    path.join(dir, 'Pulumi.yaml'),
    [
      ...yamlOnPlugin('yaml-plugin'),
      'resources:',
      resources,
      outputs ? `outputs:\n${outputs}` : '',
    ].join('\n'),
  );
  return dir;
}

const guest = (name: string, cpus: number, options = '') => `  ${name}:
    type: svc:index:VirtualGuest
    properties:
      domain: plugin.example.com
      datacenter: dal10
      startCpus: ${cpus}
      maxMemory: 1024
      operatingSystemReferenceCode: UBUNTU_LATEST
      tags: [plugin]
${options}`;

// The same kinds served as a real provider plugin (`pulumi-resource-svc`, from the field tables'
// schema) to a YAML program through the CLI: what works in every Pulumi language, import and
// customTimeouts included, with the same exactly-once and ownership rules.
describe('the provider plugin through the Pulumi CLI (YAML)', { concurrency: true }, () => {
  const fixtures: CliFixture[] = [];
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const fixture = async (program: string, provisioningDelayMs?: number) => {
    dirs.push(program);
    const f = await cliFixture({ program, inPlace: true, provisioningDelayMs });
    fixtures.push(f);
    return f;
  };
  const plugin = (f: CliFixture) => f.guests(hasTag('plugin'));

  it('up, a no-op up, an in-place upgrade previewed as an update, and destroy; no code in the state', async () => {
    const dir = yamlProject(
      `${guest('web', 1)}
  a:
    type: svc:index:DnsRecord
    properties:
      zoneName: example.com
      host: plugin-web
      type: A
      data: \${web.primaryIpAddress}`,
      [
        '  ip: ${web.primaryIpAddress}',
        '  id: ${web.guestId}',
        '  company:',
        '    fn::invoke:',
        '      function: svc:index:getAccount',
        '      arguments: {}',
        '      return: companyName',
        '  zoneRecords:',
        '    fn::invoke:',
        '      function: svc:index:getDnsZone',
        '      arguments:',
        '        name: example.com',
        '      return: resourceRecords',
      ].join('\n'),
    );
    const f = await fixture(dir);
    await f.stack.up();
    const [created] = await plugin(f);
    const outputs = await f.stack.outputs();
    assert.equal(outputs.ip, created.primaryIpAddress);
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'fn::invoke of a lookup');
    // Invokes run as the program is evaluated, before this stack's record exists.
    const seeded = (await f.client.call('Dns_Domain', 'getByDomainName', {
      args: ['example.com'],
      mask: 'id,resourceRecords.host',
    })) as { resourceRecords: { host: string }[] }[];
    assert.deepEqual(
      (outputs.zoneRecords as { host: string }[]).map((r) => r.host).sort(),
      seeded[0].resourceRecords
        .map((r) => r.host)
        .filter((host) => host !== 'plugin-web')
        .sort(),
    );
    assert.deepEqual(await f.stateIds('VirtualGuest'), [String(created.id)]);
    const exported = JSON.stringify(await f.stack.resources());
    assert.doesNotMatch(exported, /__provider|require\(|function\s*\(/, 'no code in the state');

    await f.stack.preview(['--expect-no-changes']);
    await f.stack.up(['--expect-no-changes']);

    fs.writeFileSync(
      path.join(dir, 'Pulumi.yaml'),
      fs
        .readFileSync(path.join(dir, 'Pulumi.yaml'), 'utf8')
        .replace('startCpus: 1', 'startCpus: 2'),
    );
    const preview = JSON.parse((await f.stack.preview(['--json'])).stdout) as {
      steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[];
    };
    const web = preview.steps.find((s) => s.urn.endsWith('::web'))!;
    assert.equal(web.op, 'update', 'a size change is an upgrade in place');
    assert.deepEqual(Object.keys(web.detailedDiff ?? {}), ['startCpus']);
    await f.stack.up();
    const [upgraded] = await plugin(f);
    assert.equal(upgraded.id, created.id, 'the same guest');
    assert.equal(upgraded.startCpus ?? upgraded.maxCpu, 2);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'one order only');

    await f.stack.destroy();
    assert.deepEqual(await plugin(f), []);
    // The engine cancels its providers as it closes every run; none of these was cancelled.
    assert.doesNotMatch(f.output(), /\[svc\] cancelled:/);
  });

  it('pulumi import takes a guest ordered out of band by id alone; declaring it is then a no-op', async () => {
    const dir = yamlProject(guest('other', 1));
    const f = await fixture(dir);
    const ordered = await new VirtualGuestManager(f.client).createFromTemplate({
      hostname: 'imported',
      domain: 'plugin.example.com',
      startCpus: 1,
      maxMemory: 1024,
      hourlyBillingFlag: true,
      localDiskFlag: true,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      datacenter: { name: 'dal10' },
    });
    await f.stack.run([
      'import',
      'svc:index:VirtualGuest',
      'imported',
      String(ordered.id),
      '--yes',
      '--protect=false',
    ]);
    const state = (await f.stack.resources()).find((r) => r.urn.endsWith('::imported'))!;
    assert.equal(state.id, String(ordered.id));
    assert.equal(state.inputs?.startCpus, 1, 'inputs read from the API');
    assert.equal(state.inputs?.hostname, 'imported');

    fs.writeFileSync(
      path.join(dir, 'Pulumi.yaml'),
      `${fs.readFileSync(path.join(dir, 'Pulumi.yaml'), 'utf8')}
  imported:
    type: svc:index:VirtualGuest
    properties:
      hostname: imported
      domain: plugin.example.com
      datacenter: dal10
      startCpus: 1
      maxMemory: 1024
      operatingSystemReferenceCode: UBUNTU_LATEST
`,
    );
    // The program now declares what was imported: nothing to change on it.
    await f.stack.preview(['--expect-no-changes', '--target', state.urn]);
    await f.stack.destroy();
    assert.equal(
      await new VirtualGuestManager(f.client).findInstance(ordered.id, 'id'),
      undefined,
      'once imported it is owned: destroy cancels it',
    );
  });

  it('customTimeouts: a create past its deadline fails with the id kept; the next up orders nothing', async () => {
    const dir = yamlProject(
      guest('slow', 1, '    options:\n      customTimeouts:\n        create: 5s\n'),
    );
    const f = await fixture(dir, 20_000);
    const started = Date.now();
    await assert.rejects(f.stack.up(), /slow/);
    assert.ok(Date.now() - started < 40_000, 'the deadline ended the create');
    const [ordered] = (await plugin(f)) as VirtualGuest[];
    assert.deepEqual(await f.stateIds('VirtualGuest'), [String(ordered.id)], 'the id is kept');
    await f.stack.up();
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'no second order');
    assert.deepEqual(
      (await plugin(f)).map((g) => g.id),
      [ordered.id],
    );
    await f.stack.destroy();
  });

  it("a slow create shows its stage on the guest's own row, not a lasting line per poll; its billing line stays under it", async () => {
    const f = await fixture(yamlProject(guest('slow', 1)), 6_000);
    const { stdout } = await f.stack.up();
    const [diagnostics] = stdout.split('Diagnostics:').slice(1);
    // The row of the guest shows where provisioning is (the engine's ephemeral status)...
    assert.match(
      stdout,
      /VirtualGuest slow creating \(\d+s\) (Assign Host|Provision DNS|Install Operating System)/,
    );
    // ...and what lasts is said under the guest, once: its bill, not the polls.
    assert.match(
      diagnostics,
      /svc:index:VirtualGuest \(slow\):\n\s+\[svc\] BILLING create VirtualGuest "slow"/,
    );
    assert.doesNotMatch(
      diagnostics,
      /Assign Host|Provision DNS|Install Operating System|\(\d+ s\)/,
    );
    assert.doesNotMatch(
      stdout,
      /Stack \S+ creating \(\d+s\) \[svc\]/,
      'nothing said on the stack row',
    );
    assert.equal((await plugin(f)).length, 1);
    await f.stack.destroy();
  });

  it('Ctrl-C during a slow guest create: Cancel ends the wait at once with the id kept; the next up orders nothing', async () => {
    const f = await fixture(yamlProject(guest('slow', 1)), 20_000);
    const run = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
    while (
      writeCalls(f.emulator, 'Virtual_Guest.createObject') === 0 &&
      run.child.exitCode === null
    )
      await sleep(50);
    await sleep(1_000); // the create now waits for the guest to be ready
    const interrupted = Date.now();
    process.kill(run.child.pid!, 'SIGINT'); // a first Ctrl-C: the engine cancels, gracefully
    const { code, stdout } = await run.done;
    const waited = Date.now() - interrupted;
    assert.notEqual(code, 0);
    assert.match(stdout, /cancelled after \d+ s while guest \d+ was not ready yet/);
    assert.match(
      stdout,
      /\[svc\] cancelled: nothing more is written; 1 operation\(s\) in progress/,
    );
    assert.ok(
      waited < 10_000,
      `the up ended ${waited} ms after Ctrl-C, not when the guest was ready`,
    );
    const [ordered] = (await plugin(f)) as VirtualGuest[];
    assert.deepEqual(await f.stateIds('VirtualGuest'), [String(ordered.id)], 'the id is kept');
    assert.ok(tagNames(ordered).includes(OWNED_TAG), 'marked owned: handed to the state');

    // No lock, no pending operation to clear: the next up waits for the guest, orders nothing.
    await f.stack.up();
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1, 'no second order');
    assert.deepEqual(
      (await plugin(f)).map((g) => g.id),
      [ordered.id],
    );
    await f.stack.up(['--expect-no-changes']);
    await f.stack.destroy();
    assert.deepEqual(await plugin(f), []);
  });

  it('a plain-text svc:apiKey and a secret input are kept encrypted in the state', async () => {
    const notes = 'private-notes-7f3a9';
    const secretNotes = `tags: [plugin]\n      notes:\n        fn::secret: ${notes}`;
    const f = await fixture(yamlProject(guest('web', 1).replace('tags: [plugin]', secretNotes)));
    const { apiKey } = f.emulator.credentials;
    await f.stack.setConfig({ 'svc:apiKey': { value: apiKey } });
    await f.stack.up();
    const exported = await f.stack.capture(['stack', 'export']);
    assert.ok(!exported.includes(apiKey), 'the key is not in the state in plain text');
    assert.ok(!exported.includes(notes), 'nor the secret input, in its inputs or outputs');
    const [web] = await plugin(f);
    const { notes: onGuest } = await new VirtualGuestManager(f.client).getInstance(web.id, 'notes');
    assert.equal(onGuest, notes, 'the guest has it');
    const provider = (await f.stack.resources()).find((r) => r.type === 'pulumi:providers:svc');
    assert.ok(
      JSON.stringify(provider?.inputs?.apiKey).includes('ciphertext'),
      "the provider's apiKey input is a secret",
    );
    await f.stack.destroy();
  });

  it('bad input is refused naming the field before anything is ordered', async () => {
    const dir = yamlProject(guest('bad', 1).replace('startCpus: 1', 'startCpus: two'));
    const f = await fixture(dir);
    await assert.rejects(f.stack.up(), /startCpus/);
    assert.equal(writeCalls(f.emulator), 0, 'nothing written');
  });
});

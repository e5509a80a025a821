import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { MigrateReport } from '../../commands/migrate-command';
import type { ExportedResource, ExportedState } from '../../commands/migrate';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { cliFixture, hasTag, writeCalls, type CliFixture } from './cli';
import { yamlOnPlugin } from './plugin-project';

const run = promisify(execFile);

/** test/stack/programs/migrate/index.ts as a YAML program on the plugin: the same stack. */
function pluginProgram({ webCpus = 1, protectDb = true } = {}): string {
  const guest = (name: string, cpus: number, more: string[]) =>
    [
      `  ${name}:`,
      '    type: svc:index:VirtualGuest',
      '    properties:',
      '      domain: migrate.example.com',
      '      datacenter: dal10',
      `      startCpus: ${cpus}`,
      '      maxMemory: 1024',
      '      operatingSystemReferenceCode: UBUNTU_LATEST',
      '      tags: [migrate]',
      ...more,
    ].join('\n');
  return [
    ...yamlOnPlugin('migrateapp'),
    'resources:',
    guest('web', webCpus, ['      notes:', '        fn::secret: the web tier']),
    guest('db', 1, protectDb ? ['    options:', '      protect: true'] : []),
    '  web-a:',
    '    type: svc:index:DnsRecord',
    '    properties:',
    '      zoneName: example.com',
    '      host: ${web.hostname}',
    '      type: A',
    '      data: ${web.primaryIpAddress}',
    '    options:',
    '      parent: ${web}',
    'outputs:',
    '  ids:',
    '    - ${web.id}',
    '    - ${db.id}',
    '',
  ].join('\n');
}

const SECRET = '4dabf18193072939515e22adb298388d';

/**
 * Inputs and outputs of the resources, secrets reduced to their marker (ciphertexts vary), less
 * the properties named in `aside`.
 */
function properties(state: ExportedState, aside: string[] = []): Record<string, unknown> {
  const kept = (props?: Record<string, unknown>) =>
    props && Object.fromEntries(Object.entries(props).filter(([key]) => !aside.includes(key)));
  const masked = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(masked);
    if (value && typeof value === 'object') {
      if (SECRET in value) return '[secret]';
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
    }
    return value;
  };
  return Object.fromEntries(
    (state.deployment.resources ?? []).map((r) => [
      r.urn,
      masked({
        id: r.id,
        inputs: kept(r.inputs),
        outputs: kept(r.outputs),
        parent: r.parent,
        protect: r.protect,
        dependencies: r.dependencies,
        propertyDependencies: r.propertyDependencies,
      }),
    ]),
  );
}

// `pulumi-svc migrate` on a stack the dynamic classes made (two guests and a record), then the
// same stack as a YAML program on the provider plugin: nothing to order, delete or show.
describe('moving a stack from the dynamic classes to the plugin', { concurrency: true }, () => {
  const fixtures: CliFixture[] = [];
  after(() => Promise.all(fixtures.map((f) => f.close())));
  const fixture = async (provisioningDelayMs?: number) => {
    const f = await cliFixture({ program: 'migrate', provisioningDelayMs });
    fixtures.push(f);
    return f;
  };

  const exportState = async (f: CliFixture) =>
    JSON.parse(await f.stack.capture(['stack', 'export'])) as ExportedState;
  const ours = (state: ExportedState) =>
    (state.deployment.resources ?? []).filter((r) => r.custom && /svc:/.test(r.type));
  const idsOf = (resources: ExportedResource[]) =>
    resources.map((r) => `${r.urn.split('::').pop()}=${r.id}`).sort();

  /** `pulumi-svc migrate <args> --json` as a user runs it in the project: the built command. */
  const migrate = async (f: CliFixture, args: string[]) => {
    const command = [path.join(PACKAGE_ROOT, 'dist', 'commands', 'cli.js'), 'migrate', '--json'];
    const { stdout } = await run(process.execPath, [...command, ...args], {
      cwd: f.dir,
      env: { ...process.env, ...f.stack.env },
    });
    f.stack.options.onOutput?.(stdout);
    return JSON.parse(stdout) as MigrateReport;
  };

  it('refuses a stack with pending operations (a killed up) and changes nothing', async () => {
    const f = await fixture(20_000);
    const up = f.stack.spawn(['up', '--yes', '--non-interactive', '--skip-preview']);
    for (let i = 0; i < 600 && writeCalls(f.emulator, 'Virtual_Guest.createObject') < 2; i++)
      await sleep(100);
    process.kill(up.child.pid!, 'SIGKILL'); // the CLI alone, as a crash would
    await up.done;
    await f.stack.run(['cancel', '--yes']);
    const before = await f.stack.capture(['stack', 'export']);
    assert.ok((JSON.parse(before) as ExportedState).deployment.pending_operations?.length);
    const refused = await migrate(f, ['--stack', 'test']).then(
      () => assert.fail('migrate moved a stack with pending operations'),
      (err: { code: number; stderr: string }) => err,
    );
    f.stack.options.onOutput?.(refused.stderr);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /stack test is left as it is:\n {2}- the stack has 2 pending/);
    assert.match(refused.stderr, /pulumi refresh --clear-pending-creates/);
    assert.equal(await f.stack.capture(['stack', 'export']), before, 'the state is untouched');
    assert.deepEqual(
      fs.readdirSync(f.dir).filter((file) => file.includes('backup')),
      [],
      'no backup: nothing was done',
    );
  });

  it('up on the dynamic classes; migrate; the plugin program is a no-op; upgrade; destroy', async () => {
    const f = await fixture();
    const apiKey = f.emulator.credentials.apiKey;
    await f.stack.up();
    const guests = await f.guests(hasTag('migrate'));
    assert.equal(guests.length, 2);
    const before = await exportState(f);
    const dynamicIds = idsOf(ours(before));
    assert.equal(dynamicIds.length, 3);
    assert.match(JSON.stringify(before), /__provider/, 'the dynamic classes store code');

    // A dry run says what would move and writes nothing.
    const plan = await migrate(f, ['--dry-run', '--stack', 'test']);
    assert.deepEqual(plan.moved.map((m) => m.name).sort(), ['db', 'web', 'web-a']);
    assert.equal(plan.backup, undefined);
    assert.deepEqual(properties(await exportState(f)), properties(before), 'nothing written');

    const report = await migrate(f, ['--stack', 'test']);
    assert.deepEqual(
      report.moved.map((m) => `${m.name}=${m.id}`).sort(),
      dynamicIds,
      'every id moves',
    );
    const backup = fs.readFileSync(report.backup!, 'utf8');
    assert.match(
      backup,
      /pulumi-nodejs:dynamic\/svc:VirtualGuest/,
      'the backup is the state before',
    );
    assert.equal(fs.statSync(report.backup!).mode & 0o077, 0, 'readable by its owner only');

    const migrated = await exportState(f);
    const text = JSON.stringify(migrated);
    assert.doesNotMatch(text, /__provider|pulumi-nodejs/, 'no code and no dynamic provider left');
    assert.deepEqual(idsOf(ours(migrated)), dynamicIds, 'the same ids');
    const byName = (name: string) => ours(migrated).find((r) => r.urn.endsWith(`::${name}`))!;
    assert.equal(byName('web').type, 'svc:index:VirtualGuest');
    assert.equal(byName('web-a').parent, byName('web').urn, 'the record stays the guest’s child');
    assert.equal(byName('db').protect, true, 'protect is kept');
    const secret = (r: ExportedResource) => [r.inputs?.notes, r.outputs?.notes];
    assert.deepEqual(
      secret(byName('web')).map((value) => SECRET in (value as object)),
      [true, true],
      'a secret stays a secret',
    );

    // The program on the dynamic classes now refuses to run: it would order everything again.
    const writes = writeCalls(f.emulator);
    await assert.rejects(
      f.stack.up(),
      /test was moved to the provider plugin by `pulumi-svc migrate`/,
    );
    assert.equal(writeCalls(f.emulator), writes, 'nothing ordered by the old program');

    // Now the same stack as a YAML program on the plugin.
    fs.rmSync(path.join(f.dir, 'index.ts'));
    fs.writeFileSync(path.join(f.dir, 'Pulumi.yaml'), pluginProgram());
    const preview = await f.stack.preview(['--diff', '--expect-no-changes']);
    assert.match(preview.stdout, /4 unchanged/);
    await f.stack.up(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator), writes, 'no API write: nothing ordered or cancelled');
    assert.deepEqual(
      (await f.guests(hasTag('migrate'))).map((g) => g.id).sort(),
      guests.map((g) => g.id).sort(),
      'the same guests',
    );
    // What the migration wrote is what the plugin keeps: the up changed no property, and the
    // secret input stays a secret in the inputs and the outputs.
    const afterUp = await exportState(f);
    assert.deepEqual(properties(afterUp, ['notes']), properties(migrated, ['notes']));
    const webAfterUp = ours(afterUp).find((r) => r.urn.endsWith('::web'))!;
    assert.deepEqual(
      secret(webAfterUp).map((value) => typeof value === 'object' && SECRET in (value as object)),
      [true, true],
    );
    // A refresh reads every resource through the plugin and finds nothing changed either.
    await f.stack.refresh(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator), writes, 'still no API write');

    // The stack is the plugin's now: a size change upgrades in place, destroy removes it all.
    fs.writeFileSync(
      path.join(f.dir, 'Pulumi.yaml'),
      pluginProgram({ webCpus: 2, protectDb: false }),
    );
    const steps = (
      JSON.parse((await f.stack.preview(['--json'])).stdout) as {
        steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[];
      }
    ).steps.filter((s) => s.op !== 'same');
    assert.deepEqual(
      steps.map((s) => [s.op, s.urn.split('::').pop(), Object.keys(s.detailedDiff ?? {})]),
      [['update', 'web', ['startCpus']]],
    );
    await f.stack.up();
    const web = (await f.guests(hasTag('migrate'))).find((g) => g.hostname.startsWith('web'))!;
    assert.equal(String(web.id), byName('web').id, 'the same guest');
    assert.equal(web.startCpus ?? web.maxCpu, 2);
    assert.equal(
      writeCalls(f.emulator, 'Virtual_Guest.createObject'),
      2,
      'no order since the first up',
    );
    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag('migrate')), []);

    for (const [what, content] of [
      ['the state', text],
      ['the backup', backup],
      ['the CLI output', f.output()],
    ]) {
      assert.ok(!content.includes(apiKey), `no API key in ${what}`);
    }
  });
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { billingReport } from '../../commands/billing-summary';
import { EXIT, commandHelp } from '../../commands/command';
import { COMMANDS } from '../../commands/commands';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { UNKNOWN } from '../../provider/framework/unknown';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { KEY_VECTORS } from '../support/ssh-keys';
import { cliFixture, runPulumiSvc, type CliFixture } from '../stack/cli';

// The built `pulumi-svc` as a user runs it: every command served from the COMMANDS table, its
// help from the table, and the exit statuses the README promises (0 ok, 1 failed, 2 usage, 3
// findings). The usage errors run with no Pulumi CLI to be found: a command that got as far as
// looking for it would say so and exit 1, so exit 2 with one line means nothing ran.

const VERSION = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

describe('pulumi-svc on its COMMANDS table', () => {
  const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-no-pulumi-'));
  const run = (...args: string[]) => runPulumiSvc(nowhere, args, { PULUMI_BIN_DIR: nowhere });
  after(() => fs.rmSync(nowhere, { recursive: true, force: true }));

  it('--version prints the package version alone and exits 0', async () => {
    assert.deepEqual(await run('--version'), { status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('--help lists every command of the table and the exit statuses; no command is a usage error', async () => {
    const help = await run('--help');
    assert.equal(help.status, EXIT.ok);
    for (const [name, command] of Object.entries(COMMANDS))
      assert.match(help.stdout, new RegExp(`^  ${name} +${command.summary}$`, 'm'));
    for (const status of Object.values(EXIT))
      assert.match(help.stdout, new RegExp(`^  ${status}  `, 'm'));
    const bare = await run();
    assert.equal(bare.status, EXIT.usage);
    assert.equal(bare.stderr.trim(), help.stdout.trim(), 'the same usage, on stderr');
  });

  it('<command> --help prints that command help from its table entry, every option in it', async () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const help = await run(name, '--stack', 'x', '--help');
      assert.equal(help.status, EXIT.ok, name);
      assert.equal(help.stdout.trim(), commandHelp(name, command).trim());
      assert.match(help.stdout, new RegExp(`^Usage: pulumi-svc ${name} `));
      for (const option of Object.keys(command.options))
        assert.match(help.stdout, new RegExp(`^  --${option}\\b`, 'm'), `${name} --${option}`);
    }
    // After `--`, --help is pulumi preview's: billing goes on (to look for the CLI).
    const passed = await run('billing', '--', '--help');
    assert.equal(passed.status, EXIT.failed);
    assert.match(passed.stderr, /no pulumi found on \$PULUMI_BIN_DIR/);
  });

  it('usage errors exit 2 with one line naming what is wrong, before anything runs', async () => {
    for (const [args, said] of [
      [['bogus'], /^pulumi-svc: unknown command bogus; the commands are billing, audit, migrate/],
      [['--verison'], /^pulumi-svc: unknown command --verison/],
      [['billing', '--format', 'html'], /--format must be one of table, markdown, json, not html$/],
      [
        ['billing', '--hours-per-month', '0'],
        /--hours-per-month must be a number of hours above 0/,
      ],
      [['billing', '--json=yes'], /^pulumi-svc: billing: --json takes no value$/],
      [['audit', '--stack', '--json'], /^pulumi-svc: audit: --stack needs a value$/],
      [['migrate', '--dry-run', 'dev'], /^pulumi-svc: migrate: unknown argument dev; it takes /],
      [['audit', '--', 'x'], /^pulumi-svc: audit: takes nothing after --$/],
    ] as const) {
      const refused = await run(...args);
      assert.equal(refused.status, EXIT.usage, args.join(' '));
      assert.equal(refused.stdout, '');
      assert.match(refused.stderr.trim(), said);
      assert.equal(refused.stderr.trim().split('\n').length, 1, 'one line, no stack trace');
    }
  });

  it('billing --report: the JSON reports of several stacks as one pull request comment; --strict exits 3 on anything unpriced', async () => {
    const guest = 'svc:index:VirtualGuest';
    const created = (name: string, inputs: Record<string, unknown>) =>
      billingReport({
        steps: [
          {
            op: 'create',
            urn: `urn:pulumi:s::p::${guest}::${name}`,
            newState: { type: guest, inputs },
          },
        ],
      });
    const dev = {
      ...created('web', { estimatedHourlyCost: 0.05, estimatedMonthlyCost: 36.5 }),
      stack: 'dev',
    };
    const prod = { ...created('db', { startCpus: UNKNOWN }), stack: 'prod' };
    const file = (name: string, report: unknown) => {
      fs.writeFileSync(path.join(nowhere, name), JSON.stringify(report));
      return path.join(nowhere, name);
    };
    const both = ['--report', file('dev.json', dev), '--report', file('prod.json', prod)];
    const comment = await run('billing', '--format', 'markdown', ...both);
    assert.equal(comment.status, EXIT.ok, comment.stderr);
    assert.equal(comment.stdout.split('\n')[0], '<!-- pulumi-svc-cost -->');
    assert.match(comment.stdout, /^\| dev \| \$0\.00 \| \$36\.50 \| \+\$36\.50 \| new \|$/m);
    assert.match(comment.stdout, /^<summary>prod: /m);
    assert.match(
      comment.stdout,
      /^Resources: 1 priced, 0 free, 0 unsupported \(other providers'\), 1 not priced/m,
    );
    const strict = await run('billing', '--strict', '--json', ...both);
    assert.equal(strict.status, EXIT.findings, 'prod has something unpriced');
    assert.equal((JSON.parse(strict.stdout) as unknown[]).length, 2, 'the report printed whole');
    assert.equal(
      (await run('billing', '--strict', '--report', file('dev.json', dev))).status,
      EXIT.ok,
    );
    const bad = await run('billing', '--report', file('bad.json', { version: 9 }));
    assert.equal(bad.status, EXIT.failed);
    assert.match(bad.stderr, /bad\.json is not a billing report of version 1/);
  });

  it('a command that fails exits 1', async () => {
    const failed = await run('audit', '--json');
    assert.equal(failed.status, EXIT.failed);
    assert.match(failed.stderr, /^pulumi-svc: no pulumi found on \$PULUMI_BIN_DIR/);
  });
});

describe('pulumi-svc audit: exit status 3 for findings, on the real Pulumi CLI', () => {
  let f: CliFixture;
  before(async () => {
    const emulator = await startEmulator({ port: 0, seed: 'empty', provisioningDelayMs: 0 });
    f = await cliFixture({ program: 'server', emulator });
  });
  after(async () => {
    await f?.close();
    await f?.emulator.close();
  });

  it('an account whose objects are all in the stack exits 0; an SSH key no stack owns exits 3', async () => {
    const clean = await runPulumiSvc(f.dir, ['audit', '--json', '--stack', 'test'], f.stack.env);
    assert.equal(clean.status, EXIT.ok, clean.stderr);
    assert.deepEqual((JSON.parse(clean.stdout) as { unowned: unknown[] }).unowned, []);

    const { username, apiKey } = f.emulator.credentials;
    const client = new Client({ username, apiKey, endpointUrl: f.emulator.url });
    const key = (await client.call('Security_Ssh_Key', 'createObject', {
      args: [{ label: 'by-hand', key: KEY_VECTORS.ed25519.key }],
    })) as { id: number };
    const found = await runPulumiSvc(f.dir, ['audit', '--json', '--stack', 'test'], f.stack.env);
    assert.equal(found.status, EXIT.findings, found.stderr);
    const report = JSON.parse(found.stdout) as { unowned: { id: string }[] };
    assert.deepEqual(
      report.unowned.map((e) => e.id),
      [String(key.id)],
      'the report is printed whole',
    );
  });
});

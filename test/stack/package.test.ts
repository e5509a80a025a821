import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { AuditReport } from '../../commands/audit';
import type { BillingReport } from '../../commands/billing-summary';
import { PACKAGE_ROOT, pulumiBinDir } from '../../scripts/pulumi-cli';
import { cliFixture, hasTag, writeCalls, type CliFixture } from './cli';
import { npmInstall, packPackage, writeTypeScriptProject, yamlGuestUpDestroy } from './projects';

const run = promisify(execFile);

/** A two-guest program, as a user writes one; `app:cpus` resizes the first guest. */
const PROGRAM = `import * as pulumi from '@pulumi/pulumi';
import { VirtualGuest } from 'pulumi-svc';

const config = new pulumi.Config();
const guests = ['web', 'db'].map(
  (name, i) =>
    new VirtualGuest(name, {
      domain: 'installed.example.com',
      datacenter: 'dal10',
      startCpus: i === 0 ? (config.getNumber('cpus') ?? 1) : 1,
      maxMemory: 1024,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      tags: ['installed'],
    }),
);
export const ids = guests.map((g) => g.id);
`;

/**
 * What users get: the `npm pack` tarball installed into a project outside the repository the way
 * the README says (`npm install pulumi-svc @pulumi/pulumi typescript @types/node`), then its
 * commands, its types and a program driven through the Pulumi CLI from there. Nothing here runs
 * from the checkout, so a file missing from `files`, a broken export or a command that needs the
 * repository fails.
 */
describe('the package as a user installs it', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pack-'));
  const project = path.join(work, 'app');
  let files: string[] = [];
  let f: CliFixture | undefined;

  /** Runs an installed bin the way `npx` does, with the user's PATH holding the Pulumi CLI. */
  const bin = (name: string, args: string[], env: Record<string, string> = {}) => {
    const userEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete userEnv.PULUMI_BIN_DIR; // the tests' own CLI route; a user has pulumi on PATH
    return run(path.join(project, 'node_modules', '.bin', name), args, {
      cwd: project,
      env: userEnv,
    });
  };
  const onPath = () => `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`;

  before(async () => {
    const packed = await packPackage(work);
    files = packed.files;
    writeTypeScriptProject(project, 'installed-app', PROGRAM);
    await npmInstall(project, [packed.tarball]);
  });

  after(async () => {
    await f?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /**
   * The budget pack the way README and examples/cost-guardrails run it: the example's npm
   * scripts (`npm run` puts node_modules/.bin, with the pack's analyzer, on PATH) and a
   * budget.json. A mandatory budget the pending upgrade crosses stops preview and up: the guest
   * keeps its size.
   */
  const budgetRoute = async (f: CliFixture, env: Record<string, string>, delta: number) => {
    const example = path.join(PACKAGE_ROOT, 'examples', 'cost-guardrails');
    const manifest = path.join(project, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    pkg.scripts = (
      JSON.parse(fs.readFileSync(path.join(example, 'package.json'), 'utf8')) as {
        scripts: object;
      }
    ).scripts;
    fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2));
    const limit = Math.round((delta / 2) * 100) / 100;
    fs.writeFileSync(
      path.join(project, 'budget.json'),
      JSON.stringify({
        'svc-budget': { enforcementLevel: 'mandatory', maxMonthlyIncrease: limit },
      }),
    );
    const npmRun = (script: string, ...args: string[]) =>
      run('npm', ['run', script, '--', ...args, '--stack', 'test', '--non-interactive'], {
        cwd: project,
        env: { ...process.env, ...env },
      }).then(
        () => assert.fail(`npm run ${script} passed a plan over the budget`),
        (err: { code: number; stdout: string }) => err,
      );
    const preview = await npmRun('preview');
    assert.notEqual(preview.code, 0);
    assert.match(preview.stdout, /\[mandatory\]\s+svc-budget/);
    assert.match(preview.stdout, new RegExp(`over maxMonthlyIncrease \\$${limit.toFixed(2)}`));
    await npmRun('up', '--yes');
    const web = (await f.guests(hasTag('installed'))).find((g) => g.hostname.startsWith('web'));
    assert.equal(web?.startCpus, 1, 'the upgrade was not ordered');
  };

  it('the tarball holds what the package needs and nothing else', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/resources/index.js',
      'dist/resources/index.d.ts',
      'dist/provider/dynamic/runtime.js',
      'dist/provider/client/index.js',
      'dist/commands/cli.js',
      'dist/emulator/cli.js',
      'dist/provider/plugin/main.js',
      'dist/provider/plugin/schema.json',
      'provider/plugin/bin/pulumi-resource-svc',
      'policy/PulumiPolicy.yaml',
      'dist/policy/main.js',
    ]) {
      assert.ok(files.includes(needed), `${needed} is packed`);
    }
    const unwanted = files.filter(
      (file) =>
        /^dist\/(test|bench|scripts|examples)\//.test(file) || // tests, benchmarks, repo tooling
        /(^|\/)node_modules\//.test(file) || // other packages' sources
        (/\.ts$/.test(file) && !/\.d\.ts$/.test(file)) || // sources
        !/^(dist\/|package\.json$|README\.md$|LICENSE$|provider\/plugin\/bin\/pulumi-resource-svc$|policy\/PulumiPolicy\.yaml$)/.test(
          file,
        ),
    );
    assert.deepEqual(unwanted, []);
    assert.ok(
      fs.lstatSync(path.join(project, 'node_modules', 'pulumi-svc')).isDirectory(),
      'a real install, not a link to the checkout',
    );
  });

  it('every subpath export has its types for node10 resolution too (typesVersions)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { types?: string }>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const fromExports = Object.entries(pkg.exports)
      .filter(([subpath, target]) => subpath !== '.' && target.types)
      .map(([subpath, target]) => [subpath.slice(2), [target.types!.slice(2)]]);
    assert.deepEqual(Object.entries(pkg.typesVersions['*']), fromExports);
  });

  it('every command of the package answers --help', async () => {
    const pkg = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules', 'pulumi-svc', 'package.json'), 'utf8'),
    ) as { bin: Record<string, string> };
    assert.deepEqual(Object.keys(pkg.bin).sort(), [
      'pulumi-analyzer-policy-svc',
      'pulumi-svc',
      'svc-emulator',
    ]);
    for (const name of Object.keys(pkg.bin)) {
      const { stdout } = await bin(name, ['--help']);
      assert.match(stdout, new RegExp(`Usage: ${name}`), `${name} --help`);
    }
  });

  it('without a Pulumi CLI, pulumi-svc says in one line what it looked for and builds nothing', async () => {
    const started = Date.now();
    const failed = await bin('pulumi-svc', ['billing'], {
      PATH: path.dirname(process.execPath),
    }).then(
      () => assert.fail('billing succeeded with no pulumi on PATH'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr.trim(),
      'pulumi-svc: no pulumi found on PATH; install the Pulumi CLI 3.x, 3.248.0 or later',
    );
    // Well under what any build would take (a Go build of the CLI takes minutes).
    assert.ok(Date.now() - started < 20_000);
  });

  it("the examples' programs compile against the installed types", async () => {
    const checked = path.join(project, 'examples-check');
    fs.mkdirSync(checked);
    const examples = ['quickstart', 'web-tier', 'account-lookups', 'cost-guardrails'];
    for (const name of examples) {
      fs.copyFileSync(
        path.join(PACKAGE_ROOT, 'examples', name, 'index.ts'),
        path.join(checked, `${name}.ts`),
      );
    }
    fs.copyFileSync(
      path.join(PACKAGE_ROOT, 'examples', 'client', 'quickstart.ts'),
      path.join(checked, 'client.ts'),
    );
    const tsconfig = JSON.parse(fs.readFileSync(path.join(project, 'tsconfig.json'), 'utf8')) as {
      files: string[];
    };
    tsconfig.files = fs.readdirSync(checked).map((file) => `examples-check/${file}`);
    fs.writeFileSync(path.join(project, 'tsconfig.check.json'), JSON.stringify(tsconfig));
    await run(path.join(project, 'node_modules', '.bin', 'tsc'), [
      '--noEmit',
      '-p',
      path.join(project, 'tsconfig.check.json'),
    ]);
    fs.rmSync(checked, { recursive: true });
  });

  it('the installed provider plugin runs a YAML program, named by its folder in Pulumi.yaml', async () => {
    const installed = path.join(project, 'node_modules', 'pulumi-svc', 'provider', 'plugin', 'bin');
    fs.accessSync(path.join(installed, 'pulumi-resource-svc'), fs.constants.X_OK);
    await yamlGuestUpDestroy(path.join(work, 'yaml'), installed, 'yaml');
  });

  it('a two-guest program: up, preview, billing, audit and destroy from the installed package', async () => {
    f = await cliFixture({ program: project, inPlace: true, typeCheck: true });
    await f.stack.up();
    const guests = await f.guests(hasTag('installed'));
    assert.equal(guests.length, 2);
    assert.deepEqual(
      (await f.stateIds('VirtualGuest')).sort(),
      guests.map((g) => `${g.id}`).sort(),
    );

    const orders = writeCalls(f.emulator, 'Virtual_Guest.createObject');
    const preview = await f.stack.preview(['--json']);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string }[] }).steps;
    assert.deepEqual(
      steps.filter((s) => s.op !== 'same').map((s) => s.op),
      [],
      'a second preview shows no change',
    );

    const env = { ...f.stack.env, PATH: onPath() };
    const billing = (...args: string[]) => bin('pulumi-svc', ['billing', ...args], env);
    assert.equal(
      (await billing('--only-increase', '--stack', 'test')).stdout,
      '',
      'a plan that raises nothing prints nothing with --only-increase',
    );
    await f.stack.setConfig({ 'installed-app:cpus': { value: '2' } });
    const report = JSON.parse(
      (await billing('--json', '--strict', '--stack', 'test')).stdout,
    ) as BillingReport;
    assert.deepEqual(
      report.changes.map((c) => [c.op, c.name, c.reasons]),
      [['upgrade', 'web', ['startCpus']]],
    );
    // The stack's total before is what the account is billed for its guests now.
    const billed = await f.client.call('Account', 'getVirtualGuests', {
      mask: 'id,billingItem.recurringFee',
    });
    const billedMonthly = (billed as { billingItem: { recurringFee: string } }[]).reduce(
      (sum, g) => sum + Number(g.billingItem.recurringFee),
      0,
    );
    assert.equal(report.totals.monthlyBefore, Math.round(billedMonthly * 100) / 100);
    assert.equal(
      report.totals.monthlyAfter,
      Math.round((report.totals.monthlyBefore + report.changes[0].monthlyDelta) * 100) / 100,
    );
    assert.ok(report.changes[0].monthlyDelta > 0, 'two CPUs cost more');
    assert.deepEqual([report.version, report.hoursPerMonth, report.unpriced], [1, 730, []]);
    const markdown = (await billing('--format', 'markdown', '--only-increase', '--stack', 'test'))
      .stdout;
    assert.match(markdown, /^\| upgrade \| web \| hourly \| .* \| startCpus \|$/m);
    assert.match(
      markdown,
      new RegExp(`^- Stack monthly total: \\$${report.totals.monthlyBefore.toFixed(2)} -> `, 'm'),
    );
    const refused = await billing('--formt', 'markdown').then(
      () => assert.fail('an unknown flag was taken'),
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal(refused.code, 2, 'a usage error');
    assert.match(refused.stderr, /billing: unknown argument --formt/);

    // Exit status 3 is the audit's findings (what no stack owns of the seeded account).
    const audited = await bin('pulumi-svc', ['audit', '--json', '--stack', 'test'], env).catch(
      (err: { code: number; stdout: string }) => (err.code === 3 ? err : Promise.reject(err)),
    );
    const audit = JSON.parse(audited.stdout) as AuditReport;
    assert.deepEqual([audit.orphans, audit.gone, audit.drift], [[], [], []]);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), orders, 'nothing ordered');

    await budgetRoute(f, env, report.changes[0].monthlyDelta);

    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag('installed')), []);
  });
});

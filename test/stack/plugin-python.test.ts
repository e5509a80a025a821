import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { ensureVenv, type Venv } from '../interop/python-venv';
import { cliFixture, hasTag, previewBilling, writeCalls, type CliFixture } from './cli';
import { PLUGIN_DIR } from './front-door';

const run = promisify(execFile);
const EXAMPLE = path.join(PACKAGE_ROOT, 'examples', 'python-web-tier');

/** A copy of the example whose Pulumi.yaml names this checkout's plugin; `main` replaces its program. */
function project(main?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-python-'));
  fs.cpSync(EXAMPLE, dir, { recursive: true });
  const yaml = path.join(dir, 'Pulumi.yaml');
  fs.writeFileSync(
    yaml,
    fs
      .readFileSync(yaml, 'utf8')
      .replace('./node_modules/pulumi-svc/provider/plugin/bin', PLUGIN_DIR),
  );
  if (main) fs.writeFileSync(path.join(dir, '__main__.py'), main);
  return dir;
}

// The Python example (examples/python-web-tier) through the CLI and the Python language host, on
// the provider plugin, with the Python SDK generated from the plugin's schema (sdk/python)
// installed into a virtualenv with the Pulumi Python SDK of the CLI's version.
describe('a Python program on the provider plugin', { concurrency: true }, () => {
  let venv: Venv;
  const fixtures: CliFixture[] = [];
  const dirs: string[] = [];
  const fixture = async (dir: string, config = {}) => {
    dirs.push(dir);
    const env = {
      PATH: `${path.join(venv.dir, 'bin')}${path.delimiter}${process.env.PATH}`,
      VIRTUAL_ENV: venv.dir,
    };
    const f = await cliFixture({ program: dir, inPlace: true, config, env });
    fixtures.push(f);
    return f;
  };

  before(async () => {
    venv = await ensureVenv('plugin-python-venv', 'pulumi', '3.248.0');
    // From a copy: pip leaves build files in the folder it installs from.
    const sdk = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-python-sdk-'));
    dirs.push(sdk);
    fs.cpSync(path.join(PACKAGE_ROOT, 'sdk', 'python'), sdk, { recursive: true });
    await run(
      venv.python,
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', sdk],
      { timeout: 300_000 },
    );
  });
  after(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('N guests from config: up, a no-op up, an upgrade previewed with its billing line, destroy', async () => {
    const f = await fixture(project(), { 'python-web-tier:count': { value: '2' } });
    await f.stack.up();
    const guests = await f.guests(hasTag('web-tier'));
    assert.equal(guests.length, 2);
    const outputs = await f.stack.outputs();
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'get_account() invoked');
    assert.deepEqual(
      [...(outputs.addresses as string[])].sort(),
      guests.map((g) => g.primaryIpAddress).sort(),
    );
    await f.stack.up(['--expect-no-changes']);

    await f.stack.setConfig({ 'python-web-tier:cpus': { value: '2' } });
    const { messages } = await previewBilling(f);
    assert.equal(
      messages.match(/BILLING upgrade VirtualGuest "web-\d" in place \(startCpus 1 -> 2/g)?.length,
      2,
    );
    await f.stack.up();
    const upgraded = await f.guests(hasTag('web-tier'));
    assert.deepEqual(
      upgraded.map((g) => g.id).sort(),
      guests.map((g) => g.id).sort(),
      'same guests',
    );
    assert.ok(upgraded.every((g) => (g.startCpus ?? g.maxCpu) === 2));
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 2);

    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag('web-tier')), []);
  });

  it('a guest without its domain is refused naming the field, before anything is ordered', async () => {
    const f = await fixture(
      project(
        [
          'import pulumi_svc as svc',
          'svc.VirtualGuest("nodomain", datacenter="dal10", start_cpus=1, max_memory=1024,',
          '                 operating_system_reference_code="UBUNTU_LATEST")',
        ].join('\n'),
      ),
    );
    await assert.rejects(f.stack.up(), /domain/);
    assert.equal(writeCalls(f.emulator), 0, 'nothing written');
  });
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { ensureVenv, type Venv } from '../interop/python-venv';
import { hasTag, previewBilling, writeCalls } from './cli';
import { exampleProject, fixtureGroup } from './projects';
import { KINDS_VALUES, assertPropertyKinds, kindsConfig } from './property-kinds';

/** Every property kind set, and the typed getVirtualGuest result read (property-kinds.ts). */
const KINDS_PROGRAM = `import pulumi
import pulumi_svc as svc

config = pulumi.Config()
admin = svc.SshKey("admin", label="admin", public_key=config.require("publicKey"))
web = svc.VirtualGuest(
    "web",
    hostname="${KINDS_VALUES.hostname}",
    domain="example.com",
    datacenter="dal10",
    start_cpus=${KINDS_VALUES.startCpus},
    max_memory=${KINDS_VALUES.maxMemory},
    hourly_billing_flag=False,
    operating_system_reference_code="UBUNTU_LATEST",
    ssh_key_ids=[admin.key_id],
    tags=["kinds", config.require("tag")],
    user_data=pulumi.Output.secret(${JSON.stringify(KINDS_VALUES.userData)}),
    on_image_change=svc.ImageChange.RELOAD,
)
found = svc.get_virtual_guest_output(id=web.guest_id)
pulumi.export("guestId", web.guest_id)
pulumi.export("keyId", admin.key_id)
pulumi.export("userData", web.user_data)
pulumi.export("onImageChange", web.on_image_change)
pulumi.export("foundId", found.id)
pulumi.export("foundHostname", found.hostname)
pulumi.export("foundCpus", found.start_cpus)
pulumi.export("foundHourly", found.hourly_billing_flag)
pulumi.export("foundKeyIds", found.ssh_key_ids)
pulumi.export("foundTags", found.tags)
pulumi.export("foundMonthlyCost", found.estimated_monthly_cost)
`;

const run = promisify(execFile);

// The Python example (examples/python-web-tier) through the CLI and the Python language host, on
// the provider plugin, with the Python SDK generated from the plugin's schema (sdk/python) built
// into a wheel and installed into a virtualenv with the Pulumi Python SDK of the CLI's version.
describe('a Python program on the provider plugin', { concurrency: true }, () => {
  let venv: Venv;
  const group = fixtureGroup();
  /** The example (its program replaced by `main`) with the virtualenv's python first on PATH. */
  const fixture = (main?: string, config = {}) =>
    group.fixture(exampleProject('python-web-tier', main ? { '__main__.py': main } : {}), {
      config,
      env: {
        PATH: `${path.join(venv.dir, 'bin')}${path.delimiter}${process.env.PATH}`,
        VIRTUAL_ENV: venv.dir,
      },
    });

  before(async () => {
    venv = await ensureVenv('plugin-python-venv', 'pulumi', '3.248.0');
    // The SDK as users install it: the wheel scripts/pack-sdks builds (at the schema's version).
    const out = group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-python-sdk-')));
    const packed = await run(path.join(PACKAGE_ROOT, 'scripts', 'pack-sdks'), [out, 'python'], {
      env: { ...process.env, PYTHON: venv.python },
      timeout: 300_000,
    });
    const wheel = packed.stdout.split('\n').find((file) => file.endsWith('.whl'))!;
    assert.match(path.basename(wheel), /^pulumi_svc-\d+\.\d+\.\d+-py3-none-any\.whl$/);
    // The environment is kept per machine: the wheel replaces what an earlier run installed.
    const pip = (...args: string[]) =>
      run(venv.python, ['-m', 'pip', ...args, '--quiet', '--disable-pip-version-check'], {
        timeout: 300_000,
      });
    await pip('uninstall', '--yes', 'pulumi_svc');
    await pip('install', wheel);
  });
  after(() => group.close());

  it('N guests from config: up, a no-op up, an upgrade previewed with its billing line, destroy', async () => {
    const f = await fixture(undefined, { 'python-web-tier:count': { value: '2' } });
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

  it('sets every kind of property (sshKeyIds from a key) and reads the typed getVirtualGuest result', async () => {
    const f = await fixture(KINDS_PROGRAM, kindsConfig('python-web-tier', 'python'));
    await assertPropertyKinds(f, 'python');
  });

  it('a guest without its domain is refused naming the field, before anything is ordered', async () => {
    const f = await fixture(
      [
        'import pulumi_svc as svc',
        'svc.VirtualGuest("nodomain", datacenter="dal10", start_cpus=1, max_memory=1024,',
        '                 operating_system_reference_code="UBUNTU_LATEST")',
      ].join('\n'),
    );
    await assert.rejects(f.stack.up(), /domain/);
    assert.equal(writeCalls(f.emulator), 0, 'nothing written');
  });
});

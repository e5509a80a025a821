import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { hasTag, writeCalls } from './cli';
import {
  PLUGIN_DIR,
  exampleProject,
  fixtureGroup,
  npmInstall,
  writeTypeScriptProject,
} from './projects';
import { assertPropertyKinds, kindsConfig } from './property-kinds';

const run = promisify(execFile);

/** One guest and the account's name through the SDK's invoke, as a user writes it. */
const PROGRAM = `import * as svc from '@pulumi-svc/svc';

const guest = new svc.VirtualGuest('web', {
  domain: 'sdk.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  tags: ['ts-sdk'],
});
export const guestId = guest.guestId;
export const company = svc.getAccountOutput().companyName;
`;

// The TypeScript SDK generated from the plugin's schema as a user installs it: the npm tarball that
// scripts/pack-sdks builds, installed into a project outside the repository with @pulumi/pulumi,
// and a program using it run through the CLI and the Node.js language host on the plugin (named
// by its folder in Pulumi.yaml).
describe('a TypeScript program on the provider plugin, through the installed SDK', () => {
  const group = fixtureGroup();
  const work = group.own(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ts-sdk-')));
  const project = path.join(work, 'app');
  let tarball: string;
  /** Where the plugin is named: this checkout's, in place of a release's. */
  const ON_PLUGIN = ['plugins:', '  providers:', '    - name: svc', `      path: ${PLUGIN_DIR}`];

  before(async () => {
    const packed = await run(path.join(PACKAGE_ROOT, 'scripts', 'pack-sdks'), [work, 'nodejs'], {
      timeout: 15 * 60_000,
    });
    tarball = packed.stdout.trim();
    writeTypeScriptProject(project, 'ts-sdk', PROGRAM, ON_PLUGIN);
    await npmInstall(project, [tarball]);
  });
  after(() => group.close());

  it('the tarball is a built package at the schema version', () => {
    const schema = JSON.parse(
      fs.readFileSync(path.join(PACKAGE_ROOT, 'provider', 'plugin', 'schema.json'), 'utf8'),
    ) as { version: string; pluginDownloadURL: string };
    const installed = path.join(project, 'node_modules', '@pulumi-svc', 'svc');
    const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      version: string;
      pulumi: Record<string, unknown>;
    };
    assert.equal(pkg.version, schema.version);
    // What the engine reads to install the plugin by itself: its version, and where from.
    assert.deepEqual(pkg.pulumi, {
      resource: true,
      name: 'svc',
      version: schema.version,
      server: schema.pluginDownloadURL,
    });
    assert.ok(fs.existsSync(path.join(installed, 'index.js')), 'compiled JavaScript');
    assert.ok(fs.existsSync(path.join(installed, 'virtualGuest.d.ts')), 'its types');
  });

  it('one guest: up (type-checked), a no-op up, destroy', async () => {
    const f = await group.fixture(project, { typeCheck: true });
    await f.stack.up();
    const [guest, ...others] = await f.guests(hasTag('ts-sdk'));
    assert.equal(others.length, 0, 'one guest ordered');
    assert.deepEqual(await f.stateIds('VirtualGuest'), [`${guest.id}`]);
    assert.ok(
      (await f.stack.resources()).some((r) => r.type === 'svc:index:VirtualGuest'),
      "the plugin's resource, not a dynamic one",
    );
    const outputs = await f.stack.outputs();
    assert.equal(outputs.guestId, guest.id);
    assert.equal(outputs.company, f.emulator.accounts.demo.companyName, 'getAccount invoked');

    await f.stack.up(['--expect-no-changes']);
    assert.equal(writeCalls(f.emulator, 'Virtual_Guest.createObject'), 1);

    await f.stack.destroy();
    assert.deepEqual(await f.guests(hasTag('ts-sdk')), []);
    assert.deepEqual(await f.stateIds('VirtualGuest'), []);
  });

  it('the typescript-sdk example (type-checked) sets every kind of property and reads the typed getVirtualGuest result', async () => {
    const dir = exampleProject('typescript-sdk');
    const yaml = path.join(dir, 'Pulumi.yaml');
    fs.appendFileSync(yaml, `${ON_PLUGIN.join('\n')}\n`);
    await npmInstall(dir, [tarball]);
    const f = await group.fixture(dir, {
      typeCheck: true,
      config: kindsConfig('typescript-sdk', 'typescript'),
    });
    await assertPropertyKinds(f, 'typescript');
  });
});

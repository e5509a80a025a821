import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cliFixture, hasTag } from './cli';
import { packPackage, pinned, writeTypeScriptProject, yamlGuestUpDestroy } from './projects';
import { TOOLCHAIN, ensured } from '../support/toolchain';

const run = promisify(execFile);

const PROGRAM = `import { VirtualGuest } from 'pulumi-svc';

const web = new VirtualGuest('web', {
  domain: 'newest.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  tags: ['newest'],
});
export const id = web.id;
export const nodeVersion = process.version;
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const sdkVersion: string = require('@pulumi/pulumi/package.json').version;
`;

/**
 * A user of current Pulumi: a project made today (the newest `@pulumi/pulumi` already installed,
 * Node.js 26 first on PATH), then `npm install pulumi-svc` from the packed tarball, then programs
 * through the newest CLI the Go module proxy serves. The rest of the stack tests run the floor
 * (package-lock.json's @pulumi/pulumi and its CLI).
 */
describe(`the package beside the newest Pulumi (CLI ${TOOLCHAIN.pulumiCli}, @pulumi/pulumi ${TOOLCHAIN.pulumiSdk}, Node.js ${TOOLCHAIN.node})`, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-newest-'));
  const project = path.join(work, 'app');
  let binDir = '';
  let userPath = '';
  let install = { stdout: '', stderr: '' };
  const npm = (args: string[]) =>
    run('npm', ['--no-audit', '--no-fund', ...args], {
      cwd: project,
      env: { ...process.env, PATH: userPath },
      timeout: 600_000,
    });

  before(async () => {
    userPath = `${ensured('ensure-node', [TOOLCHAIN.node])}${path.delimiter}${process.env.PATH}`;
    binDir = ensured('ensure-language-hosts', ['--pulumi', TOOLCHAIN.pulumiCli, 'yaml']);
    writeTypeScriptProject(project, 'newest-app', PROGRAM);
    await npm([
      'install',
      `@pulumi/pulumi@${TOOLCHAIN.pulumiSdk}`,
      pinned('typescript'),
      pinned('@types/node'),
    ]);
    install = await npm(['install', (await packPackage(work)).tarball]);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('npm install pulumi-svc: no error, no peer or engine warning, the newest SDK kept', () => {
    const said = `${install.stdout}\n${install.stderr}`;
    assert.doesNotMatch(said, /peer|ERESOLVE|EBADENGINE|ERR!/i, said);
    const version = (dir: string) =>
      (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
        .version;
    assert.equal(
      version(path.join(project, 'node_modules', '@pulumi', 'pulumi')),
      TOOLCHAIN.pulumiSdk,
    );
    assert.ok(
      !fs.existsSync(path.join(project, 'node_modules', 'pulumi-svc', 'node_modules', '@pulumi')),
      'one copy of the SDK: the project’s',
    );
  });

  it('every SDK module the package requires by its path loads from the newest SDK', async () => {
    const dist = path.join(project, 'node_modules', 'pulumi-svc', 'dist');
    const required = new Set<string>();
    for (const file of fs.readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.js')) continue;
      const text = fs.readFileSync(path.join(dist, file), 'utf8');
      for (const [, name] of text.matchAll(/require\("(@pulumi\/pulumi\/[^"]+)"\)/g)) {
        required.add(name);
      }
    }
    assert.ok(required.has('@pulumi/pulumi/proto/provider_grpc_pb'), [...required].join(', '));
    // Each must load and export something under the newest SDK on the newest Node.js; the YAML program
    // below then uses them for real (the plugin serves the protocol with them).
    const { stdout } = await run(
      'node',
      [
        '-e',
        'console.log(JSON.stringify(process.argv.slice(1).map((m) => [m, Object.keys(require(m)).length])))',
        ...required,
      ],
      { cwd: project, env: { ...process.env, PATH: userPath } },
    );
    for (const [name, exported] of JSON.parse(stdout) as [string, number][]) {
      assert.ok(exported > 0, `${name} exports nothing`);
    }
  });

  it('a TypeScript program on the dynamic resources: up and destroy, with no Node.js warning', async () => {
    const f = await cliFixture({
      program: project,
      inPlace: true,
      binDir,
      env: { PATH: userPath },
    });
    try {
      await f.stack.up();
      // The user caused none: on Node.js 26 the SDK's closure serializer loads node:ffi, whose
      // ExperimentalWarning the dynamic door drops (provider/dynamic/serializer-builtins.ts).
      assert.doesNotMatch(f.output(), /ExperimentalWarning|\(node:\d+\) \w*Warning/, f.output());
      const outputs = await f.stack.outputs();
      assert.equal(outputs.nodeVersion, `v${TOOLCHAIN.node}`);
      assert.equal(outputs.sdkVersion, TOOLCHAIN.pulumiSdk);
      assert.deepEqual(
        (await f.guests(hasTag('newest'))).map((g) => String(g.id)),
        [outputs.id],
      );
      await f.stack.destroy();
      assert.deepEqual(await f.guests(hasTag('newest')), []);
    } finally {
      await f.close();
    }
  });

  it('a YAML program on the installed plugin (served on the newest SDK): up and destroy', async () => {
    const plugin = path.join(project, 'node_modules', 'pulumi-svc', 'provider', 'plugin', 'bin');
    await yamlGuestUpDestroy(path.join(work, 'yaml'), plugin, 'newestyaml', {
      binDir,
      env: { PATH: userPath },
    });
  });
});

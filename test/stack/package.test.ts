import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { cliFixture, hasTag, type CliFixture } from './cli';

const run = promisify(execFile);
const lock = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};
const pinned = (name: string) => `${name}@${lock.packages[`node_modules/${name}`].version}`;

// What users get: the web-tier example copied out of the repo, `pulumi-svc` installed from the
// `npm pack` tarball (so a file missing from `files` or a broken export fails here), the program
// type-checked by ts-node as Pulumi does by default, then `pulumi up` and `pulumi destroy`.
let f: CliFixture | undefined;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pack-'));
after(async () => {
  await f?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

it('the packed tarball, installed into a copy of an example project, runs up and destroy', async () => {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
    {
      cwd: PACKAGE_ROOT,
    },
  );
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  const files = packed.files.map((file) => file.path);
  assert.ok(files.includes('dist/provider/dynamic/runtime.js'), 'the provider runtime is packed');
  assert.ok(!files.some((file) => /^dist\/(test|bench)\//.test(file)), 'no tests or benchmarks');

  const project = path.join(work, 'web-tier');
  fs.cpSync(path.join(PACKAGE_ROOT, 'examples', 'web-tier'), project, { recursive: true });
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      path.join(work, packed.filename),
      pinned('@pulumi/pulumi'),
      pinned('typescript'),
      pinned('@types/node'),
    ],
    { cwd: project },
  );
  assert.ok(
    fs.lstatSync(path.join(project, 'node_modules', 'pulumi-svc')).isDirectory(),
    'a real install, not a link to the checkout',
  );

  f = await cliFixture({
    program: project,
    inPlace: true,
    typeCheck: true,
    config: { 'web-tier:count': { value: '1' } },
  });
  await f.stack.up();
  const outputs = await f.stack.outputs();
  const guests = await f.guests(hasTag('web-tier'));
  assert.equal(guests.length, 1);
  assert.deepEqual(outputs.names, [`web-0.example.com`]);
  assert.deepEqual(outputs.addresses, [guests[0].primaryIpAddress]);
  await f.stack.destroy();
  assert.equal((await f.guests(hasTag('web-tier'))).length, 0);
});

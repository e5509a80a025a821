import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';
import { TOOLCHAIN, newestNode } from '../support/toolchain';

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-builtins-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * A program file (not `node -e`, whose globals make the serializer load more modules) that
 * serializes the dynamic door's provider as `pulumi.dynamic.Resource` does, after
 * loadSerializerBuiltinsQuietly() when `quiet`, then emits a warning of its own.
 */
function program(quiet: boolean): string {
  const file = path.join(work, `serialize-${quiet ? 'quiet' : 'plain'}.js`);
  const from = (module: string) =>
    JSON.stringify(require.resolve(module, { paths: [PACKAGE_ROOT] }));
  fs.writeFileSync(
    file,
    `const pulumi = require(${from('@pulumi/pulumi')});
const { delegatingProvider } = require(${from('./provider/dynamic/delegate.ts')});
const { loadSerializerBuiltinsQuietly } = require(${from('./provider/dynamic/serializer-builtins.ts')});
${quiet ? 'loadSerializerBuiltinsQuietly();' : ''}
pulumi.runtime
  .serializeFunction(() => delegatingProvider('VirtualGuest'))
  .then(() => process.emitWarning('the program’s own', 'ExperimentalWarning'));
`,
  );
  return file;
}

const stderrOf = async (file: string) =>
  (await run(newestNode(), ['--import', 'tsx', file], { cwd: PACKAGE_ROOT, timeout: 120_000 }))
    .stderr;

describe(`the dynamic door's provider serialized on Node.js ${TOOLCHAIN.node}`, () => {
  it('without the preload, @pulumi/pulumi’s serializer prints the FFI warning (what the preload is for)', async () => {
    assert.match(await stderrOf(program(false)), /ExperimentalWarning: FFI is an experimental/);
  });

  it('after loadSerializerBuiltinsQuietly(): no FFI warning, and the program’s own warnings still print', async () => {
    const stderr = await stderrOf(program(true));
    assert.doesNotMatch(stderr, /FFI/);
    assert.match(stderr, /ExperimentalWarning: the program’s own/);
  });
});

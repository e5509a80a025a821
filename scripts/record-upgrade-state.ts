import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { recordStack } from '../test/stack/recorded-stacks';
import type { DoorName } from '../test/stack/front-door';
import { PACKAGE_ROOT } from './pulumi-cli';

/** See scripts/record-upgrade-state. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      package: { type: 'string', default: PACKAGE_ROOT },
      version: { type: 'string' },
      door: { type: 'string', multiple: true },
    },
  });
  const root = path.resolve(values.package);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const doors = (values.door ?? ['dynamic', 'plugin']) as DoorName[];
  for (const door of doors) {
    const out = await recordStack({
      door,
      version: values.version ?? version,
      recordedWith: `pulumi-svc ${version} (commit ${commit})`,
      packageRoot: root,
    });
    console.log(`recorded ${door}: ${path.relative(PACKAGE_ROOT, out)}`);
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});

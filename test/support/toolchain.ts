import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

/** The newest Pulumi the registries here serve and the Node.js LTS they run on (scripts/toolchain.json). */
export const TOOLCHAIN = JSON.parse(
  fs.readFileSync(path.join(PACKAGE_ROOT, 'scripts', 'toolchain.json'), 'utf8'),
) as { node: string; pulumiCli: string; pulumiSdk: string };

/** The folder a scripts/ensure-* script prints last (it installs what is missing, once). */
export const ensured = (script: string, args: string[] = []) =>
  execFileSync(path.join(PACKAGE_ROOT, 'scripts', script), args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 40 * 60_000,
  })
    .trim()
    .split('\n')
    .pop()!;

/** The `node` of scripts/toolchain.json's Node.js (fetched once per machine). */
export const newestNode = () => path.join(ensured('ensure-node', [TOOLCHAIN.node]), 'node');

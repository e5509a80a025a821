import { execFile, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../scripts/pulumi-cli';

/** Why a Go program test skips: no `go` on PATH (false when there is one). */
export const goMissing =
  spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0
    ? false
    : 'no `go` on PATH: the Go program test needs Go (1.25 or later) to build the program';

/** The settings of scripts/go-env.sh with this machine's Go module and build caches. */
export async function goEnv(): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)('bash', [
    path.join(PACKAGE_ROOT, 'scripts', 'go-env.sh'),
  ]);
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

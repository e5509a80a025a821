import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

/**
 * The user's own Pulumi CLI, as the `pulumi-svc` commands use it: `$PULUMI_BIN_DIR/pulumi` when
 * that is set, else the first `pulumi` on PATH. These commands run inside a user's project and
 * must take a second, so they never build or download anything; the repository's own tooling
 * (scripts/ensure-pulumi) provides a CLI for the demo and the tests by setting PULUMI_BIN_DIR.
 */

/** The oldest CLI these commands read the output of (the Pulumi line the package is built on). */
export const MIN_PULUMI_VERSION = '3.248.0';

/** One resource of `pulumi stack export`. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
}

/** A stack's name and the resources of its state. */
export interface StackState {
  stack: string;
  resources: StateResource[];
}

const isExecutable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** `[3, 248, 0]` from `v3.248.0` (a pre-release or build suffix is ignored). */
export function parseVersion(text: string): number[] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? match.slice(1, 4).map(Number) : undefined;
}

/** Whether `version` is a 3.x at or above MIN_PULUMI_VERSION. */
export function supported(version: number[]): boolean {
  const min = parseVersion(MIN_PULUMI_VERSION)!;
  if (version[0] !== min[0]) return false;
  for (let i = 1; i < 3; i++) if (version[i] !== min[i]) return version[i] > min[i];
  return true;
}

/** Where a `pulumi` was looked for, for the error that says none was found. */
function candidates(env: NodeJS.ProcessEnv): { places: string; files: string[] } {
  if (env.PULUMI_BIN_DIR) {
    return {
      places: `$PULUMI_BIN_DIR (${env.PULUMI_BIN_DIR})`,
      files: [path.join(env.PULUMI_BIN_DIR, 'pulumi')],
    };
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return { places: 'PATH', files: dirs.map((dir) => path.join(dir, 'pulumi')) };
}

const found = new Map<string, string>();

/**
 * The path of the user's `pulumi`, checked to be a supported version; throws a one-line error
 * naming where it looked and what it needs otherwise.
 */
export function findPulumi(env: NodeJS.ProcessEnv = process.env): string {
  const key = `${env.PULUMI_BIN_DIR ?? ''}\0${env.PATH ?? ''}`;
  const cached = found.get(key);
  if (cached) return cached;
  const { places, files } = candidates(env);
  const cli = files.find(isExecutable);
  const need = `Pulumi CLI 3.x, ${MIN_PULUMI_VERSION} or later`;
  if (!cli) throw new Error(`no pulumi found on ${places}; install the ${need}`);
  let reported: string;
  try {
    reported = execFileSync(cli, ['version'], {
      encoding: 'utf8',
      env: { ...env, PULUMI_SKIP_UPDATE_CHECK: 'true' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    }).trim();
  } catch (err) {
    throw new Error(`${cli} version failed (${(err as Error).message.split('\n')[0]})`);
  }
  const version = parseVersion(reported);
  if (!version || !supported(version)) {
    throw new Error(
      `${cli} is ${reported || 'of unknown version'}; these commands need the ${need}`,
    );
  }
  found.set(key, cli);
  return cli;
}

const run = promisify(execFile);

/**
 * Runs `pulumi <args>` in a project directory to the end and answers its standard output; a
 * failure throws with the last lines of what the CLI printed.
 */
export async function pulumiOutput(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const env = { ...process.env, ...options.env };
  const cli = findPulumi(env);
  try {
    const { stdout } = await run(cli, args, {
      cwd: options.cwd,
      // The CLI finds its language host and bundled plugins beside it on PATH.
      env: { ...env, PATH: `${path.dirname(cli)}${path.delimiter}${env.PATH ?? ''}` },
      maxBuffer: 256 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const {
      stdout = '',
      stderr = '',
      code,
    } = err as { stdout?: string; stderr?: string; code?: unknown };
    const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`pulumi ${args.join(' ')} failed (exit ${String(code)}):\n${output}`);
  }
}

/** `pulumiOutput` parsed as JSON (for `--json` commands). */
export async function pulumiJson<T>(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<T> {
  return JSON.parse(await pulumiOutput(args, options)) as T;
}

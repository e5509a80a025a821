import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killTree } from './processes';

/** The checkout (or installed package) root: where node_modules and scripts/ live. */
export const PACKAGE_ROOT = path.resolve(
  __dirname,
  '..',
  fs.existsSync(path.resolve(__dirname, '..', 'package.json')) ? '' : '..',
);

let binDir: string | undefined;

/**
 * The folder holding the Pulumi CLI and its Node.js language host: `PULUMI_BIN_DIR` when the
 * caller already ran scripts/ensure-pulumi, else that script (it builds them once per machine).
 */
export function pulumiBinDir(): string {
  binDir ??=
    process.env.PULUMI_BIN_DIR ??
    execFileSync(path.join(PACKAGE_ROOT, 'scripts', 'ensure-pulumi'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop()!;
  return binDir;
}

/** Offline, non-interactive settings: local file backend, passphrase secrets, no update checks or plugin downloads. */
export function offlineEnv(stateDir: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? 'pulumi-svc-local',
    PULUMI_SKIP_UPDATE_CHECK: 'true',
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
  };
}

export interface PulumiRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The project directory (holds Pulumi.yaml). */
  cwd: string;
  /** The folder of the CLI to run (default: pulumiBinDir()). */
  binDir?: string;
  /** Added to this process's environment; PATH gets the CLI's folder in front. */
  env?: Record<string, string>;
  /** 'inherit' shows Pulumi's own progress output; 'pipe' (default) collects it. */
  stdio?: 'inherit' | 'pipe';
  /** Called with each chunk of stdout and stderr as it arrives (pipe only). */
  onOutput?: (text: string) => void;
  /**
   * Kill the command (and what it started) after this long; default PULUMI_COMMAND_TIMEOUT_MS
   * or 15 minutes, so a hung backend or plugin fails the caller instead of stalling it forever.
   */
  timeoutMs?: number;
}

export interface PulumiProcess {
  child: ChildProcess;
  done: Promise<PulumiRun>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `pulumi <args>` in its own process group. The caller may kill it at any moment with
 * `killTree(child.pid)`; anything still running when this process exits is killed with it.
 */
export function spawnPulumi(args: string[], options: RunOptions): PulumiProcess {
  const bin = options.binDir ?? pulumiBinDir();
  const child = spawn(path.join(bin, 'pulumi'), args, {
    cwd: options.cwd,
    detached: true,
    stdio: options.stdio === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...options.env,
      PATH: `${bin}${path.delimiter}${options.env?.PATH ?? process.env.PATH ?? ''}`,
    },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    options.onOutput?.(text);
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    options.onOutput?.(text);
  });
  const limit = options.timeoutMs ?? Number(process.env.PULUMI_COMMAND_TIMEOUT_MS ?? 15 * 60_000);
  const timer = setTimeout(() => {
    stderr += `\npulumi ${args.join(' ')}: killed after ${Math.round(limit / 1000)} s without finishing\n`;
    if (child.pid) killTree(child.pid);
  }, limit);
  timer.unref();
  const done = new Promise<PulumiRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

process.once('exit', () => {
  for (const child of running) if (child.pid) killTree(child.pid);
});

/** Runs `pulumi <args>` to the end. */
export function runPulumi(args: string[], options: RunOptions): Promise<PulumiRun> {
  return spawnPulumi(args, options).done;
}

/** Runs `pulumi <args>` and throws with its output when it fails. */
export async function pulumi(args: string[], options: RunOptions): Promise<PulumiRun> {
  const run = await runPulumi(args, options);
  if (run.code !== 0) {
    const output = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`pulumi ${args.join(' ')} failed (exit ${run.code ?? run.signal}):\n${output}`);
  }
  return run;
}

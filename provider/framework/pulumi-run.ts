import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The processes of one Pulumi run, and what ends them when the run's CLI is gone.
 *
 * The CLI starts its language host and its plugins in process groups of their own, and gives
 * each the address of its engine as an argument (`pulumi-language-nodejs <engine>`,
 * `pulumi-resource-pulumi-nodejs <engine>` and the `cmd/dynamic-provider/index.js <engine>` that
 * shim starts). A CLI killed with SIGKILL leaves them all behind; nobody will ever call them
 * again. What identifies them as this run's is that engine address: a `host:port` the dead
 * engine held, present as an argument of exactly these processes.
 *
 * Linux only (/proc); elsewhere nothing is found and nothing is reaped.
 */

/** The commands of a run that are left behind with its CLI (matched on argv[0] or argv[1]). */
const RUN_COMMANDS = [
  /(^|\/)pulumi-language-[\w-]+$/,
  /(^|\/)pulumi-resource-pulumi-nodejs$/,
  /cmd[/\\]dynamic-provider([/\\]index\.js)?$/,
];

/** A process's argv from /proc; undefined when it is gone or not readable. */
export const argvOf = (pid: number): string[] | undefined => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').slice(0, -1);
  } catch {
    return undefined; // gone meanwhile, or not readable
  }
};

const pids = (): number[] => {
  try {
    return fs
      .readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
};

/** Other processes of the run whose engine listened at `engine` (`host:port`). */
export function runProcesses(engine: string): number[] {
  return pids().filter((pid) => {
    if (pid === process.pid) return false;
    const argv = argvOf(pid);
    if (!argv?.includes(engine)) return false;
    return argv.slice(0, 2).some((arg) => RUN_COMMANDS.some((command) => command.test(arg)));
  });
}

/**
 * Kills what is left of a run whose engine is gone. Twice: a shim killed in the first round can
 * have started its provider an instant before, which the second round finds.
 */
export function reapRun(engine: string): void {
  for (let round = 0; round < 2; round++) {
    for (const pid of runProcesses(engine)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** From /proc/<pid>/stat (after the command name): its state, parent and start time. */
export const stat = (pid: number): { state: string; ppid: number; started: string } | undefined => {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), started: fields[19] };
  } catch {
    return undefined;
  }
};

/** Gone, or a zombie its parent has not reaped yet (a killed CLI is one for a moment). */
export const ended = (proc: { pid: number; started: string }) => {
  const now = stat(proc.pid);
  return !now || now.started !== proc.started || now.state === 'Z';
};

/** The nearest ancestor that is the Pulumi CLI (`pulumi`), with its start time. */
function cliAncestor(): { pid: number; started: string } | undefined {
  for (let pid = process.ppid, depth = 0; pid > 1 && depth < 8; depth++) {
    const info = stat(pid);
    if (!info) return undefined;
    if (path.basename(argvOf(pid)?.[0] ?? '') === 'pulumi') return { pid, started: info.started };
    pid = info.ppid;
  }
  return undefined;
}

let watching = false;

/**
 * In a Pulumi program's process: when it exits because its CLI is gone (killed), it takes the
 * run's language host and dynamic-provider processes with it. Those may have been started but
 * never called, so no code of this package runs in them to notice the engine is gone. (One that
 * was called watches its engine itself and no longer carries the command line matched here:
 * engine-watch.ts.)
 */
export function reapRunOnExit(env: NodeJS.ProcessEnv = process.env): void {
  const engine = env.PULUMI_NODEJS_ENGINE;
  if (watching || !engine || process.platform !== 'linux') return;
  const cli = cliAncestor();
  if (!cli) return;
  watching = true;
  process.once('exit', () => {
    if (ended(cli)) reapRun(engine);
  });
}

import * as path from 'node:path';
import { ENGINE_ADDRESS } from '../framework/engine-watch';
import { argvOf, ended, stat } from '../framework/pulumi-run';

/**
 * The Pulumi run a plugin process serves, read from /proc when it starts (Linux; elsewhere only
 * its own engine is known).
 *
 * The CLI starts the plugin twice in a YAML run: the engine starts it with the engine's address
 * (`main.js <engine>`), and the YAML language host, which is started by the CLI with that same
 * address, starts it once more to read the schema, with an address of its own. That second one
 * may be the only process of this package alive when the CLI is killed (the program has not
 * registered a resource yet), so it finds the run's engine in the argv of its parent language
 * host. `cli` is the nearest `pulumi` ancestor with its start time, to tell a killed CLI from
 * the end of a run.
 */
export interface PulumiRun {
  /** The engine of the run (what the language host and the engine's plugins are given). */
  engine: string;
  cli?: { pid: number; started: string };
  /** Started by a language host that the CLI had already left (the CLI was killed meanwhile). */
  orphaned?: true;
}

const argv = (pid: number): string[] => argvOf(pid) ?? [];

/** The run of this process, given the engine address it was started with. */
export function pulumiRun(ownEngine: string): PulumiRun {
  const run: PulumiRun = { engine: ownEngine };
  for (let pid = process.ppid, depth = 0; pid > 1 && depth < 4; depth++) {
    const [command = '', ...args] = argv(pid);
    const info = stat(pid);
    if (!info) break;
    const name = path.basename(command);
    if (/^pulumi-language-[\w-]+$/.test(name)) {
      run.engine = args.find((a) => ENGINE_ADDRESS.test(a)) ?? ownEngine;
      // Language hosts are the CLI's children: one whose parent is not has outlived its CLI.
      if (path.basename(argv(info.ppid)[0] ?? '') !== 'pulumi') run.orphaned = true;
    }
    if (name === 'pulumi') {
      run.cli = { pid, started: info.started };
      break;
    }
    pid = info.ppid;
  }
  return run;
}

/** Whether the run's CLI is gone (or a zombie its parent has not reaped yet). */
export function cliEnded(run: PulumiRun): boolean {
  return run.cli ? ended(run.cli) : run.orphaned === true;
}

import * as fs from 'node:fs';

/**
 * The process tree as /proc shows it. The Pulumi CLI starts its language host and plugins in
 * process groups of their own, so killing the CLI's group leaves them running; these helpers find
 * them by parentage (while the CLI lives) or by a marker in their environment (after it died).
 */

interface ProcessInfo {
  pid: number;
  ppid: number;
  zombie: boolean;
}

function processes(): ProcessInfo[] {
  const list: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the command name (which may hold spaces) come the state and the parent's pid.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      list.push({ pid: Number(entry), ppid: Number(ppid), zombie: state === 'Z' });
    } catch {
      // the process ended while we looked
    }
  }
  return list;
}

/** Every process below `pid`. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of processes()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Kills a process and everything below it (looked up first, so none is orphaned unseen). */
export function killTree(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const target of [...descendants(pid), pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

/** Live processes (not this one, not zombies) whose environment holds `name=value`. */
export function livePids(name: string, value: string): number[] {
  const needle = `\0${name}=${value}\0`;
  return processes()
    .filter((p) => !p.zombie && p.pid !== process.pid)
    .filter((p) => {
      try {
        return `\0${fs.readFileSync(`/proc/${p.pid}/environ`, 'latin1')}`.includes(needle);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map((p) => p.pid);
}

/** The command line of a process, for messages ('?' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

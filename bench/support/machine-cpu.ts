import { cpus } from 'node:os';

/** CPU time the whole machine spent busy (every process, every core), in seconds. */
export function machineBusySeconds(): number {
  let ms = 0;
  for (const { times } of cpus()) ms += times.user + times.nice + times.sys + times.irq;
  return ms / 1000;
}

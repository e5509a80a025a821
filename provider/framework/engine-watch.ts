import * as net from 'node:net';
import { isRelease, releaseUnanswered } from './claims';
import { say } from './log';
import { reapRun } from './pulumi-run';

/**
 * Stops a provider process, of either front door, once the Pulumi engine it answers to is gone (a
 * killed `pulumi up`: the CLI starts its providers in process groups of their own, so they live
 * on), and gates every write on that engine being there.
 *
 * - A create it finished could never reach the state. So every write first checks the engine
 *   (`requireEngine`, called by the connection's write gate, write-gate.ts): the guest of an
 *   unfinished create must stay recognisable to the next `pulumi up`, which then adopts it. For
 *   the same reason, before it exits it takes back the claims its unanswered creates sent, and
 *   writes nothing else meanwhile.
 * - An orphaned process's first write to its closed stdout spins: Node's uncaught-exception
 *   handler logs the EPIPE to the same pipe, which raises another EPIPE, without end (100% CPU,
 *   memory growing by the second). A broken pipe ends the process.
 */
const ENGINE_CHECK_MS = 2_000;

/** An engine's address as Pulumi passes it to its plugins: `host:port`, an IPv6 host bracketed. */
export const ENGINE_ADDRESS = /^([\w.-]+|\[[\da-f:]+\]):\d+$/i;

/** The run a provider process belongs to, as its door knows it. */
export interface WatchedRun {
  /** The engine whose end ends this process. */
  engine: string;
  /** Whether to end the rest of the run (its language host) too: its CLI is gone. */
  reap(): boolean;
  /** Another reason to stop, checked with the engine (the door's own; resolves when it has acted). */
  alsoCheck?(): Promise<void>;
}

let watched: WatchedRun | undefined;
let stopping: Promise<never> | undefined;

/** False only when the engine's port refuses connections; a slow or odd answer counts as alive. */
export function engineAlive(address: string, timeoutMs = 2000): Promise<boolean> {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect(Number(address.slice(colon + 1)), host);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(timeoutMs, () => done(true));
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED'));
  });
}

/**
 * Ends this process and, when its CLI is gone, what is left of its run (the language host; see
 * pulumi-run.ts), once the claims of creates that never answered are taken back. Whoever asks
 * meanwhile waits for the end.
 */
export function stopRun(): Promise<never> {
  stopping ??= (async () => {
    // Not cut short: a claim left in place is a billed guest outside every state, which the next
    // `up` would order again. Each release is bounded by its own windows and the client's timeout.
    await releaseUnanswered(say);
    if (watched?.reap()) reapRun(watched.engine);
    process.exit(1);
  })();
  return stopping;
}

/** Watches `run`'s engine from now on (once per process): every 2 s, and on a broken pipe. */
export function watchEngine(run: WatchedRun): void {
  if (watched) return;
  watched = run;
  const check = async () => {
    if (!(await engineAlive(run.engine))) await stopRun();
    await run.alsoCheck?.();
  };
  setInterval(() => void check(), ENGINE_CHECK_MS).unref();
  onBrokenPipe(() => void check().then(() => process.exit(1)));
}

/** Runs `then` when stdout or stderr is a pipe nobody reads any more (see the module comment). */
export function onBrokenPipe(then: () => void): void {
  const handler = (err: NodeJS.ErrnoException) => err.code === 'EPIPE' && then();
  process.stdout.on('error', handler);
  process.stderr.on('error', handler);
}

/** Before a write whose result only the engine can record: stops here if the engine is gone. */
export async function requireEngine(): Promise<void> {
  if (isRelease()) return;
  if (stopping) await stopping;
  if (watched && !(await engineAlive(watched.engine))) {
    say(`the Pulumi engine at ${watched.engine} is gone; stopping before anything else is written`);
    await stopRun();
  }
  // Another check may have found it gone meanwhile: its release must see every write that went.
  if (stopping) await stopping;
}

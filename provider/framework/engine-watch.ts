import * as net from 'node:net';
import { releaseUnanswered } from './claims';
import { say } from './log';
import { reapRun } from './pulumi-run';

/**
 * Stops the provider process once the Pulumi engine that started it is gone (a killed
 * `pulumi up`: the CLI starts the provider in a process group of its own, so it lives on).
 *
 * - An orphaned provider's first write to its closed stdout spins: the SDK's uncaught-exception
 *   handler logs the EPIPE with console.error, which raises another EPIPE, without end (100% CPU,
 *   memory growing by the second). A broken pipe ends the process.
 * - A create it finished could never reach the state. So the provider checks the engine every few
 *   seconds, and again right before it orders anything or marks a guest owned: the guest of an
 *   unfinished create must stay recognisable to the next `pulumi up`, which then adopts it. For
 *   the same reason, before it exits it takes back the claims its unanswered creates sent
 *   (claims.ts), and writes nothing else meanwhile.
 */
const ENGINE_CHECK_MS = 2_000;
let watching = false;

/** `host:port` of the engine, when this is the process Pulumi starts for dynamic providers. */
export function engineAddress(argv: readonly string[] = process.argv): string | undefined {
  if (!/cmd[/\\]dynamic-provider/.test(argv[1] ?? '')) return undefined;
  // The engine's address is the provider's first argument; nobody listens there once it died.
  return /^([\w.-]+|\[[\da-f:]+\]):(\d+)$/i.test(argv[2] ?? '') ? argv[2] : undefined;
}

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

let stopping: Promise<never> | undefined;

/**
 * Ends this process and what is left of its run (the language host; see pulumi-run.ts), once the
 * claims of creates that never answered are taken back. Whoever asks meanwhile waits for the end.
 */
function stopRun(address: string): Promise<never> {
  stopping ??= (async () => {
    await releaseUnanswered(say);
    reapRun(address);
    process.exit(1);
  })();
  return stopping;
}

export function watchEngine(): void {
  const address = engineAddress();
  if (watching || !/cmd[/\\]dynamic-provider/.test(process.argv[1] ?? '')) return;
  watching = true;
  const exitOnBrokenPipe = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') return;
    if (!address) process.exit(1);
    void engineAlive(address).then((alive) => (alive ? process.exit(1) : stopRun(address)));
  };
  process.stdout.on('error', exitOnBrokenPipe);
  process.stderr.on('error', exitOnBrokenPipe);
  if (!address) return;
  // A killed CLI's program reaps the run's dynamic providers as it exits (reapRunOnExit): one
  // that never loaded this runtime cannot notice by itself. This one can, and must outlive the
  // program to hand back its claims, so it drops the command line the reaper matches.
  process.title = `pulumi-svc dynamic-provider (watching its engine)`;
  setInterval(() => {
    void engineAlive(address).then((alive) => alive || stopRun(address));
  }, ENGINE_CHECK_MS).unref();
}

/** Before a write whose result only the engine can record: stops here if the engine is gone. */
export async function requireEngine(): Promise<void> {
  if (stopping) await stopping;
  const address = engineAddress();
  if (address && !(await engineAlive(address))) {
    say(`the Pulumi engine at ${address} is gone; stopping before anything else is written`);
    await stopRun(address);
  }
}

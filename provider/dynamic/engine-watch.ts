import * as net from 'node:net';
import { say } from './log';

/**
 * The Pulumi CLI starts the dynamic provider in a process group of its own: when the CLI is killed
 * (SIGKILL, a crash), the provider keeps running, and a create it finishes then can never reach
 * the state. So the provider watches the engine it was started for, and stops before it orders
 * anything or marks a guest owned once the engine is gone: the guest of an unfinished create stays
 * recognisable to the next `pulumi up`, which adopts it.
 */

/** `host:port` of the engine, when this process is the dynamic provider the CLI started. */
export function engineAddress(argv: readonly string[] = process.argv): string | undefined {
  if (!/[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(argv[1] ?? '')) return undefined;
  const address = argv[2] ?? '';
  return /^[\w.-]+:\d{1,5}$/.test(address) ? address : undefined;
}

/** False only when the engine's port refuses connections; a slow or odd answer counts as alive. */
export function engineAlive(address: string, timeoutMs = 2000): Promise<boolean> {
  const colon = address.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = net.connect({
      host: address.slice(0, colon),
      port: Number(address.slice(colon + 1)),
    });
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(timeoutMs, () => done(true));
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED'));
  });
}

function stop(address: string): never {
  say(
    `the Pulumi engine at ${address} is gone (the CLI was stopped); the provider stops here, before it changes anything else`,
  );
  process.exit(1);
}

let watching = false;

/** In the provider process: checks the engine every second and exits once it is gone. */
export function watchEngine(): void {
  const address = engineAddress();
  if (!address || watching) return;
  watching = true;
  const timer = setInterval(() => {
    void engineAlive(address).then((alive) => alive || stop(address));
  }, 1000);
  timer.unref();
}

/** Before a write whose result only the engine can record: stops if the engine is gone. */
export async function requireEngine(): Promise<void> {
  const address = engineAddress();
  if (address && !(await engineAlive(address))) stop(address);
}

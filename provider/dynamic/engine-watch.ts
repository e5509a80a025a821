import * as net from 'node:net';

/**
 * Stops the provider process once the Pulumi engine that started it is gone (a killed
 * `pulumi up`). Without this, an orphaned provider lives on, and the first write to its closed
 * stdout spins: the SDK's uncaught-exception handler logs the EPIPE with console.error, which
 * raises another EPIPE, without end (100% CPU, memory growing by the second).
 */
const ENGINE_CHECK_MS = 3_000;
let watching = false;

/** True in the process Pulumi starts for dynamic providers (not in a test calling providers directly). */
const inProviderProcess = () => /cmd[/\\]dynamic-provider/.test(process.argv[1] ?? '');

export function watchEngine(): void {
  if (watching || !inProviderProcess()) return;
  watching = true;
  const exitOnBrokenPipe = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(1);
  };
  process.stdout.on('error', exitOnBrokenPipe);
  process.stderr.on('error', exitOnBrokenPipe);

  // The engine's address is the provider's first argument; nobody listens there once it died.
  const match = /^([\w.-]+|\[[\da-f:]+\]):(\d+)$/i.exec(process.argv[2] ?? '');
  if (!match) return;
  const [, host, port] = match;
  setInterval(() => {
    const socket = net.connect(Number(port), host.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => socket.destroy());
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') process.exit(1);
    });
  }, ENGINE_CHECK_MS).unref();
}

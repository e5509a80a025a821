/**
 * The emulator as a benchmark target, in a child process (like the fixed-bytes server) so it
 * does not share the client's event loop. Started with an in-memory store and the demo seed.
 */
import { fork } from 'node:child_process';
import { startEmulator } from '../../emulator';

export interface EmulatorTarget {
  url: string;
  credentials: { username: string; apiKey: string };
  close(): Promise<void>;
}

type Ready = { url: string; credentials: { username: string; apiKey: string } };

export function startEmulatorTarget(): Promise<EmulatorTarget> {
  const child = fork(__filename, ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`emulator exited early (${code})`)));
    child.once('message', (ready: Ready) => {
      child.removeAllListeners('exit');
      resolve({
        ...ready,
        close: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
  });
}

async function serve(): Promise<void> {
  const emulator = await startEmulator({ provisioningDelayMs: 0 });
  process.send?.({ url: emulator.url, credentials: emulator.credentials } satisfies Ready);
  process.on('disconnect', () => void emulator.close().then(() => process.exit(0)));
}

if (require.main === module && process.argv[2] === '--serve') void serve();

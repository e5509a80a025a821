import * as path from 'node:path';
import { startEmulator } from '../emulator';
import { ProjectStack } from './project-stack';
import { PACKAGE_ROOT } from './pulumi-cli';

/** Where `npm run demo` keeps the Pulumi state and the emulator's data. */
export const DEMO_STATE = path.join(PACKAGE_ROOT, '.state', 'demo');
/** The project the demo runs: the quickstart example, as a user would run it. */
export const DEMO_PROJECT = path.join(PACKAGE_ROOT, 'examples', 'quickstart');
export const DEMO_PORT = Number(process.env.SVC_DEMO_PORT ?? 18_777);

/**
 * Starts the emulator on the demo data and selects the quickstart's `demo` stack against it for
 * the length of `work`. The port is fixed because the stack config records the endpoint.
 */
export async function withDemoStack<T>(
  work: (stack: ProjectStack, endpoint: string) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator({
    port: DEMO_PORT,
    dataDir: path.join(DEMO_STATE, 'emulator'),
    seed: 'demo',
    provisioningDelayMs: 3_000,
  });
  try {
    const stack = new ProjectStack({
      dir: DEMO_PROJECT,
      stackName: 'demo',
      stateDir: path.join(DEMO_STATE, 'backend'),
    });
    await stack.init({
      'svc:endpointUrl': { value: emulator.url },
      'svc:username': { value: emulator.credentials.username },
      'svc:apiKey': { value: emulator.credentials.apiKey, secret: true },
    });
    return await work(stack, emulator.url);
  } finally {
    await emulator.close();
  }
}

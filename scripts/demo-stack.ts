import type { Stack } from '@pulumi/pulumi/automation';
import * as path from 'node:path';
import { startEmulator } from '../emulator';
import { quickstart } from '../examples/quickstart/program';
import { PACKAGE_ROOT, openStack } from './stack';

/** Where `npm run demo` keeps the Pulumi state and the emulator's data. */
export const DEMO_STATE = path.join(PACKAGE_ROOT, '.state', 'demo');

/**
 * Starts the emulator on the demo data and opens the quickstart stack against it for the length
 * of `work`. The port is fixed (SVC_DEMO_PORT, default 18777) because the stack config records
 * the endpoint.
 */
export async function withDemoStack<T>(
  stackName: string,
  work: (stack: Stack, endpoint: string) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator({
    port: Number(process.env.SVC_DEMO_PORT ?? 18_777),
    dataDir: path.join(DEMO_STATE, 'emulator'),
    seed: 'demo',
    provisioningDelayMs: 3_000,
  });
  try {
    const stack = await openStack({
      projectName: 'quickstart',
      stackName,
      program: quickstart,
      stateDir: path.join(DEMO_STATE, 'backend'),
      config: {
        'svc:endpointUrl': { value: emulator.url },
        'svc:username': { value: emulator.credentials.username },
        'svc:apiKey': { value: emulator.credentials.apiKey, secret: true },
      },
    });
    return await work(stack, emulator.url);
  } finally {
    await emulator.close();
  }
}

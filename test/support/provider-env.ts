import * as pulumi from '@pulumi/pulumi';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { configure } from '../../provider/framework/connection';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** The stack config a provider process would receive, as Pulumi's `configure` hands it over. */
export function stackConfig(values: Record<string, string>) {
  return { get: (key: string) => values[key] };
}

/** Configures the provider runtime against `emulator` (plus `config`), as a new run would. */
export async function configureFor(emulator: Emulator, config: Record<string, string> = {}) {
  const { username, apiKey } = emulator.credentials;
  await configure({
    config: stackConfig({
      'svc:endpointUrl': emulator.url,
      'svc:username': username,
      'svc:apiKey': apiKey,
      ...config,
    }),
  });
}

/** An emulator on loopback with the provider runtime configured against it (plus `config`). */
export async function providerEnv(provisioningDelayMs = 300, config: Record<string, string> = {}) {
  const emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs });
  await configureFor(emulator, config);
  const { username, apiKey } = emulator.credentials;
  const client = new Client({ username, apiKey, endpointUrl: emulator.url });
  return { emulator, client };
}

/**
 * The program-side stack config (what the lookups read) pointing at `emulator`, as the language
 * host hands it over: `svc:apiKey` listed as a secret unless `secretKeys` says otherwise.
 */
export function setProgramConfig(
  emulator: Emulator,
  secretKeys: string[] = ['svc:apiKey'],
  values: Record<string, string> = {
    'svc:endpointUrl': emulator.url,
    'svc:username': emulator.credentials.username,
    'svc:apiKey': emulator.credentials.apiKey,
  },
): void {
  pulumi.runtime.setAllConfig(values, secretKeys);
}

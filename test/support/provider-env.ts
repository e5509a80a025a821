import assert from 'node:assert/strict';
import * as pulumi from '@pulumi/pulumi';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import { configure } from '../../provider/framework/connection';
import { virtualGuestProvider } from '../../provider/kinds/virtual-guest/provider';

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

/**
 * A VirtualGuest's inputs as the dynamic resource class hands them to `check` (resource `name` of
 * stack `dev` of project `proj`): one hourly 1-CPU guest in dal10, plus `extra`.
 */
export function declaredGuest(
  name: string,
  domain: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    resourceName: name,
    identity: `proj/dev/${name}`,
    provenance: `organization/urn:pulumi:dev::proj::pulumi-nodejs:dynamic/svc:VirtualGuest::${name}`,
    domain,
    startCpus: 1,
    maxMemory: 1024,
    operatingSystemReferenceCode: 'UBUNTU_LATEST',
    datacenter: 'dal10',
    ...extra,
  };
}

/** A guest sized by a flavor: `declaredGuest`'s inputs with the flavor in place of its cores and memory. */
export function flavoredGuest(
  name: string,
  domain: string,
  flavorKeyName: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const { startCpus: _c, maxMemory: _m, ...rest } = declaredGuest(name, domain);
  return { ...rest, flavorKeyName, ...extra };
}

/** `check` of a create with these inputs, which must pass: the inputs it stores. */
export async function checkedGuest(inputs: Record<string, unknown>) {
  const result = await virtualGuestProvider.check({}, inputs);
  assert.deepEqual(result.failures, []);
  return result.inputs as Record<string, unknown>;
}

import type { ProviderConfig } from '../framework/connection';

/**
 * The provider's configuration: the same `svc:*` keys the dynamic resources read from stack
 * config, described for the schema. The plugin hands them to the same `configure()`.
 */
export interface ConfigKey {
  key: string;
  type: 'string' | 'number';
  description: string;
  secret?: true;
}

export const CONFIG_KEYS: readonly ConfigKey[] = [
  { key: 'username', type: 'string', description: 'API user name (else SVC_USERNAME, ~/.svc).' },
  {
    key: 'apiKey',
    type: 'string',
    secret: true,
    description: 'API key (else SVC_API_KEY, ~/.svc): `pulumi config set --secret svc:apiKey`.',
  },
  { key: 'endpointUrl', type: 'string', description: 'XML-RPC endpoint (else SVC_ENDPOINT_URL).' },
  { key: 'timeout', type: 'number', description: 'Request timeout in seconds.' },
  {
    key: 'maxCallsPerSecond',
    type: 'number',
    description: 'Calls per second sent at most for the account from this machine (default 40).',
  },
  {
    key: 'outcomeWindow',
    type: 'number',
    description: 'Seconds to look for the effect of a write whose answer was lost (default 300).',
  },
];

const SECRET_SIG = '4dabf18193072939515e22adb298388d';
const SECRET_VALUE = '1b47061264138c4ac30d75fd1eb44270';

/** Whether a property value is the engine's wrapped secret. */
export const isSecretValue = (value: unknown): value is { value: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;

/** A value with every wrapped secret in it unwrapped (the provider works on plain values). */
export function unwrapSecrets(value: unknown): unknown {
  if (isSecretValue(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/** A value wrapped as a secret, as the engine keeps it encrypted in the state. */
export const asSecret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });

/** Configure's arguments (`apiKey`, ...) as the `svc:apiKey` reader `configure()` takes. */
export function providerConfig(args: Record<string, unknown>): ProviderConfig {
  const plain = unwrapSecrets(args) as Record<string, unknown>;
  return {
    get: (key) => {
      const value = plain[key.replace(/^svc:/, '')];
      return value === undefined || value === null ? undefined : String(value);
    },
  };
}

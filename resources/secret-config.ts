import * as pulumi from '@pulumi/pulumi';

/**
 * The API key must be a secret in the stack config. Set in plain text (`pulumi config set
 * svc:apiKey <key>` without `--secret`) it would be written unencrypted into the state, as an
 * input of the default dynamic provider, and shown by `pulumi config`. The program refuses to
 * start in that case, before any resource is registered or any call is made.
 *
 * The language host tells the program which config keys are secret (`PULUMI_CONFIG_SECRET_KEYS`,
 * read through the SDK's `runtime.isConfigSecret`). Keys of the form `svc:config:apiKey` (old
 * CLIs) are checked too.
 */

export const API_KEY_CONFIG = 'svc:apiKey';
export const SET_SECRET_COMMAND = `pulumi config set --secret ${API_KEY_CONFIG} <value>`;

type SecretCheck = (key: string) => boolean;

/** `runtime.isConfigSecret` is internal to the SDK (absent from its types) but present since 3.x. */
function isConfigSecret(key: string): boolean {
  const check = (pulumi.runtime as unknown as { isConfigSecret?: SecretCheck }).isConfigSecret;
  const keys = [key, key.replace(':', ':config:')];
  if (typeof check === 'function') return keys.some((k) => check(k));
  const listed = process.env.PULUMI_CONFIG_SECRET_KEYS;
  try {
    const parsed: unknown = listed ? JSON.parse(listed) : [];
    return Array.isArray(parsed) && keys.some((k) => parsed.includes(k));
  } catch {
    return false;
  }
}

/** Throws a `RunError` (printed without a stack) when `svc:apiKey` is set but not as a secret. */
export function assertApiKeyIsSecret(): void {
  const value = pulumi.runtime.getConfig(API_KEY_CONFIG);
  if (value === undefined || value === '' || isConfigSecret(API_KEY_CONFIG)) return;
  throw new pulumi.RunError(
    `${API_KEY_CONFIG} is set in plain text in the stack config, so it would be stored unencrypted ` +
      `in the state. Nothing was done. Set it as a secret:\n\n    ${SET_SECRET_COMMAND}\n\n` +
      'and consider rotating the key if this config file was shared.',
  );
}

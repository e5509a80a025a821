import * as pulumi from '@pulumi/pulumi';
import {
  plainSecretRefusal,
  plainSecretSettings,
  setSecretCommand,
} from '../provider/framework/secret-settings';

/**
 * The dynamic resources' side of the secret-settings rule (provider/framework/secret-settings.ts):
 * the language host tells the program which config keys are secret (`PULUMI_CONFIG_SECRET_KEYS`,
 * read through the SDK's `runtime.isConfigSecret`), so a plain-text `svc:apiKey` is refused before
 * any resource is registered or any call is made. Keys of the form `svc:config:apiKey` (old CLIs)
 * are checked too.
 */

export const SET_SECRET_COMMAND = setSecretCommand('apiKey');

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

/** Throws a `RunError` (printed without a stack) when a secret setting is set in plain text. */
export function assertApiKeyIsSecret(): void {
  const plain = plainSecretSettings((key) => pulumi.runtime.getConfig(key), isConfigSecret);
  if (plain.length > 0) throw new pulumi.RunError(plainSecretRefusal(plain));
}

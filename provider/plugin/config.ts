import { asSecret, isSecretValue, unwrapSecrets } from './secrets';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import type { ProviderConfig } from '../framework/connection';
import { SETTINGS } from '../framework/settings';

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

/**
 * Provider inputs with `apiKey` marked secret. The engine hands CheckConfig every value plain,
 * secret or not, and keeps what it answers in the state: so the key is encrypted there even when
 * `svc:apiKey` was set without `--secret` (where the dynamic resources' program refuses to run,
 * resources/secret-config.ts: their provider's inputs are the program's).
 */
export function secretApiKey(news: Struct | undefined): Struct | undefined {
  const inputs = news?.toJavaScript() ?? {};
  if (inputs.apiKey === undefined || inputs.apiKey === null || isSecretValue(inputs.apiKey)) {
    return news;
  }
  const marked = { ...inputs, apiKey: asSecret(inputs.apiKey) };
  return Struct.fromJavaScript(marked as unknown as Record<string, never>);
}

/** The `svc:*` settings whose values differ between two provider configurations (plain values). */
export function changedSettings(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  return SETTINGS.map(({ key }) => key).filter((key) => text(olds[key]) !== text(news[key]));
}

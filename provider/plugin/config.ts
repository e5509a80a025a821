import { asSecret, isSecretValue, unwrapSecrets } from './secrets';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import type { ProviderConfig } from '../framework/connection';
import { SECRET_SETTINGS } from '../framework/secret-settings';
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
 * The plugin's side of the secret-settings rule (framework/secret-settings.ts): provider inputs
 * with every secret setting marked secret. The engine hands CheckConfig every value plain, secret
 * or not, and keeps what it answers in the state: so the key is encrypted there even when it was
 * set without `--secret`.
 */
export function secretSettings(news: Struct | undefined): Struct | undefined {
  const inputs = news?.toJavaScript() ?? {};
  const plain = SECRET_SETTINGS.filter(
    (key) => inputs[key] !== undefined && inputs[key] !== null && !isSecretValue(inputs[key]),
  );
  if (plain.length === 0) return news;
  const marked = { ...inputs, ...Object.fromEntries(plain.map((k) => [k, asSecret(inputs[k])])) };
  return Struct.fromJavaScript(marked as unknown as Record<string, never>);
}

/** The `svc:*` settings whose values differ between two provider configurations (plain values). */
export function changedSettings(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  return SETTINGS.map(({ key }) => key).filter((key) => text(olds[key]) !== text(news[key]));
}

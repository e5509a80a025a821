/**
 * Secrets as the provider protocol carries them: a property value wrapped in the engine's secret
 * signature. The kinds work on plain values; what came in secret goes back out secret, so the
 * engine keeps it encrypted in the state.
 */

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

/** The top-level properties of `bags` that hold a secret anywhere in their value. */
export function secretKeys(...bags: (Record<string, unknown> | undefined)[]): Set<string> {
  const holdsSecret = (value: unknown): boolean =>
    isSecretValue(value) ||
    (Array.isArray(value) && value.some(holdsSecret)) ||
    (typeof value === 'object' && value !== null && Object.values(value).some(holdsSecret));
  const keys = new Set<string>();
  for (const bag of bags)
    for (const [key, value] of Object.entries(bag ?? {})) if (holdsSecret(value)) keys.add(key);
  return keys;
}

/** `bag` with the properties named in `secret` wrapped as secrets (once). */
export const withSecrets = (bag: Record<string, unknown>, secret: ReadonlySet<string>) =>
  Object.fromEntries(
    Object.entries(bag).map(([k, v]) => [k, secret.has(k) && !isSecretValue(v) ? asSecret(v) : v]),
  );

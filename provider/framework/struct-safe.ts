import type { Bag } from './fields';
import { around, type RuntimeProvider } from './runtime-provider';

/** A deep copy without undefined values: the engine's protobuf Struct rejects them. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Bag).filter(([, v]) => v !== undefined);
    return Object.fromEntries(entries.map(([k, v]) => [k, withoutUndefined(v)])) as T;
  }
  return value;
}

/** Wraps a provider so every property bag it hands back to the engine can be encoded. */
export function structSafe(provider: RuntimeProvider): RuntimeProvider {
  return around(provider, async (_method, call) => withoutUndefined(await call()));
}

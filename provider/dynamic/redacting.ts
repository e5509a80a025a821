import { scrub } from './log';
import type { RuntimeProvider } from './struct-safe';

/**
 * Wraps a provider so that nothing it hands to the engine as text carries a credential: check
 * failure reasons, and the message (and `reasons`, for "created but failed to initialize") of
 * any error it throws. The engine prints both, and keeps neither secret.
 */
export function redacting(provider: RuntimeProvider): RuntimeProvider {
  return {
    check: async (olds, news) => {
      const result = await guard(() => provider.check(olds, news));
      return result.failures
        ? {
            ...result,
            failures: result.failures.map((f) => ({
              property: f.property,
              reason: scrub(f.reason),
            })),
          }
        : result;
    },
    diff: (id, olds, news) => guard(() => provider.diff(id, olds, news)),
    create: (inputs) => guard(() => provider.create(inputs)),
    read: (id, props) => guard(() => provider.read(id, props)),
    update: (id, olds, news) => guard(() => provider.update(id, olds, news)),
    delete: (id, props) => guard(() => provider.delete(id, props)),
  };
}

async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw scrubError(err);
  }
}

/** The same error object with its message, stack, string fields and reasons redacted (class and id kept). */
export function scrubError(err: unknown): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? scrub(err) : err;
  const bag = err as unknown as Record<string, unknown>;
  try {
    err.message = scrub(err.message);
    if (typeof err.stack === 'string') err.stack = scrub(err.stack);
    // `id` is what the engine keeps in state for "created but failed to initialize": never touched.
    for (const key of Object.keys(err)) {
      const value = bag[key];
      if (key !== 'id' && typeof value === 'string') bag[key] = scrub(value);
    }
    if (Array.isArray(bag.reasons)) {
      bag.reasons = bag.reasons.map((r: unknown) => (typeof r === 'string' ? scrub(r) : r));
    }
  } catch {
    // a frozen error: wrap it instead
    return new Error(scrub(err.message));
  }
  return err;
}

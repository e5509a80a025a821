import { scrub } from './log';
import { around, type CheckResult, type RuntimeProvider } from './runtime-provider';

/**
 * Wraps a provider so that nothing it hands to the engine as text carries a credential: check
 * failure reasons, and the message (and `reasons`, for "created but failed to initialize") of
 * any error it throws. The engine prints both, and keeps neither secret.
 */
export function redacting(provider: RuntimeProvider): RuntimeProvider {
  return around(provider, async (method, call) => {
    let result;
    try {
      result = await call();
    } catch (err) {
      throw scrubError(err);
    }
    return method === 'check' ? scrubFailures(result as CheckResult) : result;
  });
}

function scrubFailures(result: CheckResult): CheckResult {
  if (!result.failures) return result;
  return {
    ...result,
    failures: result.failures.map((f) => ({ property: f.property, reason: scrub(f.reason) })),
  };
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

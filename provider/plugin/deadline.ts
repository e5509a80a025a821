import type { Bag } from '../framework/fields';

/** Left for what follows the wait (reading the guest, marking it owned) within the deadline. */
const MARGIN_SECONDS = 1;

/**
 * Runs an operation within the engine's timeout for it (`customTimeouts`, in seconds; 0: none).
 * What takes long is waiting for the guest to be ready, so the wait is bounded by what is left:
 * at the deadline the operation fails the way a readiness timeout fails, keeping the id (the next
 * `up` waits again, no second order). The declared `readyTimeoutMinutes` stays in the outputs.
 */
export async function withDeadline<T>(
  timeoutSeconds: number,
  inputs: Bag,
  run: (bounded: Bag) => Promise<T>,
): Promise<T> {
  const declared = inputs.readyTimeoutMinutes;
  if (!timeoutSeconds || typeof declared !== 'number') return run(inputs);
  const minutes = Math.max(0.01, (timeoutSeconds - MARGIN_SECONDS) / 60);
  const restore = (bag: unknown) => {
    if (bag && typeof bag === 'object') (bag as Bag).readyTimeoutMinutes = declared;
  };
  try {
    const result = await run({ ...inputs, readyTimeoutMinutes: Math.min(declared, minutes) });
    restore((result as { outs?: Bag }).outs);
    return result;
  } catch (err) {
    restore((err as { properties?: Bag }).properties);
    throw err;
  }
}

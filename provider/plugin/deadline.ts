import type { Bag } from '../framework/fields';

/** Left for what follows the wait (reading the object, claiming it) within the deadline. */
const MARGIN_SECONDS = 1;

/**
 * Runs an operation within the engine's timeout for it (`customTimeouts`, in seconds; 0: none).
 * What takes long is the kind's own wait (a guest's readiness), bounded by its `waitInput` in
 * minutes (framework/capabilities.ts), so that input is bounded by what is left: at the deadline
 * the operation fails the way its own wait's timeout fails (a guest keeps its id: the next `up`
 * waits again, no second order). The declared value stays in the outputs.
 */
export async function withDeadline<T>(
  timeoutSeconds: number,
  inputs: Bag,
  waitInput: string | undefined,
  run: (bounded: Bag) => Promise<T>,
): Promise<T> {
  const declared = waitInput === undefined ? undefined : inputs[waitInput];
  if (!timeoutSeconds || !waitInput || typeof declared !== 'number') return run(inputs);
  const minutes = Math.max(0.01, (timeoutSeconds - MARGIN_SECONDS) / 60);
  const restore = (bag: unknown) => {
    if (bag && typeof bag === 'object') (bag as Bag)[waitInput] = declared;
  };
  try {
    const result = await run({ ...inputs, [waitInput]: Math.min(declared, minutes) });
    restore((result as { outs?: Bag }).outs);
    return result;
  } catch (err) {
    restore((err as { properties?: Bag }).properties);
    throw err;
  }
}

/**
 * The one polling loop of the package: read until a read is done or the deadline passes. Reads
 * start `firstMs` apart and the gap grows by `growth` up to `maxMs`, never sleeping past the
 * deadline; the last read comes back either way, with whether it was done.
 */
export interface Pace {
  firstMs: number;
  growth: number;
  maxMs: number;
}

export interface PollOptions<T> extends Pace {
  timeoutMs: number;
  /** After each read that was not done and before the pause (not after the last). */
  onPending?: (value: T, elapsedMs: number) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions<T>,
): Promise<{ value: T; done: boolean }> {
  const started = Date.now();
  let delay = options.firstMs;
  for (;;) {
    const value = await read();
    if (done(value)) return { value, done: true };
    const elapsed = Date.now() - started;
    if (elapsed >= options.timeoutMs) return { value, done: false };
    options.onPending?.(value, elapsed);
    await sleep(Math.min(delay, options.timeoutMs - elapsed));
    delay = Math.min(delay * options.growth, options.maxMs);
  }
}

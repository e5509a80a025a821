import { ParseError, ServerError, TransportError, isRateLimited } from '../client';
import { say } from './log';

/**
 * Writes that bill or add things must happen once. The client never repeats them on its own; here
 * a failed write is followed by a lookup of its effect, and only when the lookup proves the write
 * did not happen, and the failure was transient, is it tried again. A failed lookup means the
 * outcome is unknown: the original error is raised and nothing is repeated.
 */

/** Failures after which the server may be fine a moment later (not a refusal of the request). */
export function isTransient(err: unknown): boolean {
  return (
    err instanceof TransportError ||
    err instanceof ServerError ||
    err instanceof ParseError ||
    isRateLimited(err)
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface OnceOptions<T> {
  /** What is being written, for progress lines. */
  what: string;
  write(): Promise<T>;
  /** The written object, if the write took effect; must not throw for "absent". */
  find(): Promise<T | undefined>;
  attempts?: number;
  /** Pause before looking, so a write still in flight on the server shows. */
  settleMs?: number;
}

export async function createOnce<T>(options: OnceOptions<T>): Promise<T> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.write();
    } catch (err) {
      await sleep((options.settleMs ?? 500) * attempt);
      let found: T | undefined;
      try {
        found = await options.find();
      } catch {
        throw err; // the outcome is unknown: never write again blind
      }
      if (found !== undefined) {
        say(
          `${options.what}: no answer came back (${(err as Error).message}), but it was done; using it`,
        );
        return found;
      }
      if (!isTransient(err) || attempt >= attempts) throw err;
      say(
        `${options.what}: failed (${(err as Error).message}) and did not happen; trying again (${attempt + 1}/${attempts})`,
      );
    }
  }
}

/** Deletes until the object is gone; deleting what is already gone counts as done. */
export async function removeOnce(options: {
  what: string;
  remove(): Promise<void>;
  exists(): Promise<boolean>;
  attempts?: number;
}): Promise<void> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.remove();
    } catch (err) {
      if (!(await options.exists().catch(() => true))) return;
      if (!isTransient(err) || attempt >= attempts) throw err;
      say(
        `${options.what}: delete failed (${(err as Error).message}); trying again (${attempt + 1}/${attempts})`,
      );
      await sleep(500 * attempt);
    }
  }
}

import {
  ParseError,
  ServerError,
  SvcAPIError,
  TransportError,
  Unauthenticated,
  isRateLimited,
} from '../client';
import { poll } from '../client/poll';
import { say } from './log';
import { currentOperation, idOf } from './operation';

/**
 * Writes that bill or add things must happen once, and a write whose answer did not come back may
 * well have happened. The client never repeats a write on its own; this module decides what a
 * failed write means:
 *
 * - a refusal the API gives before doing anything (a fault: validation, authentication, not
 *   found) means nothing was written; the error is raised as it is;
 * - the rate-limit fault means nothing was written; the transport alone sends the write again after
 *   a pause (a second retry layer here multiplied the sends of one write while the account was
 *   over its limit), and one that still comes back fails as OverRateLimitError;
 * - anything else (a timeout, a dropped or reset connection, an HTTP error from a proxy that may
 *   have answered after the backend committed, an internal-error fault, an answer that cannot be
 *   read) leaves the outcome unknown. Unknown is not failed: the effect is looked for, with
 *   backoff, for a bounded window; if it does not show, an `OutcomeUnknownError` says so and the
 *   write is not sent again.
 */

export type FailureKind = 'refused' | 'throttled' | 'unknown';

export function classifyFailure(err: unknown): FailureKind {
  if (isRateLimited(err)) return 'throttled';
  if (err instanceof Unauthenticated) return 'refused';
  if (err instanceof TransportError || err instanceof ParseError || err instanceof ServerError) {
    return 'unknown';
  }
  return err instanceof SvcAPIError ? 'refused' : 'unknown';
}

/** A write whose effect could neither be confirmed nor ruled out within the window. */
export class OutcomeUnknownError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'OutcomeUnknownError';
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Polls `probe` with backoff (0.5 s, growing by half, at most 10 s apart) until it returns a value
 * or `windowMs` has passed since the start. A probe that throws counts as "not seen yet".
 */
export async function lookFor<T>(
  probe: () => Promise<T | undefined>,
  windowMs: number,
): Promise<{ found?: T; lastError?: unknown }> {
  let lastError: unknown;
  const { value } = await poll(
    async () => {
      try {
        return await probe();
      } catch (err) {
        lastError = err;
        return undefined;
      }
    },
    (found) => found !== undefined,
    { timeoutMs: windowMs, firstMs: 500, growth: 1.5, maxMs: 10_000 },
  );
  return value === undefined ? { lastError } : { found: value };
}

export interface CreateOnce<T> {
  /** What is being written, for progress lines and messages. */
  what: string;
  write(): Promise<T>;
  /**
   * The object this very write made, if it shows yet; must not return anything that existed
   * before the write or that another writer made. Throwing counts as "not seen yet".
   */
  find(): Promise<T | undefined>;
  /** How long to keep looking after an unknown outcome. */
  windowMs: number;
  /** What the next `pulumi up` does about an unknown outcome, for the message. */
  nextRun: string;
  /**
   * The id of the object made (default: its `id`), recorded as made by the running operation
   * (operation.ts), so that a cancel's early answer knows it; an order's receipt names it here.
   */
  madeId?(made: T): number | undefined;
}

/**
 * The account stayed over its API rate limit for as long as the transport kept sending a write
 * (it alone retries the rate-limit fault: transport/retry.ts, at most `rateLimitRetries` more
 * sends over about a minute). The API refused every send before doing anything: nothing was
 * written, and sending it again now would only add to the load that keeps the account over.
 */
export class OverRateLimitError extends SvcAPIError {
  constructor(what: string, err: SvcAPIError) {
    super(
      err.faultCode,
      `${what}: the account is over its API rate limit: the API refused every send of it (${err.faultString}), so nothing was written. Other clients of the account are using its calls; run it again once they slow down, or lower svc:maxCallsPerSecond for this stack`,
    );
  }
}

/** Sends `write` once (the transport has retried the rate limit); see OverRateLimitError. */
async function send<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (classifyFailure(err) === 'throttled')
      throw new OverRateLimitError(what, err as SvcAPIError);
    throw err;
  }
}

/** Sends a creating write once; see the module comment for what a failure leads to. */
export async function createOnce<T>(options: CreateOnce<T>): Promise<T> {
  let made: T;
  try {
    made = await send(options.what, options.write);
  } catch (err) {
    if (classifyFailure(err) !== 'unknown') throw err;
    made = await confirmUnknown(options, err);
  }
  const id = options.madeId ? options.madeId(made) : idOf(made);
  if (id !== undefined) currentOperation()?.touched.add(id);
  return made;
}

async function confirmUnknown<T>(options: CreateOnce<T>, err: unknown): Promise<T> {
  const seconds = Math.round(options.windowMs / 1000);
  say(
    `${options.what}: no definite answer (${errorText(err)}); it may have happened, so it is not sent again: looking for it for up to ${seconds} s`,
  );
  const { found, lastError } = await lookFor(options.find, options.windowMs);
  if (found !== undefined) {
    say(`${options.what}: found what it made; using it (no second write)`);
    return found;
  }
  const lookup = lastError ? `; the last lookup failed too: ${errorText(lastError)}` : '';
  throw new OutcomeUnknownError(
    `${options.what}: the outcome is unknown. The write got no definite answer (${errorText(err)}) and what it would have made did not show within ${seconds} s${lookup}. It was not sent again. ${options.nextRun}`,
    err,
  );
}

export interface IdempotentWrite {
  what: string;
  write(): Promise<void>;
  /** Whether the write's effect is in place (for a delete: the object is gone). */
  done(): Promise<boolean>;
  windowMs: number;
  /** Sends after an unknown outcome that did not show (default 3). */
  attempts?: number;
}

/**
 * A write that may be repeated without harm (an edit to given values, a delete by id): after an
 * unknown outcome its effect is looked for within the window, and it is sent again only if the
 * effect did not show. A refusal is raised at once.
 */
export async function writeIdempotent(options: IdempotentWrite): Promise<void> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(options.what, options.write);
    } catch (err) {
      if (classifyFailure(err) !== 'unknown') throw err;
      const { found } = await lookFor(
        async () => ((await options.done()) ? true : undefined),
        options.windowMs / attempts,
      );
      if (found) return;
      if (attempt >= attempts) throw err;
      say(
        `${options.what}: no definite answer (${errorText(err)}) and no effect seen; sending it again (${attempt + 1}/${attempts})`,
      );
    }
  }
}

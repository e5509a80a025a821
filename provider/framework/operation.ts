import { AsyncLocalStorage } from 'node:async_hooks';
import { SvcAPIError } from '../client';
import { answered, claimScope, inScope, isRelease, release, type ClaimScope } from './claims';
import { say } from './log';

/**
 * One lifecycle call of the engine, as every kind receives it whichever door it came through: the
 * door makes an `Operation` of its protocol's call and hands it to the kind's method as its last
 * argument.
 *
 * - `signal` is aborted when the engine cancels the call (the plugin's Cancel) or abandons it.
 *   From then on the operation writes nothing: every write passes this gate (write-gate.ts) and is
 *   refused with `CancelledWrite`, a refusal before anything was sent.
 * - `deadline` is when the engine stops waiting for the answer (`customTimeouts`); a kind ends its
 *   long waits by then (`boundedWait`), failing as its own wait's timeout fails.
 * - A create's claims (claims.ts) live in the operation's scope: released if the engine abandons
 *   it, or is gone, before the operation answered.
 */
export interface OperationRequest {
  readonly signal: AbortSignal;
  /** Epoch milliseconds; undefined: no limit but the kind's own settings. */
  readonly deadline?: number;
}

/** A write refused because the engine cancelled (or abandoned) the operation: nothing was sent. */
export class CancelledWrite extends SvcAPIError {
  /** `refused`: what did not happen, e.g. `Virtual_Guest.createObject was not sent`. */
  constructor(refused: string, why: string) {
    super('Cancelled', `${refused}: ${why}`);
  }
}

const current = new AsyncLocalStorage<Operation>();

export interface OperationOptions {
  /** The engine's timeout for the call, in seconds (0 or undefined: none). */
  timeoutSeconds?: number;
  /** It is a create: the claims it writes are its engine's only once it has answered. */
  claims?: boolean;
}

export class Operation implements OperationRequest {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  readonly deadline?: number;
  /** Writes sent and not answered yet. */
  readonly inFlight = new Set<Promise<unknown>>();
  /** Writes sent so far. */
  writes = 0;
  /** Ids of the objects its writes made (a create's answer) or wrote to (`id` of the call). */
  touched = new Set<number>();
  /** Why its engine call was abandoned: nothing it does can be recorded, not even after a cancel. */
  abandoned?: string;
  /** It may write although cancelled: the early answer that claims what exists (plugin). */
  mayWriteAfterCancel = false;
  readonly claims?: ClaimScope;

  constructor(
    readonly label: string,
    options: OperationOptions = {},
  ) {
    if (options.timeoutSeconds) this.deadline = Date.now() + options.timeoutSeconds * 1000;
    if (options.claims) this.claims = claimScope(() => this.writesSettled());
  }

  /** The engine cancelled the call: it writes nothing more (`why` says so to whoever tries). */
  cancel(why: string): void {
    if (!this.signal.aborted) this.controller.abort(why);
  }

  /** The engine abandoned the call: it writes nothing more, and its claims go once its writes land. */
  abandon(why: string): void {
    if (this.abandoned) return;
    this.abandoned = why;
    this.cancel(why);
    if (this.claims) release(this.claims, say, this.writesSettled());
  }

  /** The call has answered its engine: its claims are the engine's now. */
  answered(): void {
    if (this.claims) answered(this.claims);
  }

  /** Why it may not write now, if it may not (a claim's release always may). */
  refusal(): string | undefined {
    if (isRelease() || !this.signal.aborted) return undefined;
    return this.abandoned ?? (this.mayWriteAfterCancel ? undefined : String(this.signal.reason));
  }

  /** Sends one write of this operation, counting it and the ids it touches or makes. */
  async track<T>(what: string, target: unknown, send: () => Promise<T>): Promise<T> {
    const targetId = Number(target);
    if (Number.isSafeInteger(targetId) && targetId > 0) this.touched.add(targetId);
    const sent = send();
    this.writes += 1;
    this.inFlight.add(sent);
    try {
      const answer = await sent;
      const made = /^create/.test(what.split('.')[1] ?? '') ? idOf(answer) : undefined;
      if (made !== undefined) this.touched.add(made);
      return answer;
    } finally {
      this.inFlight.delete(sent);
    }
  }

  /** Waits until no write is in flight (each is bounded by the client's timeout). */
  async writesSettled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Runs `work` as (part of) this operation: its writes pass its gate, its claims its scope. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const scoped = this.claims ? () => inScope(this.claims!, work) : work;
    return current.run(this, scoped);
  }
}

/** The id an API answer names (`{ id }`), if it is one. */
export const idOf = (value: unknown): number | undefined => {
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
};

/** The operation the code running now belongs to, if any. */
export const currentOperation = (): Operation | undefined => current.getStore();

/** Left for what follows a wait (reading the object, claiming it) within the deadline. */
const MARGIN_MS = 1_000;
/** A wait is never bounded below this: it still looks once. */
const LEAST_WAIT_MS = 600;

/**
 * How long a kind's wait may last: its own limit (`ms`), cut to what the engine's deadline leaves
 * of the operation, less a margin for what follows it.
 */
export function boundedWait(request: OperationRequest | undefined, ms: number): number {
  if (request?.deadline === undefined) return ms;
  return Math.min(ms, Math.max(LEAST_WAIT_MS, request.deadline - Date.now() - MARGIN_MS));
}

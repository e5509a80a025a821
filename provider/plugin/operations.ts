import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcAPIError } from '../client';
import {
  answered as answeredClaims,
  claimScope,
  inScope,
  isRelease,
  release,
  type ClaimScope,
} from '../framework/claims';
import { say } from '../framework/log';
import { setDoorWriteRule, type WriteRule } from '../framework/write-gate';

/**
 * The plugin's writes to the API, gated, and the engine calls (Create, Update, Delete) that make
 * them, tracked so that `Cancel` can stop them gracefully.
 *
 * Every write of the connection's client passes the framework's gate (framework/write-gate.ts:
 * the engine must still be there), then this door's rule: after `Cancel`, no write is sent; it is
 * refused with `CancelledWrite`, a refusal before anything was written (the exactly-once code
 * raises it as it is, never looks for its effect).
 *
 * An engine call runs as an `Operation` (AsyncLocalStorage follows it through its promises and
 * timers), which records the writes it has in flight and the ids they made or touched. On
 * `Cancel` every running operation is given the time to finish the writes it has sent and a short
 * grace; one still running after that (waiting for a guest to be ready, an upgrade to finish, a
 * guest to be idle) is answered at once by its `early` answer (see server.ts), with what its
 * writes made, so that the engine records what exists. Its own code runs on until the engine
 * closes the plugin, but can write nothing more.
 */

const CANCELLED =
  'the Pulumi operation was cancelled (Ctrl-C), and a cancelled operation writes nothing more';
const ABANDONED =
  'the engine that asked for it has gone away (its call was cancelled), so nothing it asked for is written any more';

/** A write refused because the engine cancelled (or abandoned) the operation: nothing was sent. */
export class CancelledWrite extends SvcAPIError {
  /** `refused`: what did not happen, e.g. `Virtual_Guest.createObject was not sent`. */
  constructor(refused: string, why = CANCELLED) {
    super('Cancelled', `${refused}: ${why}`);
  }
}

/** One Create, Update or Delete call of the engine. */
export interface Operation {
  readonly label: string;
  /** Writes sent and not answered yet. */
  readonly inFlight: Set<Promise<unknown>>;
  /** Writes sent so far. */
  writes: number;
  /** Ids of the objects its writes made (a create's answer) or wrote to (`id` of the call). */
  readonly touched: Set<number>;
  /** Its early answer runs in an operation that may write (the claim of a kept guest). */
  readonly mayWriteAfterCancel?: boolean;
  /** Its engine call was cancelled (the engine went away): nothing it does can be recorded. */
  abandoned?: boolean;
  /** The claims of a create (framework/claims.ts): released if the engine abandons it. */
  readonly claims?: ClaimScope;
}

/** The engine's side of a call: told when the engine cancels it or goes away. */
export interface EngineCall {
  on(event: 'cancelled', listener: () => void): unknown;
}

/** What a grace period after the sent writes are answered leaves an operation to end by itself. */
export const GRACE_MS = 1_500;

const current = new AsyncLocalStorage<Operation>();
const running = new Set<{ cancelled: () => void }>();
let cancelled = false;

/** Whether the engine has cancelled (it does so once, for the rest of the plugin's life). */
export const cancelRequested = (): boolean => cancelled;

/** Cancel: no write from now on; running operations end (see the module comment). */
export function cancelAll(): number {
  cancelled = true;
  for (const op of running) op.cancelled();
  return running.size;
}

const idOf = (value: unknown): number | undefined => {
  const id = (value as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
};

/** Why `op` may not write now, if it may not. */
function refusal(op: Operation | undefined): string | undefined {
  if (isRelease()) return undefined;
  if (op?.abandoned) return ABANDONED;
  return cancelled && !op?.mayWriteAfterCancel ? CANCELLED : undefined;
}

/** This door's rule for every write (see the module comment). */
const sendWrite: WriteRule = async (what, options, send) => {
  const op = current.getStore();
  const why = refusal(op);
  if (why) throw new CancelledWrite(`${what} was not sent`, why);
  const target = Number(options?.id);
  if (op && Number.isSafeInteger(target) && target > 0) op.touched.add(target);
  const sent = Promise.resolve(send());
  if (!op) return sent;
  op.writes += 1;
  op.inFlight.add(sent);
  try {
    const answer = await sent;
    const made = /^create/.test(what.split('.')[1]) ? idOf(answer) : undefined;
    if (made !== undefined) op.touched.add(made);
    return answer;
  } finally {
    op.inFlight.delete(sent);
  }
};
setDoorWriteRule(sendWrite);

/** Waits until no write of `op` is in flight (each is bounded by the client's timeout). */
async function writesSettled(op: Operation): Promise<void> {
  while (op.inFlight.size > 0) await Promise.allSettled([...op.inFlight]);
}

/** The engine abandoned `op`: it writes nothing more, and its claims go, once its writes land. */
function abandon(op: Operation): void {
  if (op.abandoned) return;
  op.abandoned = true;
  if (op.claims) release(op.claims, say, writesSettled(op));
}

export interface OperationOptions<T> {
  /** Its answer when cancelled while it still runs (see runOperation). */
  early?: (op: Operation) => (() => Promise<T>) | undefined;
  /** The engine's call, to know when the engine abandons it. */
  call?: EngineCall;
  /** It is a create: the claims it writes are released if the engine abandons it. */
  claims?: boolean;
}

/**
 * Runs one engine call as an operation. Once cancelled: refused before it starts; while it runs,
 * answered by `early(op)` if it has not ended within the grace after its sent writes. Without
 * `early`, or when it returns undefined, the operation runs to its end, which comes soon: it can
 * write nothing more. An operation whose call the engine abandons writes nothing more either,
 * and what it marked as handed to the state is released.
 */
export async function runOperation<T>(
  label: string,
  work: () => Promise<T>,
  options: OperationOptions<T> = {},
): Promise<T> {
  if (cancelled) throw new CancelledWrite(`${label} was not started`);
  const op: Operation = {
    label,
    inFlight: new Set(),
    writes: 0,
    touched: new Set(),
    claims: options.claims ? claimScope() : undefined,
  };
  let ended = false;
  let answered = false;
  // Once answered (by the work or, after a Cancel, early), a cancelled call may be only the engine
  // closing its connection after it took the answer (an up ended by Ctrl-C): the claim stays, as
  // the state may hold it.
  options.call?.on('cancelled', () => {
    if (!answered) abandon(op);
  });
  let onCancel = () => undefined as void;
  const cancelledNow = new Promise<void>((resolve) => (onCancel = resolve));
  const entry = { cancelled: () => onCancel() };
  running.add(entry);
  const inClaims = (run: () => Promise<T>) => (op.claims ? inScope(op.claims, run) : run());
  const result = current
    .run(op, () => inClaims(work))
    .finally(() => {
      ended = true;
      running.delete(entry);
    });
  const answer = <A>(settled: Promise<A>) =>
    settled.finally(() => {
      answered = true;
      if (op.claims) answeredClaims(op.claims);
    });
  const { early } = options;
  if (!early) return answer(result);
  const cut = cancelledNow.then(async () => {
    await writesSettled(op);
    await Promise.race([result.catch(() => undefined), sleep(GRACE_MS)]);
    const quick = ended ? undefined : early(op);
    if (!quick) return result;
    // It reads through to `op` (abandoned, writes in flight), with its own view of what was made.
    const answering: Operation = Object.assign(Object.create(op) as Operation, {
      touched: new Set(op.touched),
      mayWriteAfterCancel: true,
    });
    return current.run(answering, () => inClaims(quick));
  });
  return answer(Promise.race([result, cut]));
}

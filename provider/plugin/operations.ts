import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledWrite, Operation, type OperationOptions } from '../framework/operation';

/**
 * The engine's Cancel, for the engine calls (Create, Update, Delete) the plugin is running.
 *
 * Each call runs as a framework `Operation` (framework/operation.ts), the request its kind
 * receives. On `Cancel` every running operation is cancelled: its signal aborts, and the write
 * gate refuses its writes from then on. It is given the time to finish the writes it has sent and a
 * short grace; one still running after that (waiting for a guest to be ready, an upgrade to
 * finish, a guest to be idle) is answered at once by its kind's early answer
 * (framework/capabilities.ts), with what its writes made, so that the engine records what exists.
 * Its own code runs on until the engine closes the plugin, but can write nothing more.
 */

const CANCELLED =
  'the Pulumi operation was cancelled (Ctrl-C), and a cancelled operation writes nothing more';
const ABANDONED =
  'the engine that asked for it has gone away (its call was cancelled), so nothing it asked for is written any more';

/** The engine's side of a call: told when the engine cancels it or goes away. */
export interface EngineCall {
  on(event: 'cancelled', listener: () => void): unknown;
}

/** What a grace period after the sent writes are answered leaves an operation to end by itself. */
export const GRACE_MS = 1_500;

const running = new Set<Operation>();
let cancelled = false;

/** Whether the engine has cancelled (it does so once, for the rest of the plugin's life). */
export const cancelRequested = (): boolean => cancelled;

/**
 * An engine call as an operation: after a Cancel it starts cancelled, so nothing it runs writes
 * (a check, diff or read writes nothing anyway; this keeps it so).
 */
export function engineCall(label: string, options?: OperationOptions): Operation {
  const op = new Operation(label, options);
  if (cancelled) op.cancel(CANCELLED);
  return op;
}

/** Cancel: no write from now on; running operations end (see the module comment). */
export function cancelAll(): number {
  cancelled = true;
  for (const op of running) op.cancel(CANCELLED);
  return running.size;
}

export interface RunOptions<T> {
  /** Its answer when cancelled while it still runs (see runOperation). */
  early?: (op: Operation) => (() => Promise<T>) | undefined;
  /** The engine's call, to know when the engine abandons it. */
  call?: EngineCall;
}

/**
 * Runs one engine call as `op`. Once cancelled: refused before it starts; while it runs, answered
 * by `early(op)` if it has not ended within the grace after its sent writes. Without `early`, or
 * when it returns undefined, the operation runs to its end, which comes soon: it can write
 * nothing more. An operation whose call the engine abandons writes nothing more either, and what
 * it marked as handed to the state is released.
 */
export async function runOperation<T>(
  op: Operation,
  work: (op: Operation) => Promise<T>,
  options: RunOptions<T> = {},
): Promise<T> {
  if (cancelled) throw new CancelledWrite(`${op.label} was not started`, CANCELLED);
  let ended = false;
  let answered = false;
  // Once answered (by the work or, after a Cancel, early), a cancelled call may be only the engine
  // closing its connection after it took the answer (an up ended by Ctrl-C): the claim stays, as
  // the state may hold it.
  options.call?.on('cancelled', () => {
    if (!answered) op.abandon(ABANDONED);
  });
  running.add(op);
  const result = op
    .run(() => work(op))
    .finally(() => {
      ended = true;
      running.delete(op);
    });
  const answer = <A>(settled: Promise<A>) =>
    settled.finally(() => {
      answered = true;
      op.answered();
    });
  const { early } = options;
  if (!early) return answer(result);
  // A Cancel, not an abandon (nobody is left to take an early answer).
  const cut = new Promise<void>((resolve) =>
    op.signal.addEventListener('abort', () => !op.abandoned && resolve(), { once: true }),
  ).then(async () => {
    await op.writesSettled();
    await Promise.race([result.catch(() => undefined), sleep(GRACE_MS)]);
    const quick = ended ? undefined : early(op);
    if (!quick) return result;
    // It reads through to `op` (abandoned, writes in flight), with its own view of what was made.
    const answering: Operation = Object.assign(Object.create(op) as Operation, {
      touched: new Set(op.touched),
      mayWriteAfterCancel: true,
    });
    return answering.run(quick);
  });
  return answer(Promise.race([result, cut]));
}

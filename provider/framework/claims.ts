import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Claims sent by creates that have not answered their engine yet, for both front doors.
 *
 * A create marks what it made as handed to a state (a guest's owned tag) right before it answers
 * the engine with the id. That mark is a write like any other: its answer can be slow or lost, and
 * the server can commit it after the client gave up. If the run dies meanwhile (a killed CLI), the
 * id never reaches the state, yet the mark lands: the object looks like a completed create's,
 * which no create adopts, and the next `up` would order another.
 *
 * Neither the API nor the engine's protocol can tell that object from one a completed create
 * handed to a state that later let it go (`pulumi state delete`, `retainOnDelete`), so the next
 * run cannot decide it. The run that wrote the mark can: a claim is registered here, in the scope
 * of the engine call that makes it, before its write is sent, and stays until that call has
 * answered. A scope the engine abandons (the plugin sees its call cancelled), and every scope
 * still unanswered when the provider finds its engine gone, has its claims released: the provider
 * waits for the mark to land and takes it back, so the object goes back to an unfinished
 * create's, which the next `up` adopts.
 */

export interface Claim {
  /** What was claimed, for messages (`guest 1234`). */
  readonly what: string;
  /** Waits (bounded) for the claim's write to land, then takes the mark back; false: it never landed. */
  release(): Promise<boolean | void>;
}

/** The claims of one engine call; once it has answered, they are the engine's. */
export interface ClaimScope {
  readonly claims: Set<Claim>;
  answered: boolean;
  /**
   * Resolves once the call's writes on their way have been answered (each bounded by the client's
   * timeout and its rate-limit retries): a claim's write still on its way can land after its
   * release has stopped looking.
   */
  readonly settled?: () => Promise<void>;
}

const current = new AsyncLocalStorage<ClaimScope>();
const releasing = new AsyncLocalStorage<true>();

/**
 * Runs `work`, the release of a claim its engine never recorded: its writes must go out although
 * (because) the engine is gone or the call was cancelled, so every gate lets them pass.
 */
const asRelease = <T>(work: () => Promise<T>): Promise<T> => releasing.run(true, work);

/** Whether the code running now is such a release. */
export const isRelease = (): boolean => releasing.getStore() === true;
const open = new Set<ClaimScope>();
const releases = new Set<Promise<void>>();

export function claimScope(settled?: () => Promise<void>): ClaimScope {
  const scope: ClaimScope = { claims: new Set(), answered: false, settled };
  open.add(scope);
  return scope;
}

/** Runs `work` with the claims it sends registered in `scope`. */
export const inScope = <T>(scope: ClaimScope, work: () => Promise<T>): Promise<T> =>
  current.run(scope, work);

/** The call of `scope` has answered its engine: its claims are never released. */
export function answered(scope: ClaimScope): void {
  scope.answered = true;
  open.delete(scope);
}

/** Registers a claim about to be written, in the scope of the call writing it (if any). */
export function claimSent(claim: Claim): void {
  const scope = current.getStore();
  if (scope && !scope.answered) scope.claims.add(claim);
}

/** Releases the claims of `scope`, once `after` has settled (its writes still on their way). */
export function release(
  scope: ClaimScope,
  report: (line: string) => void = () => undefined,
  after?: Promise<unknown>,
): void {
  if (scope.answered) return;
  answered(scope); // released once
  const claims = [...scope.claims];
  const done = (async () => {
    await after?.catch(() => undefined);
    await asRelease(() =>
      Promise.all(
        claims.map((claim) =>
          claim.release().then(
            (landed) =>
              report(
                landed === false
                  ? `${claim.what}: its create never reached the state; its mark never landed`
                  : `${claim.what}: its create never reached the state; its mark is taken back`,
              ),
            (err: Error) => report(`${claim.what}: could not take its mark back (${err.message})`),
          ),
        ),
      ),
    );
  })();
  releases.add(done);
  void done.finally(() => releases.delete(done));
}

/** Releases the claims of every call that has not answered (its engine is gone); never throws. */
export async function releaseUnanswered(
  report: (line: string) => void = () => undefined,
): Promise<void> {
  // Each once its writes on their way have landed: the engine is gone, so no new one is sent.
  for (const scope of [...open]) release(scope, report, scope.settled?.());
  await Promise.allSettled([...releases]);
}

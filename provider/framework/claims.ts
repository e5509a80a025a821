/**
 * Claims sent by creates that have not answered their engine yet.
 *
 * A create marks what it made as handed to a state (a guest's owned tag) right before it answers
 * the engine with the id. That mark is a write like any other: its answer can be slow or lost, and
 * the server can commit it after the client gave up. If the run dies meanwhile (a killed CLI), the
 * id never reaches the state, yet the mark lands: the object looks like a completed create's,
 * which no create adopts, and the next `up` would order another.
 *
 * Neither the API nor the engine's protocol can tell that object from one a completed create
 * handed to a state that later let it go (`pulumi state delete`, `retainOnDelete`), so the next
 * run cannot decide it. The run that wrote the mark can: a claim is registered here before its
 * write is sent and stays until its create answers. When the engine is found gone, the provider
 * (which outlives a killed CLI: it runs in a process group of its own) releases every claim still
 * registered before it exits: it waits for the mark to land and takes it back, so the object goes
 * back to an unfinished create's, which the next `up` adopts.
 */

export interface Claim {
  /** What was claimed, for messages (`guest 1234`). */
  readonly what: string;
  /** Waits (bounded) for the claim's write to land, then takes the mark back. */
  release(): Promise<void>;
}

const unanswered = new Set<Claim>();

/**
 * Runs `work` (one create) with the claims it sends registered until it answers, by returning or
 * throwing: either way its answer carries the id, so the engine records the object.
 */
export async function answering<T>(work: (sent: (claim: Claim) => void) => Promise<T>): Promise<T> {
  const mine: Claim[] = [];
  try {
    return await work((claim) => {
      mine.push(claim);
      unanswered.add(claim);
    });
  } finally {
    for (const claim of mine) unanswered.delete(claim);
  }
}

/** Releases every claim whose create has not answered (the engine is gone); never throws. */
export async function releaseUnanswered(
  report: (line: string) => void = () => undefined,
): Promise<void> {
  const claims = [...unanswered];
  unanswered.clear();
  await Promise.all(
    claims.map((claim) =>
      claim.release().then(
        () =>
          report(`${claim.what}: its create never reached the state; its owned mark is taken back`),
        (err: Error) =>
          report(`${claim.what}: could not take its owned mark back (${err.message})`),
      ),
    ),
  );
}

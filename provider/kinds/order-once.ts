import { sameJson } from '../framework/compare';
import { freeWriteWindowMs, outcomeWindowMs } from '../framework/connection';
import { createOnce } from '../framework/exactly-once';
import { handOver, type HandedMark } from '../framework/handed-mark';
import { isHeld } from '../framework/held-objects';
import { say } from '../framework/log';
import { initFailure } from '../framework/runtime-provider';

/**
 * A billed object ordered exactly once through `Product_Order.placeOrder` with a creation token
 * the object carries (a volume's container identifier, a server's tag), for every kind ordered
 * that way, and handed to a state with a mark (framework/handed-mark.ts) as the create's last
 * write. A free object whose create carries the token in a text field until the handover (a
 * security or placement group: `free`) is made once the same way.
 *
 * Before ordering, the live objects carrying the token are looked for. One without the mark is
 * what an earlier create of the resource ordered and never handed to a state (a killed CLI, a
 * Ctrl-C, an expired `customTimeouts.create`, a lost answer, a second `up` while the first
 * provisions): it is taken over, provisioned or not (the kind then waits for it), and nothing is
 * ordered. One with the mark was handed to a state: it may be the resource's current object (a
 * replace that orders before it deletes, with the same token), which a takeover would then
 * cancel, so it is refused; several unmarked ones are refused. An order whose answer is lost is
 * looked for by its token, never placed twice.
 *
 * What an order makes is told apart by the fields that replace the object (`differs`): a handed
 * object that differs in them is the one a replace replaces (or one a state let go) and is left
 * alone. An unmarked one that differs is still this resource's unfinished order (a killed `up`,
 * then a change of what the object is ordered as, such as a datacenter taken from a guest that
 * landed elsewhere since): it cannot be taken over, and ordering another would leave it billed
 * outside every state, so the create refuses and says what differs.
 */
export interface OrderOnce<T extends { id: number }> {
  /** `BlockVolume "data"`, for messages. */
  what: string;
  /** `volume`, `server`. */
  noun: string;
  token: string;
  /** The live objects carrying the token, whatever they were ordered as. */
  found(): Promise<T[]>;
  /** Whether it carries the handed mark (as `found` read it). */
  handed(object: T): boolean;
  /**
   * How the object differs from what an order of these inputs makes, in the fields that replace
   * it (`differences`); none when it is what the order makes. Absent: every carrier is.
   */
  differs?(object: T): string[];
  /** Places the order (a write, sent once). */
  place(): Promise<unknown>;
  /**
   * A free object whose token stands in a text field until the handover (a security or placement
   * group): only an unfinished create's carries it, and the messages say made, not ordered.
   */
  free?: true;
}

/** How the messages of `o` say the object came to be and goes away. */
const words = (o: { free?: true }) =>
  o.free
    ? { made: 'made', order: 'create', orders: 'makes', cancel: 'delete' }
    : { made: 'ordered', order: 'order', orders: 'orders', cancel: 'cancel' };

/** What to do when several unfinished objects carry the token. */
const keepOne = (o: { free?: true; noun: string }) =>
  o.free
    ? `Delete all but one: the next \`pulumi up\` takes that ${o.noun} over`
    : 'Import the one to keep (`pulumi import`) and cancel the others';

/** Why the object carrying the token that a state holds is refused. */
const heldOne = (o: { free?: true; noun: string }, id: number) =>
  o.free
    ? `is held by a state (its create failed before it was handed over): it is this resource's ${o.noun} (a replace that makes the new ${o.noun} before it deletes the old one). Nothing was made. To replace it, set the resource option deleteBeforeReplace: true`
    : `was handed to a state by a completed create: it is this resource's ${o.noun} (a replace that orders the new ${o.noun} before it deletes the old one), or one a state let go. Nothing was ordered. To replace it, set the resource option deleteBeforeReplace: true; to keep it, import it (\`pulumi import\` with id ${id})`;

/** Whether an object was handed to a state: it carries the mark, or a state is known to hold it. */
const handedTo =
  <T extends { id: number }>(o: Pick<OrderOnce<T>, 'token' | 'handed'>) =>
  (object: T) =>
    o.handed(object) || isHeld(o.token, object.id);

/** A field that replaces the object: as the object shows it, and as declared. */
export type OrderedField = [field: string, seen: unknown, declared: unknown];

/**
 * `field "seen" (declared "wanted")` for each of the fields whose value as the object shows it
 * differs from the declared one (`false`: a field not compared): what `differs` answers.
 */
export const differences = (fields: (OrderedField | false)[]) =>
  fields
    .filter((f): f is OrderedField => f !== false)
    .filter(([, seen, declared]) => !sameJson(seen, declared))
    .map(
      ([field, seen, declared]) =>
        `${field} ${JSON.stringify(seen ?? null)} (declared ${JSON.stringify(declared ?? null)})`,
    );

/** What an earlier create left: the unmarked object to take over, if any; else a refusal. */
export function earlierOrder<T extends { id: number }>(
  o: Pick<OrderOnce<T>, 'what' | 'noun' | 'token' | 'handed' | 'differs' | 'free'>,
  found: T[],
): T | undefined {
  const { made, order, cancel } = words(o);
  const handed = handedTo(o);
  const differs = (object: T) => o.differs?.(object) ?? [];
  const unfinished = found.filter((object) => !handed(object));
  if (unfinished.length > 1)
    throw new Error(
      `${o.what}: ${o.noun}s ${unfinished.map((c) => c.id).join(', ')} all carry this resource's creation token and none was handed to a state; nothing was ${made}. ${keepOne(o)}`,
    );
  const [left] = unfinished;
  const unlike = left ? differs(left) : [];
  if (unlike.length > 0)
    throw new Error(
      `${o.what}: ${o.noun} ${left.id} was ${made} by an earlier unfinished create of this resource (it carries its creation token) but not as the resource declares now: ${unlike.join(', ')}. It is not taken over and nothing is ${made}, as another ${order} would leave it billed outside every state: declare what it has, or import it (\`pulumi import\` with id ${left.id}), or ${cancel} ${o.noun} ${left.id} if it is not wanted`,
    );
  // A handed object of another shape is the one a replace replaces: no concern of this create.
  const [current] = found.filter((object) => handed(object) && differs(object).length === 0);
  if (unfinished.length === 0 && current)
    throw new Error(
      `${o.what}: ${o.noun} ${current.id} carries this resource's creation token and ${heldOne(o, current.id)}`,
    );
  return unfinished[0];
}

/** What a create of these inputs would do with what earlier creates left, as check sees it. */
export interface EarlierCreate {
  /** The object it takes over (no new order), for check to record as `adopts`. */
  adopts?: number;
  /** Why it would order nothing at all (earlierOrder's refusal). */
  refusal?: string;
}

/** What a create of these inputs would do with what earlier creates left (see `orderOnce`). */
export async function takeoverOf<T extends { id: number }>(
  o: Pick<OrderOnce<T>, 'what' | 'noun' | 'found' | 'token' | 'handed' | 'differs' | 'free'>,
): Promise<EarlierCreate> {
  try {
    return { adopts: earlierOrder(o, await o.found())?.id };
  } catch (err) {
    return { refusal: (err as Error).message };
  }
}

/**
 * How a preview's BILLING line says what a create does: `orders` (a new order), the takeover of
 * what an earlier unfinished create ordered, or nothing, and why.
 */
export const createVerb = (noun: string, earlier: EarlierCreate, orders: string) =>
  earlier.refusal !== undefined
    ? `orders nothing (${earlier.refusal})`
    : earlier.adopts === undefined
      ? orders
      : `takes over ${noun} ${earlier.adopts}, which an earlier unfinished create of it ordered (no new order; it is billed already)`;

/** The object: an earlier unfinished create's, or the one ordered now (see the module comment). */
export async function orderOnce<T extends { id: number }>(o: OrderOnce<T>): Promise<T> {
  const { made, order, orders } = words(o);
  const earlier = earlierOrder(o, await o.found());
  if (earlier) {
    say(
      `${o.what}: ${o.noun} ${earlier.id} was ${made} by an earlier unfinished create of this resource; taking it over, no new ${order}`,
    );
    return earlier;
  }
  const handed = handedTo(o);
  const unmarked = async () => (await o.found()).filter((object) => !handed(object));
  return createOnce({
    what: `${o.what} ${order}`,
    write: async () => {
      await o.place();
      const [object] = await unmarked();
      if (!object) throw new Error(`the ${order} was sent but no ${o.noun} carries ${o.token} yet`);
      return object;
    },
    find: async () => (await unmarked())[0],
    // A free object shows at once; an order can take minutes to be provisioned.
    windowMs: o.free ? freeWriteWindowMs() : outcomeWindowMs(),
    nextRun: `The next \`pulumi up\` looks for a ${o.noun} ${made} with ${o.token} before it ${orders} one.`,
  });
}

/**
 * The rest of a create once its object exists, then the handover (its last write). A failure
 * keeps the id (`initFailure`: the engine records it, the next `up` carries on with it) and marks
 * the object handed all the same, as far as it can: the state holds it from then on.
 */
export async function thenHandOver<R>(
  object: { id: number },
  mark: HandedMark,
  kept: Record<string, unknown>,
  rest: () => Promise<R>,
  failed: (message: string) => string,
): Promise<R> {
  let result: R;
  try {
    result = await rest();
  } catch (err) {
    const error = err as Error & { id?: unknown };
    await handOver(mark).catch((markErr: Error) =>
      say(
        `${mark.what}: could not mark it handed yet (${markErr.message}); the next \`pulumi up\` does`,
      ),
    );
    if (error.id !== undefined) throw err; // an initFailure already, its message said
    throw initFailure(failed(error.message), String(object.id), kept);
  }
  try {
    await handOver(mark);
  } catch (err) {
    throw initFailure(
      `${mark.what} was made, then handing it to the state failed: ${(err as Error).message}. It is kept in the stack; the next \`pulumi up\` hands it over`,
      String(object.id),
      kept,
    );
  }
  return result;
}

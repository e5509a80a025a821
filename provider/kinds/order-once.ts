import { outcomeWindowMs } from '../framework/connection';
import { createOnce } from '../framework/exactly-once';
import { say } from '../framework/log';

/**
 * A billed object ordered exactly once through `Product_Order.placeOrder` with a creation token
 * the object carries (a volume's container identifier, a server's tag), for every kind ordered
 * that way. Before ordering, what an earlier unfinished create of the resource ordered is looked
 * for: one still provisioning is taken over (no new order); a provisioned one is refused, as it
 * may be the resource's current object (a `--replace` that orders before it deletes, with the
 * same token), which a takeover would then cancel; several are refused. An order whose answer is
 * lost is looked for by its token, never placed twice.
 */
export interface OrderOnce<T extends { id: number }> {
  /** `BlockVolume "data"`, for messages. */
  what: string;
  /** `volume`, `server`. */
  noun: string;
  token: string;
  /** The live objects carrying the token that an order of these inputs would make. */
  found(): Promise<T[]>;
  provisioned(object: T): boolean;
  /** Places the order (a write, sent once). */
  place(): Promise<unknown>;
}

function earlierOrder<T extends { id: number }>(o: OrderOnce<T>, candidates: T[]): T | undefined {
  if (candidates.length > 1)
    throw new Error(
      `${o.what}: ${o.noun}s ${candidates.map((c) => c.id).join(', ')} all carry this resource's creation token; nothing was ordered. Import the one to keep (\`pulumi import\`) and cancel the others`,
    );
  const [earlier] = candidates;
  if (earlier && o.provisioned(earlier))
    throw new Error(
      `${o.what}: ${o.noun} ${earlier.id} carries this resource's creation token and is provisioned: it is this resource's ${o.noun} from before (a replace that orders the new ${o.noun} before it deletes the old one, or a state that lost it). Nothing was ordered. To replace it, set the resource option deleteBeforeReplace: true; to keep it, import it (\`pulumi import\` with id ${earlier.id})`,
    );
  return earlier;
}

/** The object: an earlier unfinished create's, or the one ordered now (see the module comment). */
export async function orderOnce<T extends { id: number }>(o: OrderOnce<T>): Promise<T> {
  const earlier = earlierOrder(o, await o.found());
  if (earlier) {
    say(
      `${o.what}: ${o.noun} ${earlier.id} was ordered by an earlier unfinished create; using it, no new order`,
    );
    return earlier;
  }
  return createOnce({
    what: `${o.what} order`,
    write: async () => {
      await o.place();
      const [made] = await o.found();
      if (!made) throw new Error(`the order was placed but no ${o.noun} carries ${o.token} yet`);
      return made;
    },
    find: async () => (await o.found())[0],
    windowMs: outcomeWindowMs(),
    nextRun: `The next \`pulumi up\` looks for a ${o.noun} ordered with ${o.token} before it orders one.`,
  });
}

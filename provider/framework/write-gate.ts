import { isWrite, type Client } from '../client';
import { requireEngine } from './engine-watch';
import { CancelledWrite, currentOperation } from './operation';

/**
 * The one gate every write of a provider's client passes, on both doors: the engine it answers to
 * must still be there (engine-watch.ts), so nothing is ordered or marked owned that no state can
 * record; and the operation the write belongs to must not be cancelled or abandoned (operation.ts),
 * which also counts the write and the ids it touches.
 */
type WriteOptions = { id?: unknown; args?: unknown[] };

const gated = new WeakSet<Client>();

/** Routes every write of `client` through the gate (once per client). */
export function gateWrites(client: Client): void {
  if (gated.has(client)) return;
  gated.add(client);
  const call = client.call.bind(client) as (s: string, m: string, o?: object) => Promise<unknown>;
  const gatedWrite = async (service: string, method: string, options?: WriteOptions) => {
    await requireEngine();
    const what = `${service}.${method}`;
    const op = currentOperation();
    const why = op?.refusal();
    if (why) throw new CancelledWrite(`${what} was not sent`, why);
    const send = () => call(service, method, options);
    return op ? op.track(what, options?.id, send) : send();
  };
  // Not async itself: a paged read (`iter`) answers its iterator at once, not a promise of it.
  const gatedCall = (service: string, method: string, options?: WriteOptions) =>
    isWrite(method) && !(options as { iter?: boolean } | undefined)?.iter
      ? gatedWrite(service, method, options)
      : call(service, method, options);
  Object.defineProperty(client, 'call', { value: gatedCall, configurable: true, writable: true });
}

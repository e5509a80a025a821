import { isWrite, type Client } from '../client';
import { requireEngine } from './engine-watch';

/**
 * The one gate every write of a provider's client passes, on both doors: the engine it answers to
 * must still be there (engine-watch.ts), so nothing is ordered or marked owned that no state can
 * record. A door may add its own rule (the plugin's: nothing is written after a Cancel, and what
 * each engine call writes is tracked; plugin/operations.ts).
 */
type WriteOptions = { id?: unknown; args?: unknown[] };

export type WriteRule = (
  what: string,
  options: WriteOptions | undefined,
  send: () => unknown,
) => unknown;

let doorRule: WriteRule = (_what, _options, send) => send();

/** The door's own rule (one per process: its door's), applied to every write after the engine check. */
export function setDoorWriteRule(rule: WriteRule): void {
  doorRule = rule;
}

const gated = new WeakSet<Client>();

/** Routes every write of `client` through the gate (once per client). */
export function gateWrites(client: Client): void {
  if (gated.has(client)) return;
  gated.add(client);
  const call = client.call.bind(client) as (s: string, m: string, o?: object) => unknown;
  const gatedWrite = async (service: string, method: string, options?: WriteOptions) => {
    await requireEngine();
    return doorRule(`${service}.${method}`, options, () => call(service, method, options));
  };
  // Not async itself: a paged read (`iter`) answers its iterator at once, not a promise of it.
  const gatedCall = (service: string, method: string, options?: WriteOptions) =>
    isWrite(method) && !(options as { iter?: boolean } | undefined)?.iter
      ? gatedWrite(service, method, options)
      : call(service, method, options);
  Object.defineProperty(client, 'call', { value: gatedCall, configurable: true, writable: true });
}

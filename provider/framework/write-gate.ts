import type { WriteGate } from '../client';
import { requireEngine } from './engine-watch';
import { CancelledWrite, currentOperation } from './operation';

/**
 * The one gate every write of a provider's client passes (its `writeGate` option, connection.ts),
 * on both doors: the engine it answers to must still be there (engine-watch.ts), so nothing is
 * ordered or marked owned that no state can record; and the operation the write belongs to must
 * not be cancelled or abandoned (operation.ts), which also counts the write and the ids it touches.
 */
export const gateWrite: WriteGate = async ({ service, method, id }, send) => {
  await requireEngine();
  const what = `${service}.${method}`;
  const op = currentOperation();
  const why = op?.refusal();
  if (why) throw new CancelledWrite(`${what} was not sent`, why);
  return op ? op.track(what, id, send) : send();
};

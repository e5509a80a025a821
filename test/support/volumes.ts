import { setTimeout as sleep } from 'node:timers/promises';
import type { StorageManager, Volume, VolumeOrder } from '../../provider/managers';

/**
 * A volume ordered over XML-RPC as a user does by hand (through the order container, with
 * `identifier` as its container identifier), once it is provisioned.
 */
export async function orderByHand(
  volumes: StorageManager,
  order: Omit<VolumeOrder, 'containerIdentifier'>,
  identifier: string,
): Promise<Volume> {
  await volumes.place(await volumes.orderContainer({ ...order, containerIdentifier: identifier }));
  for (let waited = 0; waited < 10_000; waited += 100) {
    const [made] = await volumes.findByIdentifier(identifier);
    if (made && !made.activeTransactionCount) return made;
    await sleep(100);
  }
  throw new Error(`the volume ordered with ${identifier} is not provisioned after 10 s`);
}

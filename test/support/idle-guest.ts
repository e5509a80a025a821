import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '../../provider/client';

/** Waits until guest `id` is provisioned and idle (what a capture needs); answers its id. */
export async function untilIdle(client: Client, id: number, ms = 10_000): Promise<number> {
  for (let waited = 0; waited < ms; waited += 100) {
    const guest = (await client.call('Virtual_Guest', 'getObject', {
      id,
      mask: 'id,activeTransactionCount',
    })) as { activeTransactionCount?: number };
    if (!guest.activeTransactionCount) return id;
    await sleep(100);
  }
  throw new Error(`guest ${id} is not idle after ${ms / 1000} s`);
}

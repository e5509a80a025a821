/**
 * Bulk data for load tests and benchmarks (`POST /_emulator/accounts/<username>/populate`):
 * provisioned guests with varied, deterministic attributes (datacenter, size, billing, tags,
 * creation dates), written in transactions of 1,000.
 */
import { CPU_OPTIONS, DATACENTERS, MEMORY_OPTIONS } from './catalog';
import { checkGuestTemplate } from './services/virtual-guest/template';
import { buildGuest, tagsByName } from './services/virtual-guest/model';
import type { Store, WriteOp } from './store';

const BATCH = 1000;
const OS_CODES = ['UBUNTU_22_64', 'UBUNTU_24_64', 'DEBIAN_12_64', 'CENTOS_STREAM_9_64'];

export async function populateGuests(
  store: Store,
  accountId: number,
  count: number,
  now = Date.now(),
): Promise<number> {
  const tagCache = tagsByName(store, accountId);
  const first = store.count('guests');
  for (let start = 0; start < count; start += BATCH) {
    const ops: WriteOp[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i += 1) {
      const n = first + i;
      const order = checkGuestTemplate({
        hostname: `node-${String(n).padStart(5, '0')}`,
        domain: `pool${n % 10}.example.net`,
        startCpus: CPU_OPTIONS[n % CPU_OPTIONS.length],
        maxMemory: MEMORY_OPTIONS[n % 5],
        hourlyBillingFlag: n % 4 !== 0,
        localDiskFlag: n % 3 === 0,
        operatingSystemReferenceCode: OS_CODES[n % OS_CODES.length],
        datacenter: { name: DATACENTERS[n % DATACENTERS.length].name },
        tagReferences: [
          { tag: { name: n % 2 ? 'env:prod' : 'env:dev' } },
          { tag: { name: `team-${n % 7}` } },
        ],
      });
      const created = now - (count - i) * 60_000;
      ops.push(
        ...buildGuest(store, accountId, order, { now: created, readyAt: created, tagCache }).ops,
      );
    }
    await store.write(ops);
  }
  return count;
}

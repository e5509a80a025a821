import { StorageManager, type AccountIpAddress } from '../../managers';
import type { Connection } from '../../framework/connection';
import type { Failures } from '../../framework/failures';

/**
 * `authorizedIpAddresses`: the API allows an address by its record's id
 * (`Svc_Network_Subnet_IpAddress`); the program gives the address, so each is found among the
 * account's address records first, in check (refused when it is not the account's, is public, or
 * is in another datacenter than the volume) and before each change.
 */

const storage = (c: Connection) => c.use(StorageManager);

/** Why the account's record of `address` cannot be authorized on a volume in `datacenter`. */
function refusal(address: string, found: AccountIpAddress | undefined, datacenter: string) {
  if (!found) return `${address} is not an IP address of this account`;
  if (found.subnet?.addressSpace !== 'PRIVATE')
    return `${address} is a public address: a volume is reached over the private network`;
  const where = found.subnet?.datacenter?.name;
  if (where !== datacenter)
    return `${address} is in ${where ?? 'another datacenter'}, the volume in ${datacenter}: a host reaches a volume of its own datacenter only`;
  return undefined;
}

/** Check: every declared address is a private address of the account in the volume's datacenter. */
export async function checkAddresses(
  c: Connection,
  addresses: string[],
  datacenter: string,
  failures: Failures,
): Promise<void> {
  const records = await storage(c).findIpAddresses(addresses);
  addresses.forEach((address, i) => {
    const why = refusal(
      address,
      records.find((r) => r.ipAddress === address),
      datacenter,
    );
    if (why) failures.add(`authorizedIpAddresses[${i}]`, `authorizedIpAddresses[${i}]: ${why}`);
  });
}

/** Makes the addresses allowed to reach the volume the declared ones. */
export async function keepAddresses(c: Connection, volumeId: number, declared: string[]) {
  const manager = storage(c);
  const now = (await manager.getVolume(volumeId)).allowedIpAddresses ?? [];
  const extra = now.filter((a) => !declared.includes(a.ipAddress)).map((a) => a.id);
  await manager.setIpAccess(volumeId, extra, false);
  const missing = declared.filter((a) => !now.some((n) => n.ipAddress === a));
  const records = await manager.findIpAddresses(missing);
  const ids = missing.map((a) => {
    const record = records.find((r) => r.ipAddress === a);
    if (!record)
      throw new Error(`authorizedIpAddresses: ${a} is no longer an address of this account`);
    return record.id;
  });
  await manager.setIpAccess(volumeId, ids, true);
}

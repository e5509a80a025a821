import { HardwareManager, type BareMetalServer, type UplinkSide } from '../../managers';
import { IDLE_PACE, READY_PACE } from '../../managers/paces';
import { poll } from '../../client/poll';
import { SvcAPIError } from '../../client/errors';
import { freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { say } from '../../framework/log';
import type { Inputs } from './order';

/**
 * A port speed change in place (`networkSpeed` up to the ports the server was ordered with): each
 * uplink not at the declared speed is set (`setPublicNetworkInterfaceSpeed`, then
 * `setPrivateNetworkInterfaceSpeed`, redundant uplinks kept redundant) and waited for, since the
 * API answers before the switch port changes. A change still pending (an earlier run's) makes
 * the API refuse another as busy: that is waited out, then the uplink is read again.
 */

const UPLINKS = {
  public: 'primaryNetworkComponent',
  private: 'primaryBackendNetworkComponent',
} as const;

const speedOf = (server: BareMetalServer, side: UplinkSide) => server[UPLINKS[side]]?.speed;

/** The API's refusal while a change is pending against the server. */
const isBusy = (err: unknown) =>
  err instanceof SvcAPIError && /Exception_NotReady$/.test(String(err.faultCode));

/** Sets both uplinks to `inputs.networkSpeed`, each change waited for, within `timeoutMs`. */
export async function setNetworkSpeed(
  c: Connection,
  id: number,
  inputs: Inputs,
  what: string,
  timeoutMs: number,
): Promise<void> {
  const manager = c.use(HardwareManager);
  const speed = inputs.networkSpeed;
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(0, deadline - Date.now());
  // One read when nothing is to change (every update of the server comes here). An uplink the
  // API does not show has no speed to set.
  const server = await manager.getServer(id);
  const sides = (['public', 'private'] as const).filter((side) => {
    const now = speedOf(server, side);
    return now !== undefined && now !== speed;
  });
  for (const side of sides) {
    const atSpeed = async () => speedOf(await manager.getServer(id), side) === speed;
    for (;;) {
      if (await atSpeed()) break;
      say(`${what}: setting its ${side} uplink to ${speed} Mbps in place`);
      try {
        await writeIdempotent({
          what: `${what} ${side} uplink speed`,
          write: () => manager.setPortSpeed(id, side, speed, inputs.redundantNetwork),
          done: atSpeed,
          windowMs: freeWriteWindowMs(),
        });
      } catch (err) {
        if (!isBusy(err) || left() === 0) throw err;
        // A change is pending (an earlier run's): once it is in force, read the uplink again.
        await poll(atSpeed, (ok) => ok, { ...IDLE_PACE, timeoutMs: Math.min(left(), 5_000) });
        continue;
      }
      const { done } = await poll(atSpeed, (ok) => ok, { ...READY_PACE, timeoutMs: left() });
      if (!done)
        throw new Error(
          `${what}: its ${side} uplink is not at ${speed} Mbps within ${Math.round(timeoutMs / 1000)} s of the change; the next \`pulumi up\` reads it again`,
        );
    }
  }
}

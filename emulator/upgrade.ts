/**
 * A guest's upgrade (an upgrade order placed through Product_Order). Like provisioning, its
 * progress is a pure function of the record and the clock: the guest keeps its size while the
 * UPGRADE transaction runs (from the order until `upgrade.readyAt`) and has the new size from
 * then on, with the same id, addresses, notes and tags. No timers, so a restart neither loses
 * nor repeats progress.
 */
import { formatApiDate } from './dates';
import type { GuestRec } from './records';

export const upgradeRunning = (g: GuestRec, now: number) =>
  g.upgrade !== undefined && now < g.upgrade.readyAt;

/** The guest as it is at `now`: with its last upgrade's size once that upgrade is done. */
export function sized(g: GuestRec, now: number): GuestRec {
  return g.upgrade && now >= g.upgrade.readyAt ? { ...g, ...g.upgrade.size } : g;
}

/** Whether the running upgrade changes CPUs or memory (the guest reboots for those). */
export function upgradeReboots(g: GuestRec, now: number): boolean {
  const u = g.upgrade;
  if (!u || now >= u.readyAt) return false;
  return u.size.startCpus !== g.startCpus || u.size.maxMemory !== g.maxMemory;
}

const STATUS = { name: 'UPGRADE', friendlyName: 'Upgrade' };
const GROUP = { name: 'Cloud Upgrade', averageTimeToComplete: '5' };

/** The upgrade's transaction (running or finished); undefined for a guest never upgraded. */
export function upgradeTransaction(g: GuestRec, now: number): Record<string, unknown> | undefined {
  const u = g.upgrade;
  if (!u) return undefined;
  const end = Math.min(now, u.readyAt);
  return {
    id: u.transactionId,
    guestId: g.id,
    createDate: formatApiDate(u.createDate),
    modifyDate: formatApiDate(end),
    statusChangeDate: formatApiDate(u.createDate),
    elapsedSeconds: Math.max(0, Math.floor((end - u.createDate) / 1000)),
    transactionStatus: { ...STATUS },
    transactionGroup: { ...GROUP },
  };
}

/**
 * A guest's provisioning state is a pure function of its record and the clock: it is ready once
 * `now >= readyAt` (createDate + the delay in force when it was ordered). No timers, so a
 * restart neither loses nor repeats progress.
 */
import { formatApiDate } from './dates';
import type { GuestRec } from './records';
import { upgradeReboots, upgradeRunning, upgradeTransaction } from './upgrade';

const STEPS: readonly { name: string; friendlyName: string }[] = [
  { name: 'ASSIGN_HOST', friendlyName: 'Assign Host' },
  { name: 'PROVISION_DNS', friendlyName: 'Provision DNS' },
  { name: 'CLOUD_CONFIGURE_NETWORK', friendlyName: 'Configure Cloud Network' },
  { name: 'INSTALL_OPERATING_SYSTEM', friendlyName: 'Install Operating System' },
  { name: 'CLOUD_INSTANCE_POWER_ON', friendlyName: 'Power On Cloud Instance' },
];

const GROUP = { name: 'Cloud Instance Provisioning', averageTimeToComplete: '10' };

export const isProvisioned = (guest: GuestRec, now: number) => now >= guest.readyAt;

/** The provisioning transaction: the step running at `now`, or the last one once finished. */
function provisioning(guest: GuestRec, now: number): Record<string, unknown> {
  const span = Math.max(1, guest.readyAt - guest.createDate);
  const end = Math.min(now, guest.readyAt);
  const index = Math.floor(((end - guest.createDate) / span) * STEPS.length);
  const step = STEPS[Math.max(0, Math.min(STEPS.length - 1, index))];
  const stepStart = guest.createDate + Math.floor((span * STEPS.indexOf(step)) / STEPS.length);
  return {
    id: guest.transactionId,
    guestId: guest.id,
    createDate: formatApiDate(guest.createDate),
    modifyDate: formatApiDate(end),
    statusChangeDate: formatApiDate(stepStart),
    elapsedSeconds: Math.max(0, Math.floor((end - guest.createDate) / 1000)),
    transactionStatus: { ...step },
    transactionGroup: { ...GROUP },
  };
}

/** The running transaction (provisioning, then an upgrade while one runs), else null. */
export function activeTransaction(guest: GuestRec, now: number): Record<string, unknown> | null {
  if (!isProvisioned(guest, now)) return provisioning(guest, now);
  return upgradeRunning(guest, now) ? (upgradeTransaction(guest, now) ?? null) : null;
}

/** The most recent transaction: the last upgrade's, else the provisioning one, running or finished. */
export const lastTransaction = (guest: GuestRec, now: number) =>
  upgradeTransaction(guest, now) ?? provisioning(guest, now);

const POWER = {
  RUNNING: { keyName: 'RUNNING', name: 'Running' },
  HALTED: { keyName: 'HALTED', name: 'Halted' },
} as const;

/** Halted until provisioned and while an upgrade of CPUs or memory reboots it, else the last power call's. */
export const powerState = (guest: GuestRec, now: number) =>
  isProvisioned(guest, now) && !upgradeReboots(guest, now)
    ? { ...POWER[guest.power] }
    : { ...POWER.HALTED };

/**
 * A guest's provisioning state is a pure function of its record and the clock: it is ready once
 * `now >= readyAt` (createDate + the delay in force when it was ordered). No timers, so a
 * restart neither loses nor repeats progress.
 */
import { formatApiDate } from './dates';
import type { GuestRec } from './records';

const STEPS: readonly { name: string; friendlyName: string }[] = [
  { name: 'ASSIGN_HOST', friendlyName: 'Assign Host' },
  { name: 'PROVISION_DNS', friendlyName: 'Provision DNS' },
  { name: 'CLOUD_CONFIGURE_NETWORK', friendlyName: 'Configure Cloud Network' },
  { name: 'INSTALL_OPERATING_SYSTEM', friendlyName: 'Install Operating System' },
  { name: 'CLOUD_INSTANCE_POWER_ON', friendlyName: 'Power On Cloud Instance' },
];

export const isProvisioned = (guest: GuestRec, now: number) => now >= guest.readyAt;

/** The running transaction while provisioning, else null. */
export function activeTransaction(guest: GuestRec, now: number): Record<string, unknown> | null {
  if (isProvisioned(guest, now)) return null;
  const span = Math.max(1, guest.readyAt - guest.createDate);
  const step =
    STEPS[Math.min(STEPS.length - 1, Math.floor(((now - guest.createDate) / span) * STEPS.length))];
  return {
    id: guest.transactionId,
    guestId: guest.id,
    createDate: formatApiDate(guest.createDate),
    elapsedSeconds: Math.max(0, Math.floor((now - guest.createDate) / 1000)),
    transactionStatus: { ...step },
  };
}

const POWER = {
  RUNNING: { keyName: 'RUNNING', name: 'Running' },
  HALTED: { keyName: 'HALTED', name: 'Halted' },
} as const;

/** Halted until provisioned, then whatever the last power call left. */
export const powerState = (guest: GuestRec, now: number) =>
  isProvisioned(guest, now) ? { ...POWER[guest.power] } : { ...POWER.HALTED };

import { guestStatus, type VirtualGuest } from '../../managers';
import { sayStatus } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { readComputed, readInputs, withFieldDefaults } from '../../framework/fields';
import { GUEST_FIELDS } from './fields';
import type { GuestInputs } from './inputs';
import { costOutputs, type Price, type PriceSource } from './pricing';

export { userTags } from './api-forms';

/** Computed outputs of a VirtualGuest, besides the inputs it echoes. */
export interface GuestOutputs {
  guestId: number;
  osReloadId: number | null;
  fullyQualifiedDomainName: string;
  primaryIpAddress: string | null;
  primaryBackendIpAddress: string | null;
  provisionDate: string | null;
  powerState: string | null;
  globalIdentifier: string | null;
  status: string;
  estimatedHourlyCost: number;
  estimatedMonthlyCost: number;
  estimatedCostSource: PriceSource;
}

/**
 * The inputs as the API reports them now (each field's read-back in the table), so `refresh`
 * notices drift; with no declared inputs (an import), everything the guest shows, and the table's
 * defaults for what no guest shows (how to wait for it), as a program declaring it would get.
 */
export function observedInputs(guest: VirtualGuest, declared?: GuestInputs): GuestInputs {
  const observed = readInputs(GUEST_FIELDS, guest, declared);
  return (declared ? observed : withFieldDefaults(GUEST_FIELDS, {}, observed)) as GuestInputs;
}

/** The outputs the API computes; `price` is what the guest is billed (pricing.ts). */
export function computedOutputs(guest: VirtualGuest, price: Price): GuestOutputs {
  return {
    ...(readComputed(GUEST_FIELDS, guest) as Omit<GuestOutputs, `estimated${string}`>),
    ...costOutputs(price),
  };
}

/** A wait's progress for the guest `what`: its stage as the API reports it, `verb` first if given. */
export const progressOf =
  (what: string, verb?: string) =>
  (guest: VirtualGuest, elapsedMs: number): void =>
    sayStatus(what, verb ? `${verb}: ${guestStatus(guest)}` : guestStatus(guest), elapsedMs);

/**
 * How long a wait for the guest may last from now: `readyTimeoutMinutes`, cut to what the engine's
 * deadline for the operation leaves (asked again before each wait, so several fit in it).
 */
export const readyWaitMs = (
  inputs: { readyTimeoutMinutes: number },
  request: OperationRequest | undefined,
): number => boundedWait(request, inputs.readyTimeoutMinutes * 60_000);

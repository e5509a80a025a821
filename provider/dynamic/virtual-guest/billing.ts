import { isUnknown } from '../checks';
import { sayOnce } from '../log';
import type { GuestInputs } from './inputs';

export interface BilledCost {
  estimatedHourlyCost: number;
  estimatedMonthlyCost: number;
}

const money = (value: number | undefined, digits: number) =>
  value === undefined ? '$(unpriced)' : `$${value.toFixed(digits)}`;

export function describeCost(
  inputs: Pick<GuestInputs, 'hourlyBillingFlag'> & Partial<BilledCost>,
): string {
  return inputs.hourlyBillingFlag
    ? `hourly, est. ${money(inputs.estimatedHourlyCost, 4)}/hour`
    : `monthly, est. ${money(inputs.estimatedMonthlyCost, 2)}/month (${money(inputs.estimatedHourlyCost, 4)}/hour)`;
}

const shown = (value: unknown) => (isUnknown(value) ? '(known after apply)' : String(value));

function describeOrder(inputs: GuestInputs): string {
  const { startCpus, maxMemory, operatingSystemReferenceCode: os, datacenter } = inputs;
  return `${shown(startCpus)} CPU, ${shown(maxMemory)} MB, ${shown(os)} in ${shown(datacenter)}`;
}

/** Printed by `check` for a guest that is about to be ordered (preview and up). */
export function announceCreate(name: string, inputs: GuestInputs & BilledCost): void {
  const verb = inputs.adoptId ? `adopts existing guest ${inputs.adoptId}` : 'orders a new guest';
  sayOnce(
    `BILLING + VirtualGuest "${name}" ${verb}: ${describeOrder(inputs)}; ${describeCost(inputs)}`,
  );
}

/** Why a change of these fields cannot be made to the running guest. */
const REPLACE_REASONS: Record<string, string> = {
  userData:
    'cloud-init runs user data only on the first boot, so only a new guest gets the new user data',
  sshKeyIds: 'SSH keys are installed only when a guest is provisioned',
};

/** Printed by `diff` when a change replaces the guest: a new guest is bought and the old one cancelled. */
export function announceReplace(
  name: string,
  fields: string[],
  olds: Partial<BilledCost> & { hourlyBillingFlag?: boolean },
  news: GuestInputs & Partial<BilledCost>,
): void {
  const before =
    olds.estimatedHourlyCost === undefined
      ? 'unknown'
      : `${money(olds.estimatedHourlyCost, 4)}/hour`;
  const after =
    news.estimatedHourlyCost === undefined
      ? 'unknown until known inputs'
      : `${money(news.estimatedHourlyCost, 4)}/hour`;
  sayOnce(
    `BILLING +- VirtualGuest "${name}" is REPLACED (changed: ${fields.join(', ')}): orders a new ` +
      `${news.hourlyBillingFlag ? 'hourly' : 'monthly'} guest (${describeOrder(news)}) at ${after}, cancels the old one at ${before}`,
  );
  for (const field of fields.filter((f) => REPLACE_REASONS[f])) {
    sayOnce(
      `VirtualGuest "${name}" is replaced because ${field} changed: ${REPLACE_REASONS[field]}`,
    );
  }
}

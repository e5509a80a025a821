import type { Failures } from '../../framework/failures';
import { isUnknown } from '../../framework/unknown';
import { billingMode } from '../../managers';
import type { GuestProps } from './inputs';

/**
 * A guest's machine type, checked across fields before any call: its size is a flavor
 * (`flavorKeyName`) or `startCpus` and `maxMemory`, never both, never neither; a transient guest
 * is billed hourly and never on a dedicated host (the API refuses either). Whether the flavor is offered is
 * `checkOffered`'s (inputs.ts), with the API's list.
 */
export function checkMachineType(inputs: GuestProps, failures: Failures): void {
  const given = (value: unknown) => value !== undefined && value !== null;
  const flavor = inputs.flavorKeyName;
  const sizes = (['startCpus', 'maxMemory'] as const).filter((f) => given(inputs[f]));
  if (given(flavor)) {
    const named = isUnknown(flavor) ? 'the flavor' : `the flavor ${String(flavor)}`;
    for (const field of sizes) {
      failures.add(
        field,
        `${field}: give either flavorKeyName or startCpus and maxMemory, not both (${named} sets the cores and memory)`,
      );
    }
  } else {
    for (const field of ['startCpus', 'maxMemory'] as const) {
      if (!sizes.includes(field))
        failures.add(
          field,
          `${field} is required unless flavorKeyName is given (a flavor such as B1_2X8X25 sets the cores and memory)`,
        );
    }
  }
  const onHost = given(inputs.dedicatedHostId) || inputs.dedicatedAccountHostOnlyFlag === true;
  if (inputs.transientGuestFlag === true && onHost) {
    failures.add(
      'transientGuestFlag',
      'transientGuestFlag: a transient guest cannot run on a dedicated host; leave out dedicatedHostId and dedicatedAccountHostOnlyFlag, or transientGuestFlag',
    );
  }
  if (inputs.transientGuestFlag === true && billingMode(inputs.hourlyBillingFlag) === 'monthly') {
    failures.add(
      'transientGuestFlag',
      'transientGuestFlag: a transient guest is billed hourly only; leave hourlyBillingFlag out (hourly) or set it to true, or leave transientGuestFlag out',
    );
  }
}

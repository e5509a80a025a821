import type { CreateObjectOptions, PricedOption } from '../../managers';
import { diskDevice, flavorSize, withFlavorSize } from './catalog';
import type { GuestInputs } from './inputs';

/** What a list price is summed from: the priced inputs. */
export type ListPricedInputs = Pick<
  GuestInputs,
  | 'startCpus'
  | 'maxMemory'
  | 'flavorKeyName'
  | 'operatingSystemReferenceCode'
  | 'networkSpeed'
  | 'localDiskFlag'
  | 'disks'
>;

/**
 * The list hourly fee of an order with these inputs: the item prices `getCreateObjectOptions`
 * shows (the package's list prices at the default location, whatever the account negotiated).
 * Used only when the API does not quote the order itself; throws naming what it has no price for.
 * A flavor is priced as its cores, memory and boot disk; a transient guest at the full list price
 * (the options show no transient price: an upper bound).
 */
export function listHourlyFee(options: CreateObjectOptions, given: ListPricedInputs): number {
  if (given.flavorKeyName !== undefined && !flavorSize(given.flavorKeyName))
    throw new Error(`the create options list no price for the flavor ${given.flavorKeyName}`);
  const inputs = withFlavorSize(given);
  const fee = <T>(what: string, list: PricedOption<T>[] | undefined, match: (t: T) => boolean) => {
    const found = list?.find((o) => match(o.template))?.itemPrice?.hourlyRecurringFee;
    if (found === undefined) throw new Error(`the create options list no price for ${what}`);
    return Number(found);
  };
  const os = inputs.operatingSystemReferenceCode;
  // No disks given: the API orders its smallest boot disk, the first one the options list.
  const disks = inputs.disks ?? [];
  const parts = [
    fee('the CPUs', options.processors, (t) => t.startCpus === inputs.startCpus),
    fee('the memory', options.memory, (t) => t.maxMemory === inputs.maxMemory),
    fee(
      os ?? "an image template's operating system",
      options.operatingSystems,
      (t) => t.operatingSystemReferenceCode === os,
    ),
    fee('the network speed', options.networkComponents, (t) =>
      t.networkComponents.some((n) => n.maxSpeed === inputs.networkSpeed),
    ),
    ...(disks.length === 0 ? [0] : disks).map((gb, i) =>
      fee(`disk ${i}`, options.blockDevices, (t) => {
        const d = t.blockDevices?.[0];
        return (
          t.localDiskFlag === inputs.localDiskFlag &&
          String(d?.device) === diskDevice(i) &&
          (disks.length === 0 || d?.diskImage?.capacity === gb)
        );
      }),
    ),
  ];
  return parts.reduce((sum, part) => sum + part, 0);
}

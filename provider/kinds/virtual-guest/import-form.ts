import { withoutDefaults } from '../../framework/fields';
import type { GuestInputs } from './inputs';
import type { Catalog } from './catalog';
import { GUEST_FIELDS } from './fields';
import { VLAN_INTERFACES } from './vlans';

/**
 * What the API gives an order that leaves a field out (the emulator's template.ts, as the API
 * documents it): a guest showing these was ordered without them, so an import leaves them out.
 */
export const API_ORDER_DEFAULTS = { networkSpeed: 100, disks: [25] } as const;

/** `UBUNTU` of `UBUNTU_24_64`, `WIN` of `WIN_2022-STD_64`. */
const family = (code: string) => code.split('_')[0];

/** The version numbers in a code, for ordering: `UBUNTU_24_64` -> [24, 64]. */
const version = (code: string) => (code.match(/\d+/g) ?? []).map(Number);

const newer = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
};

/**
 * The code a user writes for the guest's operating system: `<FAMILY>_LATEST` when the account
 * offers that alias and the guest runs the newest concrete code of the family it offers (what
 * the alias orders today; `sameOs` holds the two equal), else the API's code as it is.
 */
export function declaredOs(code: string, offered: readonly string[]): string {
  const alias = `${family(code)}_LATEST`;
  if (code.endsWith('_LATEST') || !offered.includes(alias)) return code;
  const concrete = offered.filter((c) => family(c) === family(code) && !c.endsWith('_LATEST'));
  return concrete.some((c) => newer(version(c), version(code))) ? code : alias;
}

/**
 * An imported guest's inputs as its program would declare them (the generated program is used
 * unchanged): no table default or API order default spelled out, no VLAN the API chose, the OS
 * as a user names it.
 */
export function importForm(observed: Partial<GuestInputs>, catalog: Catalog): Partial<GuestInputs> {
  const inputs = withoutDefaults(GUEST_FIELDS, observed, API_ORDER_DEFAULTS);
  // The VLANs and subnets the API put the guest on: left out, whatever it chose is no change.
  for (const { vlan, subnet } of VLAN_INTERFACES) {
    delete inputs[vlan];
    delete inputs[subnet];
  }
  // Sized by a flavor: its cores and memory are the flavor's, not declared beside it.
  if (inputs.flavorKeyName !== undefined) {
    delete inputs.startCpus;
    delete inputs.maxMemory;
  }
  const os = inputs.operatingSystemReferenceCode;
  return typeof os === 'string'
    ? { ...inputs, operatingSystemReferenceCode: declaredOs(os, catalog.os) }
    : inputs;
}

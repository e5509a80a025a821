import type { Connection } from '../../framework/connection';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';
import { findObject } from './account-object';
import { choices } from './placement';

/**
 * The VLAN each of the guest's interfaces is ordered on (`publicVlanId`, `privateVlanId`), and
 * the subnet on it (`publicSubnetId`, `privateSubnetId`: the order's
 * `primary[Backend]NetworkComponent.networkVlan[.primarySubnet].id`, as the reference client
 * orders them). A guest stays on the VLANs it was ordered on, so a change replaces it. `check`
 * refuses, naming the field, a VLAN that is not the account's, of the other space, or in another
 * datacenter than the guest's, and a subnet not on its VLAN.
 */

export const VLAN_INTERFACES = [
  { vlan: 'publicVlanId', subnet: 'publicSubnetId', space: 'PUBLIC' },
  { vlan: 'privateVlanId', subnet: 'privateSubnetId', space: 'PRIVATE' },
] as const;

type NetworkInputs = Partial<
  Record<'publicVlanId' | 'privateVlanId' | 'publicSubnetId' | 'privateSubnetId', unknown>
> & { privateNetworkOnly?: unknown; datacenter?: unknown; datacenters?: unknown };

const given = (value: unknown) => value !== undefined && value !== null;

/** Rules across the fields, no API: a public VLAN needs a public interface, a subnet its VLAN. */
export function checkVlanRules(inputs: NetworkInputs, failures: Failures): void {
  if (inputs.privateNetworkOnly === true && given(inputs.publicVlanId))
    failures.add(
      'publicVlanId',
      'publicVlanId conflicts with privateNetworkOnly: a private-only guest has no public interface',
    );
  for (const { vlan, subnet } of VLAN_INTERFACES) {
    if (given(inputs[subnet]) && !given(inputs[vlan]))
      failures.add(subnet, `${subnet} needs ${vlan}: a subnet is chosen on the VLAN it is on`);
  }
}

/** `Svc_Network_Vlan` and `Svc_Network_Subnet` as the check reads them. */
interface Vlan {
  id: number;
  networkSpace?: string;
  primarySubnetId?: number;
  datacenter?: { name?: string };
}
interface Subnet {
  id: number;
  networkVlanId?: number;
}

/** Each VLAN and subnet named is the account's, fits its interface and the guest's datacenter. */
export async function checkVlans(
  c: Connection,
  inputs: NetworkInputs,
  failures: Failures,
): Promise<void> {
  for (const { vlan: field, subnet: subnetField, space } of VLAN_INTERFACES) {
    const id = inputs[field];
    if (typeof id !== 'number' || failures.has(field)) continue;
    const vlan = await findObject<Vlan>(c, 'Network_Vlan', id, 'id,networkSpace,datacenter.name');
    if (!vlan) {
      failures.add(field, `${field}: there is no VLAN ${id} on this account`);
      continue;
    }
    if (vlan.networkSpace !== undefined && vlan.networkSpace !== space) {
      const other = VLAN_INTERFACES.find((i) => i.space === vlan.networkSpace)?.vlan;
      failures.add(
        field,
        `${field}: VLAN ${id} is a ${vlan.networkSpace} VLAN (give it as ${other})`,
      );
    }
    const at = vlan.datacenter?.name;
    const elsewhere = choices(inputs).filter((dc) => isKnown(dc) && at !== undefined && dc !== at);
    if (elsewhere.length > 0)
      failures.add(
        field,
        `${field}: VLAN ${id} is in ${at}, the guest is ordered in ${elsewhere.join(', ')}: a guest's VLANs are in its datacenter`,
      );
    const subnetId = inputs[subnetField];
    if (typeof subnetId !== 'number' || failures.has(subnetField)) continue;
    const subnet = await findObject<Subnet>(c, 'Network_Subnet', subnetId, 'id,networkVlanId');
    if (!subnet || subnet.networkVlanId !== id)
      failures.add(
        subnetField,
        `${subnetField}: ${subnet ? `subnet ${subnetId} is not on VLAN ${id}` : `there is no subnet ${subnetId} on this account`}`,
      );
  }
}

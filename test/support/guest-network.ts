import type { Client } from '../../provider/client';
import { DedicatedHostManager } from '../../provider/managers';

/**
 * What the emulator shows of a guest's network, read over XML-RPC as any client reads it: the
 * tests of the guest's network inputs (provider and stack) assert on these.
 */

type Interface = 'primaryNetworkComponent' | 'primaryBackendNetworkComponent';

const NIC = 'id,securityGroupBindings[securityGroupId]';

/** A new security group of the client's account; its id. */
export const newSecurityGroup = async (client: Client, name: string): Promise<number> =>
  (
    (await client.call('Network_SecurityGroup', 'createObject', { args: [{ name }] })) as {
      id: number;
    }
  ).id;

/** The groups in force on the guest's public and private interfaces, ascending. */
export async function guestBindings(client: Client, id: string | number) {
  const guest = (await client.call('Virtual_Guest', 'getObject', {
    id: Number(id),
    mask: `primaryNetworkComponent[${NIC}],primaryBackendNetworkComponent[${NIC}]`,
  })) as Partial<Record<Interface, { securityGroupBindings?: { securityGroupId: number }[] }>>;
  const ids = (nic: Interface) =>
    (guest[nic]?.securityGroupBindings ?? []).map((b) => b.securityGroupId).sort((a, b) => a - b);
  return { public: ids('primaryNetworkComponent'), private: ids('primaryBackendNetworkComponent') };
}

/** Binds `group` to one of the guest's interfaces outside Pulumi and waits `ms` for it. */
export async function bindOutside(
  client: Client,
  guestId: string | number,
  nic: Interface,
  group: number,
  ms: number,
): Promise<void> {
  const guest = (await client.call('Virtual_Guest', 'getObject', {
    id: Number(guestId),
    mask: `${nic}.id`,
  })) as Record<Interface, { id: number }>;
  await client.call('Network_SecurityGroup', 'attachNetworkComponents', {
    id: group,
    args: [[guest[nic].id]],
  });
  await new Promise((r) => setTimeout(r, ms));
}

/** A new SPREAD placement group of the client's account behind `datacenter`'s backend router. */
export async function newPlacementGroup(
  client: Client,
  name: string,
  datacenter: string,
): Promise<number> {
  const routers = (await client.call('Virtual_PlacementGroup', 'getAvailableRouters', {
    mask: 'id,datacenter.name',
  })) as { id: number; datacenter: { name: string } }[];
  const router = routers.find((r) => r.datacenter.name === datacenter)!;
  const group = (await client.call('Virtual_PlacementGroup', 'createObject', {
    args: [{ name, backendRouterId: router.id, ruleId: 1 }],
  })) as { id: number };
  return group.id;
}

/** The ids of the guests in a placement group, ascending. */
export async function placementMembers(client: Client, group: number): Promise<number[]> {
  const found = (await client.call('Virtual_PlacementGroup', 'getObject', {
    id: group,
    mask: 'guests.id',
  })) as { guests?: { id: number }[] };
  return (found.guests ?? []).map((g) => g.id).sort((a, b) => a - b);
}

/** A VLAN and its primary subnet. */
export interface VlanIds {
  id: number;
  subnetId: number;
}

/**
 * The account's public and private VLANs in `datacenter`, read off a guest ordered there over
 * XML-RPC (`hostname`): the emulator's account lists the VLANs it has guests on.
 */
export async function vlansIn(
  client: Client,
  datacenter: string,
  hostname: string,
): Promise<{ public: VlanIds; private: VlanIds }> {
  const vlan = 'networkVlan[id,primarySubnetId]';
  const guest = (await client.call('Virtual_Guest', 'createObject', {
    args: [
      {
        hostname,
        domain: 'example.com',
        startCpus: 1,
        maxMemory: 1024,
        hourlyBillingFlag: true,
        localDiskFlag: true,
        operatingSystemReferenceCode: 'UBUNTU_LATEST',
        datacenter: { name: datacenter },
      },
    ],
    mask: `primaryNetworkComponent.${vlan},primaryBackendNetworkComponent.${vlan}`,
  })) as Record<Interface, { networkVlan: { id: number; primarySubnetId: number } }>;
  const ids = (nic: Interface) => ({
    id: guest[nic].networkVlan.id,
    subnetId: guest[nic].networkVlan.primarySubnetId,
  });
  return { public: ids('primaryNetworkComponent'), private: ids('primaryBackendNetworkComponent') };
}

/** The VLANs and subnets the guest's interfaces are on, as the API shows them. */
export async function guestVlans(client: Client, id: string | number) {
  const nic = 'networkVlan.id,primarySubnet.id';
  const guest = (await client.call('Virtual_Guest', 'getObject', {
    id: Number(id),
    mask: `primaryNetworkComponent[${nic}],primaryBackendNetworkComponent[${nic}]`,
  })) as Partial<Record<Interface, { networkVlan: { id: number }; primarySubnet: { id: number } }>>;
  const ids = (nic: Interface) =>
    guest[nic] && { id: guest[nic].networkVlan.id, subnetId: guest[nic].primarySubnet.id };
  return { public: ids('primaryNetworkComponent'), private: ids('primaryBackendNetworkComponent') };
}

/**
 * A new hourly dedicated host of the client's account in `datacenter` (48 cores, 192 GB, 1000 GB
 * disk), ordered over XML-RPC as the reference client orders one; its id.
 */
export async function newDedicatedHost(
  client: Client,
  name: string,
  datacenter: string,
): Promise<number> {
  const hosts = new DedicatedHostManager(client);
  const token = `svc-test-${name}`;
  const container = await hosts.orderContainer({
    name,
    domain: 'example.com',
    datacenter,
    size: '48_CORES_X_192_RAM_X_1_TB',
    hourly: true,
    creationToken: token,
  });
  await hosts.place(container);
  const [host] = await hosts.findByToken(token);
  return host.id;
}

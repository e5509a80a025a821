import type { Client } from '../../provider/client';

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

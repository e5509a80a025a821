/**
 * Properties the real API returns that its public reference pages (sldn-properties.json) omit,
 * each with where it was seen: the reference Python client's recorded API answers
 * (softlayer-python `SoftLayer/fixtures/*.py`) and the masks its commands send to the real API. The schema adds
 * them to the reference's property sets, so a mask or filter naming them works (and the emulator
 * answers them where it models them); test/emulator/property-sets.test.ts checks that nothing
 * else differs from the reference.
 */
export interface ObservedProperty {
  /** `relational` with its target type (`Type[]` for a list, lower case for a plain value). */
  kind: 'local' | 'relational';
  target?: string;
  /** Where the real API was seen returning it. */
  seen: string;
}

export const OBSERVED_PROPERTIES: Readonly<Record<string, Record<string, ObservedProperty>>> = {
  Svc_Network_Vlan: {
    datacenter: {
      kind: 'relational',
      target: 'Svc_Location_Datacenter',
      seen: '`slcli vlan list` and `slcli summary` (NetworkManager.list_vlans) ask for `datacenter[name]` and run against the real API; the reference pages and fixtures do not list it',
    },
    podName: {
      kind: 'relational',
      target: 'string',
      seen: "`slcli vlan list` asks for `podName` and matches it with Network_Pod names; subnets carry it in the reference pages and the SoftLayer_Account.getSubnets fixture ('dal05.pod04')",
    },
  },
};

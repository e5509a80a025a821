import { DATACENTER_NAME } from '../../framework/field-rules';
import {
  ID,
  INTEGER,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
} from '../../lookups/define';
import { NETWORK_SPACES, listVlans, type Vlan } from './api';

/** A VLAN as a `Vlan` resource outputs it, and whether it is billed (ordered) at all. */
export interface VlanResult {
  id: number;
  vlanNumber?: number;
  name?: string;
  notes?: string;
  datacenter?: string;
  networkSpace?: string;
  routerHostname?: string;
  fullyQualifiedName?: string;
  billingItemId?: number;
}

const RESULT = objectType<VlanResult>({
  name: 'VlanResult',
  description:
    'A VLAN of the account with the fields a `Vlan` resource outputs; `billingItemId` is absent on a VLAN the API assigned by itself.',
  properties: { id: prop(ID, "The VLAN's id (its `vlanId`).", { required: true }) },
  fromKind: {
    kind: 'Vlan',
    fields: [
      'vlanNumber',
      'name',
      'notes',
      'datacenter',
      'networkSpace',
      'routerHostname',
      'fullyQualifiedName',
      'billingItemId',
    ],
  },
});

const result = (v: Vlan): VlanResult => ({
  id: v.id,
  vlanNumber: v.vlanNumber,
  ...(v.name ? { name: v.name } : {}),
  ...(v.note ? { notes: v.note } : {}),
  datacenter: v.primaryRouter?.datacenter?.name,
  networkSpace: v.networkSpace,
  routerHostname: v.primaryRouter?.fullyQualifiedDomainName,
  fullyQualifiedName: v.fullyQualifiedName,
  ...(v.billingItem ? { billingItemId: v.billingItem.id } : {}),
});

/** The lookups of Vlan (registered with the kind in kinds/index.ts). */
export const VLAN_LOOKUPS = defineLookups({
  getVlans: lookup({
    description:
      "The account's VLANs (those it ordered and those the API assigned to its guests and servers), all or those of a datacenter, network space, name or number.",
    inputs: {
      datacenter: prop(STRING, 'Only the VLANs of this datacenter, e.g. `dal10`.'),
      networkSpace: prop(STRING, 'Only `PUBLIC` or only `PRIVATE` VLANs.'),
      name: prop(STRING, 'Only the VLANs of this name.'),
      vlanNumber: prop(INTEGER, 'Only the VLANs of this number.'),
    },
    result: listOf(RESULT),
    example: {
      title: 'The private VLANs of dal10',
      name: 'privateVlans',
      args: { datacenter: 'dal10', networkSpace: 'PRIVATE' },
      exports: ['items'],
    },
    check: (a, failures) => {
      failures.string('datacenter', a.datacenter, DATACENTER_NAME);
      if (a.networkSpace !== undefined)
        failures.oneOf('networkSpace', a.networkSpace as string, NETWORK_SPACES, 'a network space');
      failures.string('name', a.name, { maxLength: 20 });
      failures.integer('vlanNumber', a.vlanNumber, { min: 1, max: 4094 });
    },
    call: async (client, { datacenter, networkSpace, name, vlanNumber }) =>
      (await listVlans(client))
        .map(result)
        .filter(
          (v) =>
            (datacenter === undefined || v.datacenter === datacenter) &&
            (networkSpace === undefined || v.networkSpace === networkSpace) &&
            (name === undefined || v.name === name) &&
            (vlanNumber === undefined || v.vlanNumber === vlanNumber),
        ),
  }),
});

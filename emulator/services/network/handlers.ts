/**
 * Svc_Network_Vlan: the derived VLANs (read-only) and the ordered ones (./vlan-order.ts: placed
 * through Product_Order, cancelled through their billing item), whose `name` and `note` change
 * with `editObject`, and which say why they cannot be cancelled (`getCancelFailureReasons`).
 * Svc_Network_Subnet and Svc_Network_Subnet_IpAddress: read-only (getObject and the relation
 * getters), each the caller's own; Svc_Network_Pod: the pods (one per datacenter, see model.ts).
 */
import { propertyNotValid, publicFault } from '../../errors';
import { checkNotes, present } from '../../validators';
import { expectArgs, list, ok, ownedById, structArg, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { PODS, anySubnetById, anyVlanById, tables, type VlanRec } from './model';
import { VLAN_ORDER, cancelFailureReasons, readName, vlanOrder } from './vlan-order';
import './types';

const loadVlan = ownedById((ctx, id) => anyVlanById(ctx.store, id, ctx.now));

/** The ordered VLAN a call addresses (a derived one keeps no name or note). */
function loadOrdered(ctx: AuthedContext): VlanRec {
  const vlan = loadVlan(ctx);
  const stored = ctx.store.get('vlans', vlan.id);
  if (!stored)
    throw publicFault(
      `VLAN ${vlan.id} was assigned automatically; this emulator keeps a name and note for ordered VLANs only.`,
    );
  return stored;
}

async function editVlan(ctx: AuthedContext) {
  expectArgs(ctx, ['templateObject']);
  const vlan = loadOrdered(ctx);
  const template = structArg(ctx, 0, 'templateObject');
  for (const [key, value] of Object.entries(template))
    if (!['name', 'note', 'complexType', 'id'].includes(key) && present(value))
      throw propertyNotValid(key, 'Svc_Network_Vlan');
  const record = {
    ...vlan,
    ...('name' in template ? { name: readName(template.name) } : {}),
    ...('note' in template ? { note: checkNotes(template.note) || undefined } : {}),
    modifyDate: ctx.now,
  };
  await ctx.store.write([{ put: 'vlans', record }]);
  return ok(true);
}

export const network = serviceFolder({
  tables,
  services: {
    Network_Subnet_IpAddress: {
      load: ownedById((ctx, id) => ctx.store.get('ipAddresses', id)),
      methods: {},
    },
    Network_Vlan: {
      load: loadVlan,
      methods: {
        editObject: { handler: editVlan },
        getCancelFailureReasons: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            const vlan = loadVlan(ctx);
            const stored = ctx.store.get('vlans', vlan.id);
            return ok(stored ? cancelFailureReasons(ctx, stored) : []);
          },
        },
      },
    },
    Network_Subnet: {
      load: ownedById((ctx, id) => anySubnetById(ctx.store, id, ctx.now)),
      methods: {},
    },
    Network_Pod: {
      methods: {
        getAllObjects: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, 'Svc_Network_Pod', PODS, null);
          },
        },
      },
    },
  },
  orders: { [VLAN_ORDER]: vlanOrder },
});

declare module '../service' {
  interface ServiceFolders {
    network: typeof network;
  }
}

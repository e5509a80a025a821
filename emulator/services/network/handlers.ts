/**
 * Svc_Network_Vlan, Svc_Network_Subnet and Svc_Network_Subnet_IpAddress: read-only (getObject
 * and the relation getters), each the caller's own; Svc_Network_Pod: the pods (one per
 * datacenter, see model.ts).
 */
import { expectArgs, list, ownedById } from '../context';
import { serviceFolder } from '../service';
import { PODS, subnetById, tables, vlanById } from './model';
import './types';

export const network = serviceFolder({
  tables,
  services: {
    Network_Subnet_IpAddress: {
      load: ownedById((ctx, id) => ctx.store.get('ipAddresses', id)),
      methods: {},
    },
    Network_Vlan: { load: ownedById((_, id) => vlanById(id)), methods: {} },
    Network_Subnet: { load: ownedById((_, id) => subnetById(id)), methods: {} },
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
});

declare module '../service' {
  interface ServiceFolders {
    network: typeof network;
  }
}

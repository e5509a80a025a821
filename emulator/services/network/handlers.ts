/**
 * Svc_Network_Vlan, Svc_Network_Subnet and Svc_Network_Subnet_IpAddress: read-only (getObject
 * and the relation getters), each the caller's own.
 */
import { ownedById } from '../context';
import { serviceFolder } from '../service';
import { subnetById, tables, vlanById } from './model';
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
  },
});

declare module '../service' {
  interface ServiceFolders {
    network: typeof network;
  }
}

/**
 * Read-mostly services: Hardware_Server, Location / Location_Datacenter, Network_Vlan,
 * Network_Subnet and Network_Subnet_IpAddress.
 */
import { DATACENTERS, datacenterById } from '../catalog';
import { objectNotFound } from '../errors';
import { subnetById, vlanById } from '../network';
import { expectArgs, list, ownedById, requireId, type AuthedContext } from './context';
import { defineService } from './registry';

for (const [name, load] of [
  ['Hardware_Server', ownedById((ctx, id) => ctx.store.get('hardware', id))],
  ['Network_Subnet_IpAddress', ownedById((ctx, id) => ctx.store.get('ipAddresses', id))],
  ['Network_Vlan', ownedById((_, id) => vlanById(id))],
  ['Network_Subnet', ownedById((_, id) => subnetById(id))],
] as const) {
  defineService({ name, load, methods: {} });
}

/** Location and Location_Datacenter: the datacenters (anyone may list them). */
for (const name of ['Location', 'Location_Datacenter']) {
  defineService({
    name,
    load: (ctx: AuthedContext) => {
      const id = requireId(ctx);
      const dc = datacenterById(id);
      if (!dc) throw objectNotFound(id);
      return dc;
    },
    methods: {
      getDatacenters: {
        access: 'optional',
        handler: (ctx) => {
          expectArgs(ctx, []);
          return list(ctx, `Svc_${name}`, DATACENTERS, null);
        },
      },
    },
  });
}

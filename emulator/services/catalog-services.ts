/** Read-mostly services: Hardware_Server, Location_Datacenter, Network_Subnet_IpAddress. */
import { DATACENTERS, datacenterById } from '../catalog';
import { objectNotFound } from '../errors';
import { expectArgs, list, owned, requireId, type AuthedContext } from './context';
import { defineService } from './registry';

defineService({
  name: 'Hardware_Server',
  load: (ctx: AuthedContext) => {
    const id = requireId(ctx);
    return owned(ctx, ctx.store.get('hardware', id), id);
  },
  methods: {},
});

defineService({
  name: 'Network_Subnet_IpAddress',
  load: (ctx: AuthedContext) => {
    const id = requireId(ctx);
    return owned(ctx, ctx.store.get('ipAddresses', id), id);
  },
  methods: {},
});

defineService({
  name: 'Location_Datacenter',
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
        return list(ctx, 'Svc_Location_Datacenter', DATACENTERS, null);
      },
    },
  },
});

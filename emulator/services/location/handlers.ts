/** Svc_Location and Svc_Location_Datacenter: the datacenters of the catalog (anyone may list them). */
import { DATACENTERS, datacenterById } from '../../catalog';
import { objectNotFound } from '../../errors';
import { expectArgs, list, requireId, type AuthedContext } from '../context';
import { serviceFolder, type ApiService } from '../service';
import './types';

function datacenters(name: string): ApiService {
  return {
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
  };
}

export const location = serviceFolder({
  tables: {},
  services: {
    Location: datacenters('Location'),
    Location_Datacenter: datacenters('Location_Datacenter'),
  },
});

declare module '../service' {
  interface ServiceFolders {
    location: typeof location;
  }
}

/**
 * Svc_Virtual_DedicatedHost: a host read (`getObject`, `getGuests`, `getAllocationStatus`, ...
 * from ./types.ts), its name and notes edited (`editObject`), cancelled at once
 * (`deleteObject`, refused while guests are on it), and the backend routers a host of a size
 * can be ordered behind in a datacenter (`getAvailableRouters`). Hosts are ordered through
 * Product_Order (./host-order.ts) and cancelled through their billing item (./cancel.ts).
 */
import { invalidValue } from '../../errors';
import { checkHostname, checkNotes, present, readInt, structAt } from '../../validators';
import { expectArgs, list, ok, owned, requireId, structArg, type AuthedContext } from '../context';
import { routerFor } from '../network/model';
import { datacenterById } from '../../catalog';
import { serviceFolder } from '../service';
import { cancelHostOps } from './cancel';
import { HOST_ORDER, hostOrder } from './host-order';
import { isLive, tables, type DedicatedHostRec } from './model';
import './types';

export const loadHost = (ctx: AuthedContext): DedicatedHostRec => {
  const id = requireId(ctx);
  const found = ctx.store.get('dedicatedHosts', id);
  return owned(ctx, found && isLive(ctx.store, found, ctx.now) ? found : undefined, id);
};

const EDITABLE = new Set(['name', 'notes']);

async function edit(ctx: AuthedContext) {
  expectArgs(ctx, ['templateObject']);
  const template = structArg(ctx, 0, 'templateObject');
  const host = loadHost(ctx);
  for (const key of Object.keys(template))
    if (!EDITABLE.has(key) && !(key === 'id' && template.id === host.id))
      throw invalidValue(
        `Virtual_DedicatedHost::editObject changes 'name' and 'notes' only, not '${key}'.`,
      );
  const record = {
    ...host,
    ...(present(template.name) ? { name: checkHostname(template.name, 'name') } : {}),
    ...('notes' in template ? { notes: checkNotes(template.notes ?? '') || undefined } : {}),
    modifyDate: ctx.now,
  };
  await ctx.store.write([{ put: 'dedicatedHosts', record }]);
  return ok(true);
}

/** The backend router of the template's datacenter (every size fits behind it here). */
function availableRouters(ctx: AuthedContext) {
  expectArgs(ctx, ['dedicatedHost'], 0);
  const template = present(ctx.args[0]) ? structAt(ctx.args[0], 'dedicatedHost') : {};
  const dc = present(template.datacenter)
    ? readInt(
        structAt(template.datacenter, 'dedicatedHost.datacenter').id,
        'dedicatedHost.datacenter.id',
      )
    : undefined;
  const datacenter = dc === undefined ? undefined : datacenterById(dc);
  if (dc !== undefined && !datacenter)
    throw invalidValue(
      `Invalid value provided for 'dedicatedHost.datacenter.id': no datacenter ${dc}.`,
    );
  const routers = datacenter ? [routerFor(datacenter, 'PRIVATE')] : [];
  return list(ctx, 'Svc_Hardware_Router_Backend', routers, null);
}

export const dedicatedHost = serviceFolder({
  tables,
  orders: { [HOST_ORDER]: hostOrder },
  services: {
    Virtual_DedicatedHost: {
      load: loadHost,
      methods: {
        editObject: { handler: edit },
        deleteObject: {
          handler: async (ctx) => {
            expectArgs(ctx, []);
            const host = loadHost(ctx);
            const item = ctx.store.get('billingItems', host.billingItemId)!;
            await ctx.store.write(cancelHostOps(ctx, host, item, true));
            return ok(true);
          },
        },
        getAvailableRouters: { handler: availableRouters },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    dedicatedHost: typeof dedicatedHost;
  }
}

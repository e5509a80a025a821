/**
 * Svc_Network_Storage: a block or file volume read (`getObject`, `getAllowedVirtualGuests`, ...
 * from ./types.ts), its notes edited, and guests allowed to reach it or removed, one
 * (`allowAccessFromVirtualGuest`) or a list of host templates at a time
 * (`allowAccessFromHostList`, what the reference client sends). A guest is allowed only once
 * the volume is provisioned and only from the volume's datacenter; allowing a guest twice or
 * removing one that is not allowed changes nothing. Volumes are ordered and resized through
 * Product_Order (./storage-order.ts) and cancelled through their billing item.
 */
import { invalidValue, publicFault } from '../../errors';
import { checkNotes, isStruct, listOf, readInt, structAt } from '../../validators';
import { expectArgs, ok, owned, requireId, structArg, type AuthedContext } from '../context';
import { serviceFolder, type MethodDef } from '../service';
import type { GuestRec } from '../virtual-guest/model';
import { current, isLive, isProvisioned, tables, type VolumeRec } from './model';
import { VOLUME_ORDER, VOLUME_UPGRADE, volumeOrder, volumeUpgradeOrder } from './storage-order';
import './types';

export const loadVolume = (ctx: AuthedContext): VolumeRec => {
  const id = requireId(ctx);
  const found = ctx.store.get('volumes', id);
  return owned(ctx, found && isLive(ctx.store, found, ctx.now) ? found : undefined, id);
};

/** The guest a host template names: the caller's, in the volume's datacenter. */
function guestFor(ctx: AuthedContext, volume: VolumeRec, value: unknown, field: string): GuestRec {
  const template = structAt(value, field);
  const type = template.objectType ?? 'Svc_Virtual_Guest';
  if (type !== 'Svc_Virtual_Guest') {
    throw publicFault(
      `${field}.objectType ${String(type)}: this emulator allows virtual guests only (Svc_Virtual_Guest).`,
    );
  }
  const id = readInt(template.id, `${field}.id`);
  const guest = owned(ctx, ctx.store.get('guests', id), id);
  if (guest.datacenterId !== volume.datacenterId) {
    throw publicFault(
      `Virtual guest ${guest.id} is in another datacenter than volume ${volume.id}: a host reaches a volume of its own datacenter only.`,
    );
  }
  return guest;
}

/** Allows (`allow`) or removes the guests, in one write; answers the guests changed. */
async function setAccess(
  ctx: AuthedContext,
  templates: unknown[],
  field: string,
  allow: boolean,
): Promise<GuestRec[]> {
  const volume = loadVolume(ctx);
  if (!isProvisioned(volume, ctx.now)) {
    throw publicFault(
      `Volume ${volume.id} is still being provisioned; hosts can be allowed once it is ready.`,
    );
  }
  const guests = templates.map((t, i) => guestFor(ctx, volume, t, `${field}[${i}]`));
  const ids = new Set(volume.allowedGuestIds);
  for (const guest of guests) {
    if (allow) ids.add(guest.id);
    else ids.delete(guest.id);
  }
  const allowedGuestIds = [...ids];
  if (allowedGuestIds.join() !== volume.allowedGuestIds.join())
    await ctx.store.write([{ put: 'volumes', record: { ...volume, allowedGuestIds } }]);
  return guests;
}

const hostView = (g: GuestRec) => ({
  id: g.id,
  name: g.hostname,
  resourceTableId: g.id,
  resourceTableName: 'VIRTUAL_GUEST',
});

const oneGuest = (allow: boolean): MethodDef => ({
  handler: async (ctx) => {
    expectArgs(ctx, ['virtualGuestObject']);
    await setAccess(ctx, [structArg(ctx, 0, 'virtualGuestObject')], 'virtualGuestObject', allow);
    return ok(true);
  },
});

const hostList = (allow: boolean): MethodDef => ({
  handler: async (ctx) => {
    expectArgs(ctx, ['hostObjectTemplates']);
    const templates = listOf(ctx.args[0], 'hostObjectTemplates');
    return ok((await setAccess(ctx, templates, 'hostObjectTemplates', allow)).map(hostView));
  },
});

export const networkStorage = serviceFolder({
  tables,
  orders: { [VOLUME_ORDER]: volumeOrder, [VOLUME_UPGRADE]: volumeUpgradeOrder },
  services: {
    Network_Storage: {
      load: (ctx) => current(loadVolume(ctx), ctx.now),
      methods: {
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const template = structArg(ctx, 0, 'templateObject');
            const volume = loadVolume(ctx);
            for (const key of Object.keys(template)) {
              if (key !== 'notes' && !(key === 'id' && template.id === volume.id))
                throw invalidValue(
                  `Network_Storage::editObject changes 'notes' only, not '${key}'.`,
                );
            }
            if (!isStruct(template) || !('notes' in template)) return ok(true);
            const notes = checkNotes(template.notes);
            await ctx.store.write([{ put: 'volumes', record: { ...volume, notes } }]);
            return ok(true);
          },
        },
        allowAccessFromVirtualGuest: oneGuest(true),
        removeAccessFromVirtualGuest: oneGuest(false),
        allowAccessFromHostList: hostList(true),
        removeAccessFromHostList: hostList(false),
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    networkStorage: typeof networkStorage;
  }
}

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
import { expectArgs, ok, owned, structArg, type AuthedContext } from '../context';
import { serviceFolder, type MethodDef } from '../service';
import type { GuestRec } from '../virtual-guest/model';
import { current, isProvisioned, tables, type VolumeRec } from './model';
import type { IpAddressRec } from '../network/model';
import { subnetById } from '../network/model';
import {
  SNAPSHOT_ORDER,
  VOLUME_ORDER,
  VOLUME_UPGRADE,
  volumeOrder,
  volumeUpgradeOrder,
} from './storage-order';
import { SNAPSHOT_UPGRADE, snapshotSpaceOrder, snapshotSpaceUpgrade } from './snapshot-order';
import { SNAPSHOT_METHODS, loadVolume } from './schedules';
import './types';

const GUEST = 'Svc_Virtual_Guest';
const IP_ADDRESS = 'Svc_Network_Subnet_IpAddress';

/** A host a volume lets in: a guest, or an IP address of the account's private network. */
type Host = { type: typeof GUEST; guest: GuestRec } | { type: typeof IP_ADDRESS; ip: IpAddressRec };

/**
 * The host a template names (`objectType` defaults to `defaultType`): the caller's, in the
 * volume's datacenter; an address must be on the private network (storage is reached there).
 */
function hostFor(
  ctx: AuthedContext,
  volume: VolumeRec,
  value: unknown,
  field: string,
  defaultType: string,
): Host {
  const template = structAt(value, field);
  const type = template.objectType ?? defaultType;
  const id = readInt(template.id, `${field}.id`);
  const elsewhere = (what: string) =>
    publicFault(
      `${what} is in another datacenter than volume ${volume.id}: a host reaches a volume of its own datacenter only.`,
    );
  if (type === GUEST) {
    const guest = owned(ctx, ctx.store.get('guests', id), id);
    if (guest.datacenterId !== volume.datacenterId) throw elsewhere(`Virtual guest ${guest.id}`);
    return { type, guest };
  }
  if (type === IP_ADDRESS) {
    const ip = owned(ctx, ctx.store.get('ipAddresses', id), id);
    const subnet = subnetById(ip.subnetId);
    if (ip.isPublic || subnet?.space !== 'PRIVATE')
      throw publicFault(
        `IP address ${ip.ipAddress} is public: a volume is reached over the private network, from a private address.`,
      );
    if (subnet.datacenter.id !== volume.datacenterId) throw elsewhere(`IP address ${ip.ipAddress}`);
    return { type, ip };
  }
  throw publicFault(
    `${field}.objectType ${String(type)}: this emulator allows virtual guests (${GUEST}) and IP addresses (${IP_ADDRESS}) only.`,
  );
}

const toggled = (ids: number[], changed: number[], allow: boolean) => {
  const set = new Set(ids);
  for (const id of changed) {
    if (allow) set.add(id);
    else set.delete(id);
  }
  return [...set];
};

/** Allows (`allow`) or removes the hosts, in one write; answers the hosts named. */
async function setAccess(
  ctx: AuthedContext,
  templates: unknown[],
  field: string,
  allow: boolean,
  defaultType = GUEST,
): Promise<Host[]> {
  const volume = loadVolume(ctx);
  if (!isProvisioned(volume, ctx.now)) {
    throw publicFault(
      `Volume ${volume.id} is still being provisioned; hosts can be allowed once it is ready.`,
    );
  }
  const hosts = templates.map((t, i) => hostFor(ctx, volume, t, `${field}[${i}]`, defaultType));
  const ids = (type: string) =>
    hosts.flatMap((h) => (h.type !== type ? [] : [h.type === GUEST ? h.guest.id : h.ip.id]));
  const allowedGuestIds = toggled(volume.allowedGuestIds, ids(GUEST), allow);
  const allowedIpIds = toggled(volume.allowedIpIds ?? [], ids(IP_ADDRESS), allow);
  if (
    allowedGuestIds.join() !== volume.allowedGuestIds.join() ||
    allowedIpIds.join() !== (volume.allowedIpIds ?? []).join()
  )
    await ctx.store.write([
      { put: 'volumes', record: { ...volume, allowedGuestIds, allowedIpIds } },
    ]);
  return hosts;
}

const hostView = (h: Host) =>
  h.type === GUEST
    ? {
        id: h.guest.id,
        name: h.guest.hostname,
        resourceTableId: h.guest.id,
        resourceTableName: 'VIRTUAL_GUEST',
      }
    : {
        id: h.ip.id,
        name: h.ip.ipAddress,
        resourceTableId: h.ip.id,
        resourceTableName: 'SUBNET_IP_ADDRESS',
      };

/** One host (`allowAccessFromVirtualGuest`, `allowAccessFromIpAddress`, their removes). */
const oneHost = (allow: boolean, arg: string, type: string): MethodDef => ({
  handler: async (ctx) => {
    expectArgs(ctx, [arg]);
    await setAccess(ctx, [structArg(ctx, 0, arg)], arg, allow, type);
    return ok(true);
  },
});

/** A list of host templates (`allowAccessFromHostList`, `allowAccessFromIpAddressList`, ...). */
const hostList = (allow: boolean, arg: string, type: string): MethodDef => ({
  handler: async (ctx) => {
    expectArgs(ctx, [arg]);
    const templates = listOf(ctx.args[0], arg);
    return ok((await setAccess(ctx, templates, arg, allow, type)).map(hostView));
  },
});

export const networkStorage = serviceFolder({
  tables,
  orders: {
    [VOLUME_ORDER]: volumeOrder,
    [VOLUME_UPGRADE]: volumeUpgradeOrder,
    [SNAPSHOT_ORDER]: snapshotSpaceOrder,
    [SNAPSHOT_UPGRADE]: snapshotSpaceUpgrade,
  },
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
        allowAccessFromVirtualGuest: oneHost(true, 'virtualGuestObject', GUEST),
        removeAccessFromVirtualGuest: oneHost(false, 'virtualGuestObject', GUEST),
        allowAccessFromIpAddress: oneHost(true, 'ipAddressObject', IP_ADDRESS),
        removeAccessFromIpAddress: oneHost(false, 'ipAddressObject', IP_ADDRESS),
        allowAccessFromHostList: hostList(true, 'hostObjectTemplates', GUEST),
        removeAccessFromHostList: hostList(false, 'hostObjectTemplates', GUEST),
        allowAccessFromIpAddressList: hostList(true, 'ipAddressObjectTemplates', IP_ADDRESS),
        removeAccessFromIpAddressList: hostList(false, 'ipAddressObjectTemplates', IP_ADDRESS),
        ...SNAPSHOT_METHODS,
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    networkStorage: typeof networkStorage;
  }
}

/**
 * Everything one account owns, as API objects with their main relations
 * (`GET /_emulator/accounts/<username>/objects`, `handle.objects(username)`): lets tests check
 * what a client really left behind without going through the client itself.
 */
import { findUser } from './auth';
import { parseMaskString } from './query/mask';
import { project } from './query/project';
import { typeDef, type ViewContext } from './schema';
import type { Store } from './store';
import { volumesOf } from './services/network-storage/model';

export interface AccountObjects {
  account: Record<string, unknown>;
  users: Record<string, unknown>[];
  virtualGuests: Record<string, unknown>[];
  hardware: Record<string, unknown>[];
  tickets: Record<string, unknown>[];
  dnsDomains: Record<string, unknown>[];
  ipAddresses: Record<string, unknown>[];
  billingItems: Record<string, unknown>[];
  sshKeys: Record<string, unknown>[];
  /** Block and file volumes, live ones only. */
  networkStorage: Record<string, unknown>[];
}

const MASKS = {
  guests:
    'mask[datacenter, tagReferences.tag, billingItem, activeTransaction, powerState, networkComponents, userData, sshKeys, blockDevices]',
  tickets: 'mask[updates, attachedHardware, attachedVirtualGuests, status]',
  domains: 'mask[resourceRecords]',
  volumes:
    'mask[storageType, capacityGb, provisionedIops, storageTierLevel, billingItem, allowedVirtualGuests.id, activeTransactions, properties, serviceResource.datacenter]',
};

/** Undefined when no user has that username. */
export function accountObjects(
  store: Store,
  username: string,
  now = Date.now(),
): AccountObjects | undefined {
  const user = findUser(store, username);
  const account = user && store.get('accounts', user.accountId);
  if (!user || !account) return undefined;
  const ctx: ViewContext = { store, now, accountId: account.id, user };
  const view = (typeName: string, rows: unknown[], mask?: string) =>
    rows.map((row) =>
      project(typeDef(typeName), row, mask ? parseMaskString(mask).root : undefined, ctx),
    );
  return {
    account: project(typeDef('Svc_Account'), account, undefined, ctx),
    users: view('Svc_User_Customer', store.by('users', 'accountId', account.id)),
    virtualGuests: view(
      'Svc_Virtual_Guest',
      store.by('guests', 'accountId', account.id),
      MASKS.guests,
    ),
    hardware: view(
      'Svc_Hardware_Server',
      store.by('hardware', 'accountId', account.id),
      'mask[datacenter]',
    ),
    tickets: view('Svc_Ticket', store.by('tickets', 'accountId', account.id), MASKS.tickets),
    dnsDomains: view(
      'Svc_Dns_Domain',
      store.by('dnsDomains', 'accountId', account.id),
      MASKS.domains,
    ),
    ipAddresses: view(
      'Svc_Network_Subnet_IpAddress',
      store.by('ipAddresses', 'accountId', account.id),
    ),
    billingItems: view('Svc_Billing_Item', store.by('billingItems', 'accountId', account.id)),
    sshKeys: view('Svc_Security_Ssh_Key', store.by('sshKeys', 'accountId', account.id)),
    networkStorage: view('Svc_Network_Storage', volumesOf(ctx, account.id), MASKS.volumes),
  };
}

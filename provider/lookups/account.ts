import {
  AccountManager,
  TicketManager,
  type Account,
  type Datacenter,
  type HardwareServer,
  type IpAddress,
  type Ticket,
  type VirtualGuest,
} from '../managers';
import { SvcError } from '../client/errors';
import type { Client } from '../client';
import { checkDateRange, checkFilter, checkIdOrName, checkMask, lookupArgs } from './args';
import { LIMITS } from '../framework/failures';

/**
 * Data sources of the account. Dynamic providers have no Invoke, so these are plain functions that
 * call the API from the program (during preview too), each with a Promise form and an Output form.
 * Every lookup checks its arguments first and rejects with a `ValidationError` naming each wrong
 * one, before any call. A kind's own lookups are registered with the kind (define.ts).
 */

export interface GetAccountArgs {
  mask?: string;
}

export async function getAccount(client: Client, args: GetAccountArgs = {}): Promise<Account> {
  const { mask } = lookupArgs<GetAccountArgs>('getAccount', args, ['mask'], (a, failures) =>
    checkMask(failures, a.mask),
  );
  return new AccountManager(client).getAccount(mask ?? 'id,companyName,email,country');
}

export interface GetVirtualGuestsArgs {
  /** An object filter under `virtualGuests`, e.g. `{ virtualGuests: { domain: { operation: 'example.com' } } }`. */
  filter?: Record<string, unknown>;
  mask?: string;
  /** At most this many guests (1 to 10,000). */
  limit?: number;
}

export async function getVirtualGuests(
  client: Client,
  args: GetVirtualGuestsArgs = {},
): Promise<VirtualGuest[]> {
  const { filter, mask, limit } = lookupArgs<GetVirtualGuestsArgs>(
    'getVirtualGuests',
    args,
    ['filter', 'mask', 'limit'],
    (a, failures) => {
      checkFilter(failures, a.filter, 'virtualGuests');
      checkMask(failures, a.mask);
      failures.integer('limit', a.limit, { min: 1, max: LIMITS.lookupLimit });
    },
  );
  const result = await client.call('Account', 'getVirtualGuests', {
    mask: mask ?? 'id,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,datacenter.name',
    ...(filter ? { filter } : {}),
    ...(limit ? { limit } : {}),
  });
  return [...(result as VirtualGuest[])];
}

export interface GetTicketsArgs {
  createdBetween?: { start: string | Date; end: string | Date };
}

export async function getTickets(client: Client, args: GetTicketsArgs = {}): Promise<Ticket[]> {
  const { createdBetween: range } = lookupArgs<GetTicketsArgs>(
    'getTickets',
    args,
    ['createdBetween'],
    (a, failures) => checkDateRange(failures, a.createdBetween, 'createdBetween'),
  );
  return new TicketManager(client).listTickets(
    range ? { createdBetween: { start: new Date(range.start), end: new Date(range.end) } } : {},
  );
}

export async function getIpAddresses(client: Client, args: object = {}): Promise<IpAddress[]> {
  lookupArgs('getIpAddresses', args, []);
  return new AccountManager(client).getIpAddresses();
}

export async function getDatacenters(client: Client, args: object = {}): Promise<Datacenter[]> {
  lookupArgs('getDatacenters', args, []);
  return new AccountManager(client).getDatacenters();
}

/** What a hardware server lookup reads unless given a mask. */
const HARDWARE_MASK =
  'id,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,primaryBackendIpAddress,' +
  'processorPhysicalCoreAmount,memoryCapacity,datacenter.name,hardwareStatus.status';

export interface GetHardwareServerArgs {
  /** The server's id; or give `hostname` and `domain`. */
  id?: number | string;
  hostname?: string;
  domain?: string;
  mask?: string;
}

/**
 * One hardware server of the account, by id or by hostname and domain; rejects naming the server
 * when the account has none (or several) of that name.
 */
export async function getHardwareServer(
  client: Client,
  args: GetHardwareServerArgs,
): Promise<HardwareServer> {
  const a = lookupArgs<GetHardwareServerArgs>(
    'getHardwareServer',
    args,
    ['id', 'hostname', 'domain', 'mask'],
    (given, failures) => {
      checkIdOrName(failures, given, "a server's");
      checkMask(failures, given.mask);
    },
  );
  const accounts = new AccountManager(client);
  const mask = a.mask ?? HARDWARE_MASK;
  if (a.id !== undefined) return accounts.getHardwareServer(Number(a.id), mask);
  const name = `${a.hostname}.${a.domain}`;
  const found = await accounts.getHardware(mask, {
    hardware: { hostname: { operation: a.hostname }, domain: { operation: a.domain } },
  });
  if (found.length !== 1) {
    throw new SvcError(
      found.length === 0
        ? `getHardwareServer: the account has no hardware server ${name}`
        : `getHardwareServer: ${found.length} hardware servers are named ${name}: ${found.map((h) => h.id).join(', ')}; give the id of one`,
    );
  }
  return found[0];
}

export interface GetHardwareServersArgs {
  /** An object filter under `hardware`, e.g. `{ hardware: { datacenter: { name: { operation: 'dal10' } } } }`. */
  filter?: Record<string, unknown>;
  mask?: string;
}

/** The account's hardware servers (all, or those the filter keeps). */
export async function getHardwareServers(
  client: Client,
  args: GetHardwareServersArgs = {},
): Promise<HardwareServer[]> {
  const { filter, mask } = lookupArgs<GetHardwareServersArgs>(
    'getHardwareServers',
    args,
    ['filter', 'mask'],
    (a, failures) => {
      checkFilter(failures, a.filter, 'hardware');
      checkMask(failures, a.mask);
    },
  );
  return new AccountManager(client).getHardware(mask ?? HARDWARE_MASK, filter);
}

import {
  AccountManager,
  DnsManager,
  TicketManager,
  type Account,
  type Datacenter,
  type DnsZone,
  type IpAddress,
  type Ticket,
  type VirtualGuest,
} from '../provider/managers';
import { programClient } from './connection';
import { outputForm } from './output-form';

/**
 * Data sources. Dynamic providers have no Invoke, so these are plain functions that call the API
 * from the program (during preview too), each with a Promise form and an Output form.
 */

export interface GetDnsZoneArgs {
  name: string;
}

/** The zone with its records; rejects with `DNSZoneNotFound` when the account has no such zone. */
export function getDnsZone(args: GetDnsZoneArgs): Promise<DnsZone> {
  return new DnsManager(programClient()).getZoneByName(args.name);
}
export const getDnsZoneOutput = outputForm(getDnsZone);

export function getAccount(args: { mask?: string } = {}): Promise<Account> {
  return new AccountManager(programClient()).getAccount(
    args.mask ?? 'id,companyName,email,country',
  );
}
export const getAccountOutput = outputForm(getAccount);

export interface GetVirtualGuestsArgs {
  /** An object filter under `virtualGuests`, e.g. `{ virtualGuests: { domain: { operation: 'example.com' } } }`. */
  filter?: Record<string, unknown>;
  mask?: string;
  limit?: number;
}

export async function getVirtualGuests(args: GetVirtualGuestsArgs = {}): Promise<VirtualGuest[]> {
  const result = await programClient().call('Account', 'getVirtualGuests', {
    mask:
      args.mask ?? 'id,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,datacenter.name',
    ...(args.filter ? { filter: args.filter } : {}),
    ...(args.limit ? { limit: args.limit } : {}),
  });
  return [...(result as VirtualGuest[])];
}
export const getVirtualGuestsOutput = outputForm(getVirtualGuests);

export interface GetTicketsArgs {
  createdBetween?: { start: string | Date; end: string | Date };
}

export function getTickets(args: GetTicketsArgs = {}): Promise<Ticket[]> {
  const range = args.createdBetween;
  return new TicketManager(programClient()).listTickets(
    range ? { createdBetween: { start: new Date(range.start), end: new Date(range.end) } } : {},
  );
}
export const getTicketsOutput = outputForm(getTickets);

export function getIpAddresses(): Promise<IpAddress[]> {
  return new AccountManager(programClient()).getIpAddresses();
}
export const getIpAddressesOutput = outputForm(getIpAddresses);

export function getDatacenters(): Promise<Datacenter[]> {
  return new AccountManager(programClient()).getDatacenters();
}
export const getDatacentersOutput = outputForm(getDatacenters);

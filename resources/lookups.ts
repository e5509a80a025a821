import * as lookups from '../provider/lookups';
import { inProgram, outputForm } from './lookup-forms';

/**
 * Data sources, each with a Promise form and an Output form (lookup-forms.ts). Their arguments are
 * checked first: wrong ones reject with a `ValidationError` naming each, before any call. (The
 * provider plugin serves the same lookups as invokes.) A kind's own lookups are exported next to
 * its class (index.ts).
 */

export type {
  GetAccountArgs,
  GetHardwareServerArgs,
  GetHardwareServersArgs,
  GetTicketsArgs,
  GetVirtualGuestArgs,
  GetVirtualGuestsArgs,
  VirtualGuestResult,
} from '../provider/lookups';

/** The account (its company name, email and country unless `mask` says otherwise). */
export const getAccount = inProgram(lookups.getAccount);
export const getAccountOutput = outputForm(getAccount);

/** The account's guests, all or those an object filter under `virtualGuests` keeps. */
export const getVirtualGuests = inProgram(lookups.getVirtualGuests);
export const getVirtualGuestsOutput = outputForm(getVirtualGuests);

/** The account's tickets, all or those created in a date range. */
export const getTickets = inProgram(lookups.getTickets);
export const getTicketsOutput = outputForm(getTickets);

/** The account's IP addresses. */
export const getIpAddresses = inProgram(lookups.getIpAddresses);
export const getIpAddressesOutput = outputForm(getIpAddresses);

/** The datacenters. */
export const getDatacenters = inProgram(lookups.getDatacenters);
export const getDatacentersOutput = outputForm(getDatacenters);

/** One hardware server, by id or by hostname and domain. */
export const getHardwareServer = inProgram(lookups.getHardwareServer);
export const getHardwareServerOutput = outputForm(getHardwareServer);

/** The account's hardware servers, all or those an object filter under `hardware` keeps. */
export const getHardwareServers = inProgram(lookups.getHardwareServers);
export const getHardwareServersOutput = outputForm(getHardwareServers);

/**
 * One guest of the account, by id or by hostname and domain, with the fields a `VirtualGuest`
 * resource outputs (costs from its billing item, as the resource does).
 */
export const getVirtualGuest = inProgram(lookups.getVirtualGuest);
export const getVirtualGuestOutput = outputForm(getVirtualGuest);

import { ACCOUNT_LOOKUPS } from '../provider/lookups';
import { programForms } from './lookup-forms';

export type {
  GetAccountArgs,
  GetHardwareServerArgs,
  GetHardwareServersArgs,
  GetTicketsArgs,
  GetVirtualGuestsArgs,
} from '../provider/lookups';

/**
 * The account's lookups, each with a Promise form and an Output form (lookup-forms.ts), as
 * declared in provider/lookups/account.ts (what each takes and answers). Their arguments are
 * checked first: wrong ones reject with a `ValidationError` naming each, before any call. A kind's
 * own lookups are exported next to its class (index.ts).
 */
export const {
  getAccount,
  getAccountOutput,
  getVirtualGuests,
  getVirtualGuestsOutput,
  getTickets,
  getTicketsOutput,
  getIpAddresses,
  getIpAddressesOutput,
  getDatacenters,
  getDatacentersOutput,
  getHardwareServer,
  getHardwareServerOutput,
  getHardwareServers,
  getHardwareServersOutput,
} = programForms(ACCOUNT_LOOKUPS);

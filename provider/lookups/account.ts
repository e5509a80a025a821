import {
  AccountManager,
  TicketManager,
  type Account,
  type HardwareServer,
  type VirtualGuest,
} from '../managers';
import { SvcError } from '../client/errors';
import { checkDateRange, checkFilter, checkIdOrName, checkMask, objectFilter } from './args';
import { LIMITS } from '../framework/failures';
import {
  ID,
  INTEGER,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
  type ArgsOf,
} from './define';
import {
  DATACENTER,
  DATE_RANGE,
  FILTER,
  GUEST_SUMMARY,
  HARDWARE_SERVER,
  IP_ADDRESS,
  TICKET,
} from './types';

/**
 * The account's lookups (a kind's own are registered with the kind, kinds/index.ts). Every one
 * checks its arguments first and rejects with a `ValidationError` naming each wrong one, before
 * any call.
 */

const mask = (what: string) =>
  prop(STRING, `An object mask choosing the properties of ${what} (the program's lookup only).`, {
    programOnly: true,
  });

export const byIdOrName = (what: string) => ({
  id: prop(ID, `The ${what}'s id; or give \`hostname\` and \`domain\`.`),
  hostname: prop(STRING, `The ${what}'s hostname, with \`domain\`.`),
  domain: prop(STRING, `The ${what}'s domain, with \`hostname\`.`),
});

const ACCOUNT = objectType<Account>({
  name: 'Account',
  description: 'The account.',
  properties: {
    id: prop(ID, "The account's id.", { required: true }),
    companyName: prop(STRING, 'Its company name.'),
    email: prop(STRING, 'Its email address.'),
    country: prop(STRING, 'Its country code.'),
  },
});

/** What a hardware server lookup reads unless given a mask. */
const HARDWARE_MASK =
  'id,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,primaryBackendIpAddress,' +
  'processorPhysicalCoreAmount,memoryCapacity,datacenter.name,hardwareStatus.status';

/** The one server named `hostname.domain`; an error naming the servers when not exactly one. */
async function serverByName(accounts: AccountManager, hostname: string, domain: string, m: string) {
  const found = await accounts.getHardware(m, {
    hardware: { hostname: { operation: hostname }, domain: { operation: domain } },
  });
  if (found.length === 1) return found[0];
  const name = `${hostname}.${domain}`;
  throw new SvcError(
    found.length === 0
      ? `getHardwareServer: the account has no hardware server ${name}`
      : `getHardwareServer: ${found.length} hardware servers are named ${name}: ${found.map((h) => h.id).join(', ')}; give the id of one`,
  );
}

export const ACCOUNT_LOOKUPS = defineLookups({
  getAccount: lookup({
    description: 'The account: its id, company name, email and country.',
    inputs: { mask: mask('the account') },
    result: ACCOUNT,
    example: {
      title: "The account's company name",
      name: 'account',
      args: {},
      exports: ['companyName'],
    },
    check: (a, failures) => checkMask(failures, a.mask),
    call: (client, { mask: m }) =>
      new AccountManager(client).getAccount(m ?? 'id,companyName,email,country'),
  }),
  getVirtualGuests: lookup({
    description: "The account's guests, all or those a filter keeps.",
    inputs: {
      filter: prop(
        FILTER,
        "Only the guests whose properties meet their conditions, by property path, e.g. `{ 'datacenter.name': { operation: 'dal10' } }`; a TypeScript program may pass the API's object filter instead (`{ virtualGuests: { ... } }`).",
      ),
      mask: mask('each guest'),
      limit: prop(INTEGER, `At most this many guests (1 to ${LIMITS.lookupLimit}).`),
    },
    result: listOf(GUEST_SUMMARY),
    example: {
      title: "The account's guests",
      name: 'guests',
      args: { limit: 100 },
      exports: ['items'],
    },
    check: (a, failures) => {
      checkFilter(failures, a.filter, 'virtualGuests');
      checkMask(failures, a.mask);
      failures.integer('limit', a.limit, { min: 1, max: LIMITS.lookupLimit });
    },
    call: async (client, { filter, mask: m, limit }) => [
      ...((await client.call('Account', 'getVirtualGuests', {
        mask: m ?? 'id,hostname,domain,fullyQualifiedDomainName,primaryIpAddress,datacenter.name',
        ...(filter ? { filter: objectFilter(filter, 'virtualGuests') } : {}),
        ...(limit ? { limit } : {}),
      })) as VirtualGuest[]),
    ],
  }),
  getTickets: lookup({
    description: "The account's tickets, all or those created in a range of dates.",
    inputs: { createdBetween: prop(DATE_RANGE, 'Only the tickets created in this range.') },
    result: listOf(TICKET),
    example: {
      title: 'The tickets opened in January 2026',
      name: 'tickets',
      args: { createdBetween: { start: '2026-01-01', end: '2026-01-31' } },
      exports: ['items'],
    },
    check: (a, failures) => checkDateRange(failures, a.createdBetween, 'createdBetween'),
    call: (client, { createdBetween: range }) =>
      new TicketManager(client).listTickets(
        range ? { createdBetween: { start: new Date(range.start), end: new Date(range.end) } } : {},
      ),
  }),
  getIpAddresses: lookup({
    description: "The account's IP addresses.",
    inputs: {},
    result: listOf(IP_ADDRESS),
    example: {
      title: "The account's IP addresses",
      name: 'addresses',
      args: {},
      exports: ['items'],
    },
    call: (client) => new AccountManager(client).getIpAddresses(),
  }),
  getDatacenters: lookup({
    description: 'The datacenters a guest can be ordered in.',
    inputs: {},
    result: listOf(DATACENTER),
    example: { title: 'Every datacenter', name: 'datacenters', args: {}, exports: ['items'] },
    call: (client) => new AccountManager(client).getDatacenters(),
  }),
  getHardwareServer: lookup({
    description:
      'One hardware server of the account, by id or by hostname and domain; an error naming the servers when the account has none, or several, of that name.',
    inputs: { ...byIdOrName('server'), mask: mask('the server') },
    result: HARDWARE_SERVER,
    example: {
      title: 'A server by its name',
      name: 'db',
      args: { hostname: 'db1', domain: 'example.com' },
      exports: ['primaryBackendIpAddress'],
    },
    check: (a, failures) => {
      checkIdOrName(failures, a, "a server's");
      checkMask(failures, a.mask);
    },
    call: (client, a): Promise<HardwareServer> => {
      const accounts = new AccountManager(client);
      const m = a.mask ?? HARDWARE_MASK;
      return a.id !== undefined
        ? accounts.getHardwareServer(Number(a.id), m)
        : serverByName(accounts, a.hostname!, a.domain!, m);
    },
  }),
  getHardwareServers: lookup({
    description: "The account's hardware servers, all or those a filter keeps.",
    inputs: {
      filter: prop(
        FILTER,
        "Only the servers whose properties meet their conditions, by property path, e.g. `{ 'datacenter.name': { operation: 'dal10' } }`; a TypeScript program may pass the API's object filter instead (`{ hardware: { ... } }`).",
      ),
      mask: mask('each server'),
    },
    result: listOf(HARDWARE_SERVER),
    example: {
      title: "The account's hardware servers",
      name: 'servers',
      args: {},
      exports: ['items'],
    },
    check: (a, failures) => {
      checkFilter(failures, a.filter, 'hardware');
      checkMask(failures, a.mask);
    },
    call: (client, { filter, mask: m }) =>
      new AccountManager(client).getHardware(
        m ?? HARDWARE_MASK,
        filter && objectFilter(filter, 'hardware'),
      ),
  }),
});

type ArgsOfLookup<N extends keyof typeof ACCOUNT_LOOKUPS> = ArgsOf<
  (typeof ACCOUNT_LOOKUPS)[N]['inputs']
>;
export type GetAccountArgs = ArgsOfLookup<'getAccount'>;
export type GetVirtualGuestsArgs = ArgsOfLookup<'getVirtualGuests'>;
export type GetTicketsArgs = ArgsOfLookup<'getTickets'>;
export type GetHardwareServerArgs = ArgsOfLookup<'getHardwareServer'>;
export type GetHardwareServersArgs = ArgsOfLookup<'getHardwareServers'>;

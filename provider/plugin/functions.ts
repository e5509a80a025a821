import type { Client } from '../client';
import type { Bag } from '../framework/fields';
import { KINDS, type KindSpec } from '../kinds/index';
import * as lookups from '../lookups';
import { ANY, BOOLEAN, INTEGER, LIST, STRING, type Lookup } from '../lookups/define';

/**
 * The lookups served as the plugin's functions (`svc:index:<name>`), with what the schema says of
 * their arguments and answers: the account's, listed here, and each kind's, registered with the
 * kind (kinds/index.ts). A function answers an object: a lookup that lists answers its list as
 * `items`. Shapes the API decides (masks choose the properties) are `Any`.
 */
interface FunctionSpec extends Omit<Lookup, 'call' | 'check'> {
  answer(client: Client, args: Bag): Promise<unknown>;
}

const listed = (list: Promise<unknown[]>) => list.then((items) => ({ items }));

/** A kind's lookup as a function: its answer, a list as `items`. */
const served = (lookup: Lookup): FunctionSpec => ({
  ...lookup,
  answer: async (client, args) => {
    const answer = await lookup.call(client, args as never);
    return Array.isArray(answer) ? { items: answer } : answer;
  },
});

const KIND_FUNCTIONS = Object.values(KINDS).flatMap((kind: KindSpec) =>
  Object.entries(kind.lookups ?? {}).map(([name, lookup]) => [name, served(lookup)] as const),
);

const ACCOUNT_FUNCTIONS: Record<string, FunctionSpec> = {
  getAccount: {
    description: 'The account (its company name, email and country unless `mask` says otherwise).',
    inputs: { mask: STRING },
    outputs: { id: INTEGER, companyName: STRING, email: STRING, country: STRING },
    answer: (client, args) => lookups.getAccount(client, args),
  },
  getVirtualGuest: {
    description: "One guest, by id or by hostname and domain, with a VirtualGuest's outputs.",
    inputs: { id: STRING, hostname: STRING, domain: STRING, mostRecent: BOOLEAN },
    outputs: { id: STRING, guestId: INTEGER, hostname: STRING, domain: STRING, details: ANY },
    answer: async (client, args) => {
      const guest = await lookups.getVirtualGuest(client, args);
      return { ...guest, details: guest };
    },
  },
  getVirtualGuests: {
    description: 'The account’s guests, all or those an object filter under `virtualGuests` keeps.',
    inputs: { filter: ANY, mask: STRING, limit: INTEGER },
    outputs: LIST,
    answer: (client, args) => listed(lookups.getVirtualGuests(client, args)),
  },
  getTickets: {
    description: 'The account’s tickets, all or those created in `createdBetween` ({start, end}).',
    inputs: { createdBetween: ANY },
    outputs: LIST,
    answer: (client, args) => listed(lookups.getTickets(client, args)),
  },
  getIpAddresses: {
    description: 'The account’s IP addresses.',
    inputs: {},
    outputs: LIST,
    answer: (client, args) => listed(lookups.getIpAddresses(client, args)),
  },
  getDatacenters: {
    description: 'The datacenters.',
    inputs: {},
    outputs: LIST,
    answer: (client, args) => listed(lookups.getDatacenters(client, args)),
  },
  getHardwareServer: {
    description: 'One hardware server, by id or by hostname and domain.',
    inputs: { id: STRING, hostname: STRING, domain: STRING, mask: STRING },
    outputs: { id: INTEGER, hostname: STRING, domain: STRING, details: ANY },
    answer: async (client, args) => {
      const server = await lookups.getHardwareServer(client, args);
      return { ...server, details: server };
    },
  },
  getHardwareServers: {
    description: 'The account’s hardware servers, all or those a filter under `hardware` keeps.',
    inputs: { filter: ANY, mask: STRING },
    outputs: LIST,
    answer: (client, args) => listed(lookups.getHardwareServers(client, args)),
  },
};

export const FUNCTIONS: Record<string, FunctionSpec> = {
  ...ACCOUNT_FUNCTIONS,
  ...Object.fromEntries(KIND_FUNCTIONS),
};

import { ACCOUNT_LOOKUPS } from '../../lookups/account';
import { defineLookups } from '../../lookups/define';

/**
 * `getBareMetalServer` and `getBareMetalServers`: the account's hardware lookups
 * (`getHardwareServer`, `getHardwareServers`, lookups/account.ts) under the kind's name, from
 * the same definition (arguments, checks, call and answer); only the words and the example differ.
 */
const { getHardwareServer: one, getHardwareServers: all } = ACCOUNT_LOOKUPS;

export const BARE_METAL_LOOKUPS = defineLookups({
  getBareMetalServer: {
    ...one,
    description: `${one.description} The same answer as \`getHardwareServer\`, for a \`BareMetalServer\`'s program.`,
    example: {
      title: 'A bare metal server by its name',
      name: 'db',
      args: { hostname: 'db1', domain: 'example.com' },
      exports: ['primaryIpAddress'],
    },
  },
  getBareMetalServers: {
    ...all,
    description: `${all.description} The same answer as \`getHardwareServers\`.`,
    example: {
      title: "The account's bare metal servers",
      name: 'servers',
      args: {},
      exports: ['items'],
    },
  },
});

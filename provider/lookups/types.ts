import type { Datacenter, HardwareServer, IpAddress, Ticket, VirtualGuest } from '../managers';
import {
  BOOLEAN,
  ID,
  INTEGER,
  STRING,
  listOf,
  mapOf,
  objectType,
  prop,
  type Property,
} from './define';

/**
 * The objects the lookups answer, typed as the API returns them with each lookup's default mask:
 * one declaration each, for the schema's types (each SDK's classes) and the plugin's answers.
 */

const objectId = (what: string) => prop(ID, `The ${what}'s id.`, { required: true });

export const DATACENTER = objectType<Datacenter>({
  name: 'Datacenter',
  description: 'A datacenter of the Svc cloud.',
  properties: {
    id: prop(ID, "The datacenter's id."),
    name: prop(STRING, "Its short name, e.g. `dal10`: what a guest's `datacenter` takes.", {
      required: true,
    }),
    longName: prop(STRING, 'Its long name, e.g. `Dallas 10`.'),
  },
});

const hostNames = (what: string): Record<string, Property> => ({
  hostname: prop(STRING, `The ${what}'s hostname.`),
  domain: prop(STRING, `The ${what}'s domain.`),
  fullyQualifiedDomainName: prop(STRING, '`hostname.domain`.'),
  primaryIpAddress: prop(STRING, 'Its public IP address, if it has one.'),
  datacenter: prop(DATACENTER, 'Where it runs.'),
});

export const GUEST_SUMMARY = objectType<VirtualGuest>({
  name: 'VirtualGuestSummary',
  description: 'A guest of the account, as `getVirtualGuests` lists it.',
  properties: { id: objectId('guest'), ...hostNames('guest') },
});

export const HARDWARE_SERVER = objectType<HardwareServer>({
  name: 'HardwareServer',
  description: 'A hardware (bare-metal) server of the account.',
  properties: {
    id: objectId('server'),
    ...hostNames('server'),
    primaryBackendIpAddress: prop(STRING, 'Its private (backend) IP address.'),
    processorPhysicalCoreAmount: prop(INTEGER, 'Its physical processor cores.'),
    memoryCapacity: prop(INTEGER, 'Its memory, in GB.'),
    hardwareStatus: prop(
      objectType({
        name: 'HardwareStatus',
        description: "A hardware server's status.",
        properties: { status: prop(STRING, 'e.g. `ACTIVE`.') },
      }),
      'Its status.',
    ),
  },
});

export const TICKET = objectType<Ticket>({
  name: 'Ticket',
  description: 'A support ticket of the account.',
  properties: {
    id: objectId('ticket'),
    title: prop(STRING, "The ticket's title."),
    createDate: prop(STRING, 'When it was opened (ISO 8601).'),
    status: prop(
      objectType({
        name: 'TicketStatus',
        description: "A ticket's status.",
        properties: { name: prop(STRING, 'e.g. `Open`, `Closed`.') },
      }),
      'Its status.',
    ),
  },
});

export const IP_ADDRESS = objectType<IpAddress>({
  name: 'IpAddress',
  description: 'An IP address of the account.',
  properties: {
    id: objectId('IP address'),
    ipAddress: prop(STRING, 'The address.', { required: true }),
    subnetId: prop(ID, 'The id of its subnet.'),
    note: prop(STRING, 'Its note.'),
    isReserved: prop(BOOLEAN, 'Whether the subnet reserves it (network, gateway, broadcast).'),
  },
});

/** What `getTickets` takes as `createdBetween`. */
export const DATE_RANGE = objectType<{ start: string | Date; end: string | Date }>({
  name: 'DateRange',
  description: 'A range of dates, both ends included.',
  properties: {
    start: prop(STRING, 'Its first date (ISO 8601; a program may pass a `Date`).', {
      required: true,
    }),
    end: prop(STRING, 'Its last date (ISO 8601), not before `start`.', { required: true }),
  },
});

const FILTER_OPTION = objectType<{ name: string; value: string[] }>({
  name: 'FilterOption',
  description:
    "An option of a filter's condition, as the API takes it (e.g. `date` and its value).",
  properties: {
    name: prop(STRING, "The option's name, e.g. `date`, `startDate`, `endDate`.", {
      required: true,
    }),
    value: prop(listOf(STRING), 'Its values.', { required: true }),
  },
});

const FILTER_CONDITION = objectType({
  name: 'FilterCondition',
  description:
    "The condition on one property of a lookup's `filter`, as the API's object filter writes it.",
  properties: {
    operation: prop(
      STRING,
      'A value the property equals (`dal10`), or an operator and its operand (`*= web`, `^= db`, `> 2`, `in`, `betweenDate`).',
    ),
    options: prop(
      listOf(FILTER_OPTION),
      "The operation's options (`in`'s values, `betweenDate`'s dates).",
    ),
  },
});

/**
 * A lookup's filter, a type every language writes: each key a property path of the objects
 * listed (`domain`, `datacenter.name`), each value its condition; the lookup turns it into the
 * API's object filter (lookups/args.ts). A TypeScript program may pass that object filter itself.
 */
export const FILTER = mapOf<Record<string, unknown>>(FILTER_CONDITION);

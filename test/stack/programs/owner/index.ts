import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, TicketUpdate, VirtualGuest, type VirtualGuestArgs } from 'pulumi-svc';

// Everything comes from stack config (project `owner`):
//   owner:guests   JSON list of guest names; "a/server" puts `server` under a component `a` of
//                  type owner:index:a (children of one name under parents of one type collide)
//   owner:guest    JSON object of VirtualGuest arguments over the base spec (null: left out)
//   owner:options  JSON object of resource options for every guest (replaceOnChanges, protect,
//                  retainOnDelete, deleteBeforeReplace)
//   owner:record   JSON object of DnsRecord arguments (a record named `record`)
//   owner:ticket   JSON object of TicketUpdate arguments (an update named `note`)
const config = new pulumi.Config();
const names = config.getObject<string[]>('guests') ?? ['server'];
const overrides = config.getObject<Record<string, unknown>>('guest') ?? {};
const options = config.getObject<pulumi.CustomResourceOptions>('options') ?? {};

class Group extends pulumi.ComponentResource {
  constructor(name: string) {
    super(`owner:index:${name}`, name, {});
  }
}
const groups = new Map<string, Group>();
const groupNamed = (name: string) => {
  if (!groups.has(name)) groups.set(name, new Group(name));
  return groups.get(name)!;
};

const guests = names.map((spec) => {
  const [group, name] = spec.includes('/') ? spec.split('/') : [undefined, spec];
  return new VirtualGuest(
    name,
    Object.fromEntries(
      Object.entries({
        domain: 'owner.example.com',
        // `datacenters` of the overrides takes its place: a guest gives one of the two.
        ...('datacenters' in overrides ? {} : { datacenter: 'dal10' }),
        startCpus: 1,
        maxMemory: 1024,
        operatingSystemReferenceCode: 'UBUNTU_LATEST',
        tags: ['owner'],
        ...overrides,
      }).filter(([, value]) => value !== null), // null leaves a base argument out (a flavor's size)
    ) as unknown as VirtualGuestArgs,
    { ...options, parent: group ? groupNamed(group) : undefined },
  );
});

const record = config.getObject<ConstructorParameters<typeof DnsRecord>[1]>('record');
if (record) new DnsRecord('record', record);
const ticket = config.getObject<ConstructorParameters<typeof TicketUpdate>[1]>('ticket');
if (ticket) new TicketUpdate('note', ticket);

export const ids = guests.map((g) => g.id);

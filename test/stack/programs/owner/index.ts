import * as pulumi from '@pulumi/pulumi';
import * as svc from 'pulumi-svc';
import type { VirtualGuestArgs } from 'pulumi-svc';

// Everything comes from stack config (project `owner`):
//   owner:guests    JSON list of guest names; "a/server" puts `server` under a component `a` of
//                   type owner:index:a (children of one name under parents of one type collide)
//   owner:guest     JSON object of VirtualGuest arguments over the base spec (null: left out)
//   owner:options   JSON object of resource options for every guest (replaceOnChanges, protect,
//                   retainOnDelete, deleteBeforeReplace)
//   owner:record    JSON object of DnsRecord arguments (a record named `record`)
//   owner:ticket    JSON object of TicketUpdate arguments (an update named `note`)
//   owner:resources JSON object of more resources by name: { kind, properties, options? }, `kind`
//                   a class of pulumi-svc (`Vlan`, `BlockVolume`, ...)
// In the guests' arguments and in the resources' properties, a string `${name.output}` is that
// output of the guest or resource `name`, as in a YAML program (the plugin door writes the same
// program as YAML: test/stack/front-door.ts).
const config = new pulumi.Config();
const names = config.getObject<string[]>('guests') ?? ['server'];
const overrides = config.getObject<Record<string, unknown>>('guest') ?? {};
const options = config.getObject<pulumi.CustomResourceOptions>('options') ?? {};
interface Declared {
  kind: string;
  properties: Record<string, unknown>;
  options?: pulumi.CustomResourceOptions;
}
const declared = config.getObject<Record<string, Declared>>('resources') ?? {};

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

type Made = Record<string, pulumi.Output<unknown>>;
/**
 * The guests by name (made first, in order), and the resources, each made on first use: a
 * resource a guest names is made before the guest.
 */
const made = new Map<string, Made>();
const REFERENCE = /^\$\{([\w-]+)\.(\w+)\}$/;
const resolve = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  const reference = typeof value === 'string' ? REFERENCE.exec(value) : null;
  return reference ? resource(reference[1])[reference[2]] : value;
};
type Constructor = new (
  name: string,
  args: unknown,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;
const classes = svc as unknown as Record<string, Constructor>;

function resource(name: string): Made {
  const known = made.get(name);
  if (known) return known;
  const spec = declared[name];
  if (!spec)
    throw new Error(
      `owner: a reference names ${name}: no resource of that name, nor a guest before`,
    );
  const created = new classes[spec.kind](name, resolve(spec.properties), spec.options);
  made.set(name, created as unknown as Made);
  return created as unknown as Made;
}

const guests = names.map((spec) => {
  const [group, name] = spec.includes('/') ? spec.split('/') : [undefined, spec];
  const guest = new svc.VirtualGuest(
    name,
    resolve(
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
      ),
    ) as VirtualGuestArgs,
    { ...options, parent: group ? groupNamed(group) : undefined },
  );
  made.set(name, guest as unknown as Made);
  return guest;
});
for (const name of Object.keys(declared)) resource(name);

const record = config.getObject<ConstructorParameters<typeof svc.DnsRecord>[1]>('record');
if (record) new svc.DnsRecord('record', record);
const ticket = config.getObject<ConstructorParameters<typeof svc.TicketUpdate>[1]>('ticket');
if (ticket) new svc.TicketUpdate('note', ticket);

export const ids = guests.map((g) => g.id);

import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, VirtualGuest, type VirtualGuestArgs } from 'pulumi-svc';

// `stacktest:count` guests g0..gN-1 from a base spec, with overrides from `stacktest:guest` (a
// JSON object of VirtualGuest arguments) and, with `stacktest:dns`, an A record each.
const config = new pulumi.Config();
const count = config.getNumber('count') ?? 1;
const overrides = config.getObject<Partial<VirtualGuestArgs>>('guest') ?? {};

const guests = Array.from({ length: count }, (_, i) => {
  const guest = new VirtualGuest(`g${i}`, {
    domain: 'fleet.example.com',
    datacenter: 'dal10',
    startCpus: 1,
    maxMemory: 1024,
    operatingSystemReferenceCode: 'UBUNTU_LATEST',
    tags: ['fleet'],
    ...overrides,
  });
  if (config.getBoolean('dns')) {
    new DnsRecord(`g${i}-a`, {
      zoneName: 'example.com',
      host: guest.hostname,
      type: 'A',
      data: guest.primaryIpAddress.apply((ip) => ip ?? ''),
    });
  }
  return guest;
});

export const ids = guests.map((g) => g.id);

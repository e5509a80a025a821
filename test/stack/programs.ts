import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, VirtualGuest, type VirtualGuestArgs } from '../../resources';

export interface FleetOptions {
  count: number;
  /** Overrides for every guest's arguments. */
  guest?: Partial<VirtualGuestArgs>;
  /** An A record in example.com for each guest. */
  dns?: boolean;
}

export const BASE_GUEST: VirtualGuestArgs = {
  domain: 'fleet.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  tags: ['fleet'],
};

/** `count` guests named g0..gN-1, optionally each with an A record. */
export function fleetProgram(options: FleetOptions) {
  return async () => {
    const guests = Array.from({ length: options.count }, (_, i) => {
      const guest = new VirtualGuest(`g${i}`, { ...BASE_GUEST, ...options.guest });
      if (options.dns) {
        new DnsRecord(`g${i}-a`, {
          zoneName: 'example.com',
          host: guest.hostname,
          type: 'A',
          data: guest.primaryIpAddress.apply((ip) => ip ?? ''),
        });
      }
      return guest;
    });
    return { ids: pulumi.all(guests.map((g) => g.id)) };
  };
}

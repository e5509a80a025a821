/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { dnsRecordProvider } from './dns-record';
import { dnsZoneProvider } from './dns-zone';
import { watchEngine } from './engine-watch';
import { redacting } from './redacting';
import { sshKeyProvider } from './ssh-key';
import { structSafe } from './struct-safe';
import { ticketUpdateProvider } from './ticket-update';
import { virtualGuestProvider } from './virtual-guest/provider';

export { configure } from './connection';

watchEngine();

/** Every kind, with the whole lifecycle (RuntimeProvider): each wrapper takes and gives one. */
export const providers = {
  VirtualGuest: redacting(structSafe(virtualGuestProvider)),
  DnsRecord: redacting(structSafe(dnsRecordProvider)),
  TicketUpdate: redacting(structSafe(ticketUpdateProvider)),
  SshKey: redacting(structSafe(sshKeyProvider)),
  DnsZone: redacting(structSafe(dnsZoneProvider)),
};

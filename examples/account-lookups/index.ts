import * as pulumi from '@pulumi/pulumi';
import {
  getAccount,
  getAccountOutput,
  getDatacenters,
  getDatacentersOutput,
  getDnsZone,
  getDnsZoneOutput,
  getHardwareServer,
  getHardwareServersOutput,
  getIpAddresses,
  getIpAddressesOutput,
  getTickets,
  getTicketsOutput,
  getVirtualGuest,
  getVirtualGuests,
  getVirtualGuestsOutput,
} from 'pulumi-svc';

// Every data-source helper, read-only: nothing is created, so `pulumi up` bills nothing.
// Each lookup has a Promise form (plain values, for program logic) and an Output form (for
// inputs and stack outputs). Stack config: account-lookups:domain (default example.com).
const domain = new pulumi.Config().get('domain') ?? 'example.com';

// Output forms: usable directly as stack outputs or resource inputs.
export const company = getAccountOutput().companyName;
export const datacenters = getDatacentersOutput().apply((all) => all.map((dc) => dc.name));
export const zoneRecords = getDnsZoneOutput({ name: domain }).apply(
  (zone) => zone.resourceRecords?.length ?? 0,
);
export const ipAddresses = getIpAddressesOutput().apply((ips) => ips.length);
export const openTickets = getTicketsOutput().apply((tickets) => tickets.length);
export const guestsInDomain = getVirtualGuestsOutput({
  filter: { virtualGuests: { domain: { operation: domain } } },
}).apply((guests) => guests.map((g) => g.fullyQualifiedDomainName));

// One guest by hostname and domain (or id), with the fields a VirtualGuest resource outputs; here
// the newest of the domain's guests, if it has any. getVirtualGuestOutput takes Inputs likewise.
export const newestGuest = getVirtualGuestsOutput({
  filter: { virtualGuests: { domain: { operation: domain } } },
  mask: 'id,hostname,domain',
}).apply(async (guests) => {
  if (guests.length === 0) return null;
  const { hostname } = guests[guests.length - 1];
  const guest = await getVirtualGuest({ hostname, domain, mostRecent: true });
  return { fqdn: guest.fullyQualifiedDomainName, status: guest.status, sshKeyIds: guest.sshKeyIds };
});

// The account's hardware servers, and one of them by name with its datacenter.
export const hardware = getHardwareServersOutput().apply((servers) =>
  servers.map((server) => `${server.hostname}.${server.domain}`),
);
export const firstServerDatacenter = getHardwareServersOutput({ mask: 'id,hostname,domain' }).apply(
  async (servers) => {
    if (servers.length === 0) return null;
    const { hostname, domain } = servers[0];
    const server = await getHardwareServer({ hostname: String(hostname), domain: String(domain) });
    return server.datacenter?.name ?? null;
  },
);

// Promise forms: plain values to compute with before declaring anything.
export const summary = (async () => {
  const [account, dcs, zone, ips, tickets, guests] = await Promise.all([
    getAccount(),
    getDatacenters(),
    getDnsZone({ name: domain }),
    getIpAddresses(),
    getTickets(),
    getVirtualGuests({ limit: 100 }),
  ]);
  return (
    `${account.companyName}: ${guests.length} guest(s), ${tickets.length} ticket(s), ` +
    `${ips.length} IP address(es), ${dcs.length} datacenter(s), zone ${zone.name}`
  );
})();

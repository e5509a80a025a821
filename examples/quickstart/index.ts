import * as pulumi from '@pulumi/pulumi';
import {
  DnsRecord,
  TicketUpdate,
  VirtualGuest,
  getAccountOutput,
  getDatacentersOutput,
  getDnsZoneOutput,
  getTicketsOutput,
} from 'pulumi-svc';

// Two hourly guests, an A record for the web server, an update on the account's first support
// ticket, and a few account lookups. Optional stack config: quickstart:domain,
// quickstart:datacenter, quickstart:webCpus, quickstart:workerHostname.
const config = new pulumi.Config();
const domain = config.get('domain') ?? 'example.com';
const datacenter = config.get('datacenter') ?? 'dal10';

const web = new VirtualGuest('web', {
  domain,
  datacenter,
  startCpus: config.getNumber('webCpus') ?? 1,
  maxMemory: 2048,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  hourlyBillingFlag: true,
  localDiskFlag: false,
  networkSpeed: 100,
  tags: ['quickstart', 'web'],
  notes: 'Managed by Pulumi (pulumi-svc quickstart)',
});

const worker = new VirtualGuest('worker', {
  hostname: config.get('workerHostname') ?? 'worker-1',
  domain,
  datacenter,
  startCpus: 2,
  maxMemory: 4096,
  operatingSystemReferenceCode: 'DEBIAN_12_64',
  hourlyBillingFlag: true,
  tags: ['quickstart', 'worker'],
});

const zone = getDnsZoneOutput({ name: domain });
new DnsRecord('web-a', {
  zoneId: zone.id,
  host: web.hostname,
  type: 'A',
  data: web.primaryIpAddress.apply((ip) => ip ?? ''),
  ttl: 300,
});

new TicketUpdate('deploy-note', {
  ticketId: getTicketsOutput().apply((all) => all[0].id),
  entry: pulumi.interpolate`Deployed ${web.fullyQualifiedDomainName} and ${worker.fullyQualifiedDomainName} with Pulumi.`,
});

export const company = getAccountOutput().companyName;
export const datacenters = getDatacentersOutput().apply((all) => all.map((dc) => dc.name));
export const webFqdn = web.fullyQualifiedDomainName;
export const webIp = web.primaryIpAddress;
export const workerFqdn = worker.fullyQualifiedDomainName;
export const hourlyCost = pulumi
  .all([web.estimatedHourlyCost, worker.estimatedHourlyCost])
  .apply((costs) => Math.round(costs.reduce((a, b) => a + b, 0) * 10_000) / 10_000);
export const zoneId = zone.id;

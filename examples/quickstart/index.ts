import * as pulumi from '@pulumi/pulumi';
import {
  DnsRecord,
  DnsZone,
  SshKey,
  TicketUpdate,
  VirtualGuest,
  getAccountOutput,
  getDatacentersOutput,
  getTicketsOutput,
} from 'pulumi-svc';

// An SSH key, a DNS zone of its own, two hourly guests in it that you can log in to with the key,
// an A record for the web server, an update on the account's first support ticket, and a few
// account lookups. Optional stack config: quickstart:sshPublicKey, quickstart:domain,
// quickstart:datacenter, quickstart:webCpus, quickstart:workerHostname.
const config = new pulumi.Config();
const domain = config.get('domain') ?? 'quickstart.example.com';
const datacenter = config.get('datacenter') ?? 'dal10';

// A throwaway demo key whose private half was discarded: set your own to log in, e.g.
// pulumi config set quickstart:sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"
const DEMO_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHjLDG8DLPAsAN/PLwWr6uCM4EVsUqURbY7xBYz0QDAk quickstart-demo';
const admin = new SshKey('admin', {
  label: 'quickstart-admin',
  publicKey: config.get('sshPublicKey') ?? DEMO_KEY,
});

const zone = new DnsZone('zone', {
  name: domain,
  records: [{ host: '@', type: 'TXT', data: 'managed by pulumi-svc quickstart' }],
});

const web = new VirtualGuest('web', {
  domain: zone.name,
  datacenter,
  startCpus: config.getNumber('webCpus') ?? 1,
  maxMemory: 2048,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  hourlyBillingFlag: true,
  localDiskFlag: false,
  networkSpeed: 100,
  sshKeyIds: [admin.keyId],
  userData: '#cloud-config\npackage_update: true\npackages: [nginx]\n',
  tags: ['quickstart', 'web'],
  notes: 'Managed by Pulumi (pulumi-svc quickstart)',
});

const worker = new VirtualGuest('worker', {
  hostname: config.get('workerHostname') ?? 'worker-1',
  domain: zone.name,
  datacenter,
  startCpus: 2,
  maxMemory: 4096,
  operatingSystemReferenceCode: 'DEBIAN_12_64',
  hourlyBillingFlag: true,
  sshKeyIds: [admin.keyId],
  tags: ['quickstart', 'worker'],
});

new DnsRecord('web-a', {
  zoneId: zone.zoneId,
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
export const zoneId = zone.zoneId;
export const sshKeyFingerprint = admin.fingerprint;
export const login = pulumi.interpolate`ssh root@${web.primaryIpAddress}`;

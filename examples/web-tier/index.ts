import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, VirtualGuest, getDnsZoneOutput } from 'pulumi-svc';

// N identical web guests behind round-robin A records. Stack config: web-tier:count (default 2),
// web-tier:domain (a zone the account has; default example.com), web-tier:datacenter,
// web-tier:cpus, web-tier:memory (MB).
const config = new pulumi.Config();
const count = config.getNumber('count') ?? 2;
const domain = config.get('domain') ?? 'example.com';
const zone = getDnsZoneOutput({ name: domain });

const servers = Array.from({ length: count }, (_, i) => {
  const server = new VirtualGuest(`web-${i}`, {
    hostname: `web-${i}`,
    domain,
    datacenter: config.get('datacenter') ?? 'dal10',
    startCpus: config.getNumber('cpus') ?? 1,
    maxMemory: config.getNumber('memory') ?? 2048,
    operatingSystemReferenceCode: 'UBUNTU_LATEST',
    tags: ['web-tier'],
  });
  new DnsRecord(`web-${i}-a`, {
    zoneId: zone.id,
    host: 'www',
    type: 'A',
    data: server.primaryIpAddress.apply((ip) => ip ?? ''),
    ttl: 300,
  });
  return server;
});

export const names = servers.map((s) => s.fullyQualifiedDomainName);
export const addresses = servers.map((s) => s.primaryIpAddress);
export const hourlyCost = pulumi
  .all(servers.map((s) => s.estimatedHourlyCost))
  .apply((costs) => Math.round(costs.reduce((a, b) => a + b, 0) * 10_000) / 10_000);

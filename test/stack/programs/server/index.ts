import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, DnsZone, SshKey, VirtualGuest, getVirtualGuestOutput } from 'pulumi-svc';

// A first real server: its SSH key, its own zone, the guest using both, an A record for it in the
// zone, and the guest looked up again by name. Config: stackserver:publicKey (required),
// stackserver:keyLabel, stackserver:userData, stackserver:forceDelete.
const config = new pulumi.Config();

const key = new SshKey('admin', {
  label: config.get('keyLabel') ?? 'admin',
  publicKey: config.require('publicKey'),
  notes: 'stack test',
});

const zone = new DnsZone('zone', {
  name: 'server.test',
  records: [{ host: '@', type: 'TXT', data: 'v=spf1 -all' }],
  forceDelete: config.getBoolean('forceDelete') ?? false,
});

const web = new VirtualGuest('web', {
  hostname: 'web',
  domain: zone.name,
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  // The string id of the resource works as well as keyId.
  sshKeyIds: [key.id],
  userData: config.get('userData') ?? '#cloud-config\r\npackages: [nginx]\r\n',
  tags: ['Server', ' Edge '],
});

new DnsRecord('web-a', {
  zoneId: zone.zoneId,
  host: web.hostname,
  type: 'A',
  data: web.primaryIpAddress.apply((ip) => ip ?? ''),
  ttl: 300,
});

const found = getVirtualGuestOutput({ hostname: web.hostname, domain: web.domain });

export const keyId = key.keyId;
export const fingerprint = key.fingerprint;
export const zoneId = zone.zoneId;
export const guestId = web.guestId;
export const tags = web.tags;
export const lookedUp = {
  id: found.id,
  fqdn: found.fullyQualifiedDomainName,
  sshKeyIds: found.sshKeyIds,
};

import * as pulumi from '@pulumi/pulumi';
import {
  BareMetalServer,
  BlockVolume,
  DedicatedHost,
  DnsRecord,
  DnsZone,
  FileVolume,
  ImageTemplate,
  PlacementGroup,
  SecurityGroup,
  SshKey,
  TicketUpdate,
  VirtualGuest,
  Vlan,
} from 'pulumi-svc';

// One resource of each kind, written as a user of the recorded version wrote them (the same as
// ../upgrade-yaml on the plugin). Stack config (project `upgrade`): `ticketId`, the ticket the
// note goes to; `tag` and `ttl`, what a later version's test changes in place (`tag`: the key's
// label, the guest's and the server's tags, and the name, description or notes of every other
// kind that has one; `ttl`: the records' TTL). Billed objects are hourly or cancelled at once, so
// a destroy leaves nothing behind.
const config = new pulumi.Config();
const tag = config.get('tag') ?? 'first';
const ttl = config.getNumber('ttl') ?? 900;

const key = new SshKey('key', {
  label: `upgrade-${tag}`,
  publicKey:
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDkGJrBLnk6jMOqK0dNOP1mvFK1yQbJYg3dJsIMnAxzL deploy',
});

const group = new SecurityGroup('group', {
  name: 'upgrade',
  description: `upgrade ${tag}`,
  rules: [{ direction: 'ingress', protocol: 'tcp', portRangeMin: 22, portRangeMax: 22 }],
});

const spread = new PlacementGroup('spread', { name: `upgrade-${tag}`, datacenter: 'dal10' });

const guest = new VirtualGuest('guest', {
  domain: 'upgrade.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  sshKeyIds: [key.keyId],
  tags: ['upgrade', tag],
  userData: '#cloud-config\n',
  securityGroupIds: [group.groupId],
  placementGroupId: spread.placementGroupId,
});

// Block and file storage of one size and tier, both authorized to the guest.
const volume = {
  datacenter: 'dal10',
  capacityGb: 20,
  tierIopsPerGb: 2,
  hourlyBilling: true,
  notes: `upgrade ${tag}`,
  authorizedGuestIds: [guest.guestId],
};
new BlockVolume('block', volume);
new FileVolume('file', volume);

new Vlan('vlan', {
  datacenter: 'dal10',
  networkSpace: 'PRIVATE',
  name: `upgrade-${tag}`,
  cancelImmediately: true,
});

new DedicatedHost('host', {
  name: `upgrade-${tag}`,
  domain: 'upgrade.example.com',
  datacenter: 'dal10',
  hourlyBilling: true,
});

new BareMetalServer('server', {
  hostname: 'upgrade',
  domain: 'upgrade.example.com',
  preset: 'S1270_32GB_1X1TBSATA_NORAID',
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
  tags: ['upgrade', tag],
});

new ImageTemplate('image', { guestId: guest.guestId, name: `upgrade-${tag}`, note: 'Recorded.' });

const zone = new DnsZone('zone', {
  name: 'upgrade.example.net',
  records: [{ host: 'www', type: 'A', data: '192.0.2.10', ttl }],
});

// `a`: the API's own spelling of the type, which every version takes.
const record = new DnsRecord('record', {
  zoneName: 'example.com',
  host: 'upgrade',
  type: 'a',
  data: '192.0.2.20',
  ttl,
});

new TicketUpdate('note', { ticketId: config.requireNumber('ticketId'), entry: 'Recorded.' });

export const guestId = guest.id;
export const zoneId = zone.zoneId;
export const recordId = record.recordId;

import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, DnsZone, ImageTemplate, SshKey, TicketUpdate, VirtualGuest } from 'pulumi-svc';

// One resource of each kind, written as a user of the recorded version wrote them (the same as
// ../upgrade-yaml on the plugin). Stack config (project `upgrade`): `ticketId`, the ticket the
// note goes to; `tag` and `ttl`, what a later version's test changes in place (the key's label,
// the guest's tags, the image template's name, the records' TTL).
const config = new pulumi.Config();
const tag = config.get('tag') ?? 'first';
const ttl = config.getNumber('ttl') ?? 900;

const key = new SshKey('key', {
  label: `upgrade-${tag}`,
  publicKey:
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDkGJrBLnk6jMOqK0dNOP1mvFK1yQbJYg3dJsIMnAxzL deploy',
});

const guest = new VirtualGuest('guest', {
  domain: 'upgrade.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  sshKeyIds: [key.keyId],
  tags: ['upgrade', tag],
  userData: '#cloud-config\n',
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

import * as pulumi from '@pulumi/pulumi';
import { DnsRecord, VirtualGuest } from 'pulumi-svc';

// Two guests and an A record for the first, on the dynamic classes: the stack that
// `pulumi-svc migrate` moves to the provider plugin (test/stack/migrate.test.ts rewrites this
// program in YAML there). The record is the guest's child, the second guest is protected and the
// first one's notes are a secret, so the move has a parent, a protect and a secret to keep.
const guest = (name: string, notes?: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions) =>
  new VirtualGuest(
    name,
    {
      domain: 'migrate.example.com',
      datacenter: 'dal10',
      startCpus: 1,
      maxMemory: 1024,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      tags: ['migrate'],
      notes,
    },
    opts,
  );

const web = guest('web', pulumi.secret('the web tier'));
const db = guest('db', undefined, { protect: true });

new DnsRecord(
  'web-a',
  {
    zoneName: 'example.com',
    host: web.hostname,
    type: 'A',
    data: web.primaryIpAddress.apply((ip) => ip ?? ''),
  },
  { parent: web },
);

export const ids = [web.id, db.id];

/**
 * Property: arbitrary JSON values (and NaN, Infinity, control characters, lone surrogates, huge
 * lists) in any input of any resource, or any argument of any lookup, never crash: `check`
 * returns failures (one per field, each naming its field) and never throws; a lookup rejects
 * with the project's ValidationError. Whatever the validators reject reaches no API call (the
 * emulator counts the calls it serves). The properties themselves: support/input-properties.ts;
 * every lookup, the account's and each kind's, is taken from the registry of kinds (kinds/index.ts).
 */
import { after, before, describe, it } from 'node:test';
import { DNS_RECORD_FIELDS } from '../../provider/kinds/dns-record/fields';
import { dnsRecordProvider } from '../../provider/kinds/dns-record/provider';
import { dnsZoneProvider } from '../../provider/kinds/dns-zone/provider';
import { DNS_ZONE_FIELDS } from '../../provider/kinds/dns-zone/fields';
import { DEDICATED_HOST_FIELDS } from '../../provider/kinds/dedicated-host/fields';
import { SECURITY_GROUP_FIELDS } from '../../provider/kinds/security-group/fields';
import { securityGroupProvider } from '../../provider/kinds/security-group/provider';
import { PLACEMENT_GROUP_FIELDS } from '../../provider/kinds/placement-group/fields';
import { placementGroupProvider } from '../../provider/kinds/placement-group/provider';
import { VLAN_FIELDS } from '../../provider/kinds/vlan/fields';
import { vlanProvider } from '../../provider/kinds/vlan/provider';
import { sshKeyProvider } from '../../provider/kinds/ssh-key/provider';
import { SSH_KEY_FIELDS } from '../../provider/kinds/ssh-key/fields';
import { TICKET_UPDATE_FIELDS } from '../../provider/kinds/ticket-update/fields';
import { checkTable } from '../../provider/framework/kind-provider';
import { IMAGE_TEMPLATE_FIELDS } from '../../provider/kinds/image-template/fields';
import { checkImageTemplateRules } from '../../provider/kinds/image-template/provider';
import { ticketUpdateProvider } from '../../provider/kinds/ticket-update/provider';
import { checkGuestRules } from '../../provider/kinds/virtual-guest/provider';
import { GUEST_FIELDS } from '../../provider/kinds/virtual-guest/fields';
import { virtualGuestProvider } from '../../provider/kinds/virtual-guest/provider';
import { KINDS, LOOKUPS } from '../../provider/kinds';
import { BLOCK_VOLUME_FIELDS } from '../../provider/kinds/volume/fields';
import { BARE_METAL_FIELDS } from '../../provider/kinds/bare-metal-server/fields';
import { checkVolumeRules } from '../../provider/kinds/volume/provider';
import { inProgram } from '../../resources/lookup-forms';
import {
  assertCheckProperty,
  assertLookupProperty,
  callsServed,
  tableFailures,
  type CheckFn,
  type ShapeFailures,
} from '../support/input-properties';
import { providerEnv, setProgramConfig, type Emulator } from '../support/provider-env';
import { KEY_VECTORS } from '../support/ssh-keys';

type Bag = Record<string, unknown>;

const guestBase: Bag = {
  resourceName: 'web',
  identity: 'proj/dev/web',
  hostname: 'web-1',
  domain: 'prop.example.com',
  startCpus: 1,
  maxMemory: 1024,
  hourlyBillingFlag: true,
  localDiskFlag: true,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
  networkSpeed: 100,
  privateNetworkOnly: false,
  tags: ['web'],
  notes: 'notes',
  userData: '#!/bin/sh',
  sshKeyIds: [1],
  waitForReady: true,
  readyTimeoutMinutes: 5,
  adoptId: '1',
};
const recordBase: Bag = {
  zoneId: 1,
  zoneName: 'example.com',
  host: 'www',
  type: 'A',
  data: '10.0.0.1',
  ttl: 900,
  mxPriority: 10,
};
const updateBase: Bag = { ticketId: 1, entry: 'Rolled out' };
const bareMetalBase: Bag = {
  resourceName: 'bm',
  identity: 'proj/dev/bm',
  hostname: 'bm1',
  domain: 'example.com',
  preset: 'S1270_32GB_1X1TBSATA_NORAID',
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  datacenter: 'dal10',
};

const volumeBase: Bag = {
  resourceName: 'data',
  identity: 'p/s/data',
  datacenter: 'dal10',
  capacityGb: 20,
  tierIopsPerGb: 2,
};
const dedicatedHostBase: Bag = {
  resourceName: 'host',
  identity: 'p/s/host',
  name: 'dh01',
  domain: 'example.com',
  datacenter: 'dal10',
};
const imageTemplateBase: Bag = {
  resourceName: 'base',
  identity: 'p/s/base',
  guestId: 1,
  name: 'web-base',
  datacenters: ['dal10'],
};
const sshKeyBase: Bag = { label: 'me', publicKey: KEY_VECTORS.ed25519.key, notes: 'laptop' };
const dnsZoneBase: Bag = {
  name: 'prop-zone.example',
  records: [{ host: 'www', type: 'A', data: '10.0.0.1', ttl: 900 }],
};

const securityGroupBase: Bag = {
  name: 'web',
  description: 'the web tier',
  rules: [
    {
      direction: 'ingress',
      protocol: 'tcp',
      portRangeMin: 22,
      portRangeMax: 22,
      remoteIp: '10.0.0.0/8',
    },
  ],
};

const placementGroupBase: Bag = { name: 'web-spread', datacenter: 'dal10', rule: 'SPREAD' };
const vlanBase: Bag = {
  resourceName: 'db',
  identity: 'p/s/db',
  datacenter: 'dal10',
  networkSpace: 'PRIVATE',
  name: 'db',
  notes: 'databases',
};

/** The failures the validators alone (no API) find: a non-empty list means no call may happen. */
const shapeFailures: Record<string, ShapeFailures> = {
  VirtualGuest: (bag) => {
    const { inputs, failures } = checkTable(GUEST_FIELDS, {}, bag);
    checkGuestRules({ inputs, olds: {}, failures });
    return failures.list;
  },
  DnsRecord: (bag) => checkTable(DNS_RECORD_FIELDS, {}, bag).failures.list,
  TicketUpdate: (bag) => checkTable(TICKET_UPDATE_FIELDS, {}, bag).failures.list,
  SshKey: tableFailures(SSH_KEY_FIELDS),
  BlockVolume: (bag) => {
    const { inputs, failures } = checkTable(BLOCK_VOLUME_FIELDS, {}, bag);
    checkVolumeRules({ inputs, olds: {}, failures });
    return failures.list;
  },
  ImageTemplate: (bag) => {
    const { inputs, failures } = checkTable(IMAGE_TEMPLATE_FIELDS, {}, bag);
    checkImageTemplateRules({ inputs, olds: {}, failures });
    return failures.list;
  },
  DnsZone: tableFailures(DNS_ZONE_FIELDS),
  BareMetalServer: tableFailures(BARE_METAL_FIELDS),
  SecurityGroup: tableFailures(SECURITY_GROUP_FIELDS),
  PlacementGroup: tableFailures(PLACEMENT_GROUP_FIELDS),
  Vlan: tableFailures(VLAN_FIELDS),
  DedicatedHost: tableFailures(DEDICATED_HOST_FIELDS),
};

describe('property: arbitrary inputs and arguments', () => {
  let emulator: Emulator;
  const calls = () => callsServed(emulator)();
  before(async () => {
    ({ emulator } = await providerEnv(0));
    setProgramConfig(emulator);
  });
  after(() => emulator?.close());

  const resources: [string, CheckFn, Bag][] = [
    ['VirtualGuest', virtualGuestProvider.check, guestBase],
    ['DnsRecord', dnsRecordProvider.check, recordBase],
    ['TicketUpdate', ticketUpdateProvider.check, updateBase],
    ['SshKey', sshKeyProvider.check, sshKeyBase],
    ['BlockVolume', KINDS.BlockVolume.provider.check, volumeBase],
    ['ImageTemplate', KINDS.ImageTemplate.provider.check, imageTemplateBase],
    ['DnsZone', dnsZoneProvider.check, dnsZoneBase],
    ['BareMetalServer', KINDS.BareMetalServer.provider.check, bareMetalBase],
    ['SecurityGroup', securityGroupProvider.check, securityGroupBase],
    ['PlacementGroup', placementGroupProvider.check, placementGroupBase],
    ['Vlan', vlanProvider.check, vlanBase],
    ['DedicatedHost', KINDS.DedicatedHost.provider.check, dedicatedHostBase],
  ];
  for (const [kind, check, base] of resources) {
    it(`${kind} check: failures, never an exception; invalid inputs reach no API call`, () =>
      assertCheckProperty(check, base, shapeFailures[kind], calls));
  }

  // Every lookup of the registry, the account's and each kind's.
  const lookups = Object.entries(LOOKUPS).map(
    ([name, lookup]) => [name, inProgram(lookup.call), Object.keys(lookup.inputs)] as const,
  );
  for (const [name, lookup, argNames] of lookups) {
    it(`${name}: ValidationError before any call, or the server's answer to well-formed arguments`, () =>
      assertLookupProperty(name, lookup, argNames, calls));
  }
});

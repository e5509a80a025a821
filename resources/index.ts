/**
 * What programs import: one resource class per kind of the registry (provider/kinds/index.ts),
 * built from its field table by `resourceClass`, with its `Args` and instance types, and the
 * lookups. A kind's class is a block here: its const, annotated `ResourceClass<typeof TABLE>` so
 * the .d.ts keeps every field's doc for the IDE, its two types, and the Promise and Output forms
 * of the lookups registered with the kind (lookup-forms.ts). VirtualGuest has a file of its own:
 * its class adds inputs the program does not set (virtual-guest.ts).
 */
import type { ArgsOf } from '../provider/framework/fields';
import { BARE_METAL_FIELDS } from '../provider/kinds/bare-metal-server/fields';
import { BARE_METAL_LOOKUPS } from '../provider/kinds/bare-metal-server/lookups';
import { DEDICATED_HOST_FIELDS } from '../provider/kinds/dedicated-host/fields';
import { DEDICATED_HOST_LOOKUPS } from '../provider/kinds/dedicated-host/lookups';
import { DNS_RECORD_FIELDS } from '../provider/kinds/dns-record/fields';
import { DNS_ZONE_FIELDS } from '../provider/kinds/dns-zone/fields';
import { DNS_ZONE_LOOKUPS } from '../provider/kinds/dns-zone/lookups';
import { SECURITY_GROUP_FIELDS } from '../provider/kinds/security-group/fields';
import { SECURITY_GROUP_LOOKUPS } from '../provider/kinds/security-group/lookups';
import { PLACEMENT_GROUP_FIELDS } from '../provider/kinds/placement-group/fields';
import { PLACEMENT_GROUP_LOOKUPS } from '../provider/kinds/placement-group/lookups';
import { VLAN_FIELDS } from '../provider/kinds/vlan/fields';
import { VLAN_LOOKUPS } from '../provider/kinds/vlan/lookups';
import { SSH_KEY_FIELDS } from '../provider/kinds/ssh-key/fields';
import { TICKET_UPDATE_FIELDS } from '../provider/kinds/ticket-update/fields';
import { BLOCK_VOLUME_FIELDS, FILE_VOLUME_FIELDS } from '../provider/kinds/volume/fields';
import { IMAGE_TEMPLATE_FIELDS } from '../provider/kinds/image-template/fields';
import { IMAGE_TEMPLATE_LOOKUPS } from '../provider/kinds/image-template/lookups';
import { programForms } from './lookup-forms';
import { resourceClass, type ResourceClass } from './resource-class';

export * from './virtual-guest';
export * from './lookups';
export { ValidationError } from '../provider/framework/failures';

/** A resource record in a DNS zone (`Svc_Dns_Domain_ResourceRecord`). */
export const DnsRecord: ResourceClass<typeof DNS_RECORD_FIELDS> = resourceClass(
  'DnsRecord',
  DNS_RECORD_FIELDS,
);
export type DnsRecord = InstanceType<typeof DnsRecord>;
/** The arguments of a DnsRecord: see its field table (provider/kinds/dns-record/fields.ts). */
export type DnsRecordArgs = ArgsOf<typeof DNS_RECORD_FIELDS>;

/**
 * A DNS zone (`Svc_Dns_Domain`). Add records with `records` or with
 * `new DnsRecord(..., { zoneId: zone.zoneId, ... })`.
 */
export const DnsZone: ResourceClass<typeof DNS_ZONE_FIELDS> = resourceClass(
  'DnsZone',
  DNS_ZONE_FIELDS,
);
export type DnsZone = InstanceType<typeof DnsZone>;
/** The arguments of a DnsZone: see its field table (provider/kinds/dns-zone/fields.ts). */
export type DnsZoneArgs = ArgsOf<typeof DNS_ZONE_FIELDS>;
export type { DnsZoneRecordArgs, DnsZoneRecordOutput } from '../provider/kinds/dns-zone/fields';
export type { GetDnsZoneArgs } from '../provider/kinds/dns-zone/lookups';
export const { getDnsZone, getDnsZoneOutput } = programForms(DNS_ZONE_LOOKUPS);

/**
 * An SSH public key on the account (`Svc_Security_Ssh_Key`), to install on guests:
 * `new VirtualGuest('web', { ..., sshKeyIds: [key.keyId] })`.
 */
export const SshKey: ResourceClass<typeof SSH_KEY_FIELDS> = resourceClass('SshKey', SSH_KEY_FIELDS);
export type SshKey = InstanceType<typeof SshKey>;
/** The arguments of an SshKey: see its field table (provider/kinds/ssh-key/fields.ts). */
export type SshKeyArgs = ArgsOf<typeof SSH_KEY_FIELDS>;

/**
 * A security group (`Svc_Network_SecurityGroup`) with its rules inline: the API keeps a group's
 * rules as one list that it edits in place, and a rule has no life outside its group, so `rules`
 * is that whole list. A rule added or removed outside Pulumi is drift that `refresh` shows and
 * `up` repairs. A group still bound to a guest is not deleted: take it off the guest first.
 */
export const SecurityGroup: ResourceClass<typeof SECURITY_GROUP_FIELDS> = resourceClass(
  'SecurityGroup',
  SECURITY_GROUP_FIELDS,
);
export type SecurityGroup = InstanceType<typeof SecurityGroup>;
/** The arguments of a SecurityGroup: see its field table (provider/kinds/security-group/fields.ts). */
export type SecurityGroupArgs = ArgsOf<typeof SECURITY_GROUP_FIELDS>;
export type { SecurityGroupRuleArgs } from '../provider/kinds/security-group/fields';
export type { VolumeSnapshotScheduleArgs } from '../provider/kinds/volume/fields';
export type { SecurityGroupResult } from '../provider/kinds/security-group/lookups';
export const { getSecurityGroups, getSecurityGroupsOutput } = programForms(SECURITY_GROUP_LOOKUPS);

/**
 * A placement group (`Svc_Virtual_PlacementGroup`): guests kept apart by a rule (SPREAD), behind
 * one backend router of a datacenter. Not billed; deleted only once no guest is in it.
 */
export const PlacementGroup: ResourceClass<typeof PLACEMENT_GROUP_FIELDS> = resourceClass(
  'PlacementGroup',
  PLACEMENT_GROUP_FIELDS,
);
export type PlacementGroup = InstanceType<typeof PlacementGroup>;
/** The arguments of a PlacementGroup: see its field table (provider/kinds/placement-group/fields.ts). */
export type PlacementGroupArgs = ArgsOf<typeof PLACEMENT_GROUP_FIELDS>;
export type { PlacementGroupResult } from '../provider/kinds/placement-group/lookups';
export const { getPlacementGroups, getPlacementGroupsOutput } =
  programForms(PLACEMENT_GROUP_LOOKUPS);

/**
 * A VLAN (`Svc_Network_Vlan`) ordered from the VLAN package: billed by the month, cancelled
 * through its billing item at its anniversary unless `cancelImmediately`.
 */
export const Vlan: ResourceClass<typeof VLAN_FIELDS> = resourceClass('Vlan', VLAN_FIELDS);
export type Vlan = InstanceType<typeof Vlan>;
/** The arguments of a Vlan: see its field table (provider/kinds/vlan/fields.ts). */
export type VlanArgs = ArgsOf<typeof VLAN_FIELDS>;
export type { VlanResult } from '../provider/kinds/vlan/lookups';
export const { getVlans, getVlansOutput } = programForms(VLAN_LOOKUPS);

/** An update posted to a support ticket (`Ticket.addUpdate`). Destroying it only forgets it. */
export const TicketUpdate: ResourceClass<typeof TICKET_UPDATE_FIELDS> = resourceClass(
  'TicketUpdate',
  TICKET_UPDATE_FIELDS,
);
export type TicketUpdate = InstanceType<typeof TicketUpdate>;
/** The arguments of a TicketUpdate: see its field table (provider/kinds/ticket-update/fields.ts). */
export type TicketUpdateArgs = ArgsOf<typeof TICKET_UPDATE_FIELDS>;

/** A block (iSCSI) volume of the storage service (`Svc_Network_Storage`), billed. */
export const BlockVolume: ResourceClass<typeof BLOCK_VOLUME_FIELDS> = resourceClass(
  'BlockVolume',
  BLOCK_VOLUME_FIELDS,
);
export type BlockVolume = InstanceType<typeof BlockVolume>;
/** The arguments of a BlockVolume: see its field table (provider/kinds/volume/fields.ts). */
export type BlockVolumeArgs = ArgsOf<typeof BLOCK_VOLUME_FIELDS>;

/** A file (NFS) volume of the storage service (`Svc_Network_Storage`), billed. */
export const FileVolume: ResourceClass<typeof FILE_VOLUME_FIELDS> = resourceClass(
  'FileVolume',
  FILE_VOLUME_FIELDS,
);
export type FileVolume = InstanceType<typeof FileVolume>;
/** The arguments of a FileVolume: see its field table (provider/kinds/volume/fields.ts). */
export type FileVolumeArgs = ArgsOf<typeof FILE_VOLUME_FIELDS>;

/** A bare metal server of the bare-metal package (`Svc_Hardware_Server`), billed. */
export const BareMetalServer: ResourceClass<typeof BARE_METAL_FIELDS> = resourceClass(
  'BareMetalServer',
  BARE_METAL_FIELDS,
);
export type BareMetalServer = InstanceType<typeof BareMetalServer>;
/** The arguments of a BareMetalServer: see its field table (provider/kinds/bare-metal-server/fields.ts). */
export type BareMetalServerArgs = ArgsOf<typeof BARE_METAL_FIELDS>;
export const {
  getBareMetalServer,
  getBareMetalServerOutput,
  getBareMetalServers,
  getBareMetalServersOutput,
} = programForms(BARE_METAL_LOOKUPS);

/**
 * An image template captured from a guest (`Svc_Virtual_Guest_Block_Device_Template_Group`):
 * guests are made from it by its `globalIdentifier`.
 */
export const ImageTemplate: ResourceClass<typeof IMAGE_TEMPLATE_FIELDS> = resourceClass(
  'ImageTemplate',
  IMAGE_TEMPLATE_FIELDS,
);
export type ImageTemplate = InstanceType<typeof ImageTemplate>;
/** The arguments of an ImageTemplate: see its field table (provider/kinds/image-template/fields.ts). */
export type ImageTemplateArgs = ArgsOf<typeof IMAGE_TEMPLATE_FIELDS>;
export const { getImageTemplates, getImageTemplatesOutput } = programForms(IMAGE_TEMPLATE_LOOKUPS);

/**
 * A dedicated host (`Svc_Virtual_DedicatedHost`): a physical host of the account's own, billed
 * hourly or monthly; guests are placed on it by its `hostId`. Deleting it cancels it, and is
 * refused while guests are on it.
 */
export const DedicatedHost: ResourceClass<typeof DEDICATED_HOST_FIELDS> = resourceClass(
  'DedicatedHost',
  DEDICATED_HOST_FIELDS,
);
export type DedicatedHost = InstanceType<typeof DedicatedHost>;
/** The arguments of a DedicatedHost: see its field table (provider/kinds/dedicated-host/fields.ts). */
export type DedicatedHostArgs = ArgsOf<typeof DEDICATED_HOST_FIELDS>;
export type { DedicatedHostResult } from '../provider/kinds/dedicated-host/lookups';
export const { getDedicatedHosts, getDedicatedHostsOutput } = programForms(DEDICATED_HOST_LOOKUPS);

/**
 * The one list of resource kinds. Each is registered once: its field table (inputs, outputs,
 * checks, defaults, what a change does, where each field is read back) and its provider (the
 * operations), its lookups and its capabilities. Every front door is served from here: the dynamic resource
 * classes' runtime (provider/dynamic/runtime.ts), the provider plugin, its functions and its
 * schema (provider/plugin/), the README's reference tables.
 */
import { DEDICATED_HOST_ADOPTION, DEDICATED_HOST_BILLING } from './dedicated-host';
import { DEDICATED_HOST_DOCS } from './dedicated-host/docs';
import { DEDICATED_HOST_FIELDS } from './dedicated-host/fields';
import { DEDICATED_HOST_LOOKUPS } from './dedicated-host/lookups';
import { dedicatedHostProvider } from './dedicated-host/provider';
import { DNS_RECORD_FIELDS } from './dns-record/fields';
import { dnsRecordProvider } from './dns-record/provider';
import { DNS_ZONE_FIELDS } from './dns-zone/fields';
import { DNS_ZONE_LOOKUPS } from './dns-zone/lookups';
import { dnsZoneProvider } from './dns-zone/provider';
import type { KindCapabilities } from '../framework/capabilities';
import type { Fields } from '../framework/fields';
import { ACCOUNT_LOOKUPS } from '../lookups/account';
import type { KindDocs, Lookup } from '../lookups/define';
import { DNS_RECORD_DOCS } from './dns-record/docs';
import { DNS_ZONE_DOCS } from './dns-zone/docs';
import { SECURITY_GROUP_DOCS } from './security-group/docs';
import { SECURITY_GROUP_FIELDS } from './security-group/fields';
import { SECURITY_GROUP_LOOKUPS } from './security-group/lookups';
import { securityGroupProvider } from './security-group/provider';
import { PLACEMENT_GROUP_DOCS } from './placement-group/docs';
import { PLACEMENT_GROUP_FIELDS } from './placement-group/fields';
import { PLACEMENT_GROUP_LOOKUPS } from './placement-group/lookups';
import { placementGroupProvider } from './placement-group/provider';
import { PLACEMENT_GROUP_ADOPTION } from './placement-group/faces';
import { VLAN_DOCS } from './vlan/docs';
import { VLAN_FIELDS } from './vlan/fields';
import { VLAN_LOOKUPS } from './vlan/lookups';
import { vlanProvider } from './vlan/provider';
import { VLAN_ADOPTION, VLAN_BILLING } from './vlan';
import { SSH_KEY_DOCS } from './ssh-key/docs';
import { TICKET_UPDATE_DOCS } from './ticket-update/docs';
import { GUEST_DOCS } from './virtual-guest/docs';
import { redacting } from '../framework/redacting';
import type { RuntimeProvider } from '../framework/runtime-provider';
import { structSafe } from '../framework/struct-safe';
import { SSH_KEY_FIELDS } from './ssh-key/fields';
import { sshKeyProvider } from './ssh-key/provider';
import { TICKET_UPDATE_FIELDS } from './ticket-update/fields';
import { ticketUpdateProvider } from './ticket-update/provider';
import { GUEST_CAPABILITIES } from './virtual-guest/cancel';
import { GUEST_ADOPTION, GUEST_BILLING } from './virtual-guest';
import type { AdoptionFace, BillingFace } from './faces';
import { RECORD_ADOPTION } from './dns-record/faces';
import { ZONE_ADOPTION } from './dns-zone/faces';
import { SECURITY_GROUP_ADOPTION } from './security-group/faces';
import { SSH_KEY_ADOPTION } from './ssh-key/faces';
import { GUEST_FIELDS } from './virtual-guest/fields';
import { VIRTUAL_GUEST_LOOKUPS } from './virtual-guest/lookups';
import { virtualGuestProvider } from './virtual-guest/provider';
import { kindOf, pluginToken } from './tokens';
import { BLOCK_VOLUME_DOCS, FILE_VOLUME_DOCS } from './volume/docs';
import { BLOCK_VOLUME_FIELDS, FILE_VOLUME_FIELDS } from './volume/fields';
import { volumeProvider } from './volume/provider';
import { volumeAdoption, volumeBilling } from './volume/faces';
import { BARE_METAL_CAPABILITIES } from './bare-metal-server/cancel';
import { BARE_METAL_DOCS } from './bare-metal-server/docs';
import { BARE_METAL_FIELDS } from './bare-metal-server/fields';
import { BARE_METAL_LOOKUPS } from './bare-metal-server/lookups';
import { bareMetalServerProvider } from './bare-metal-server/provider';
import { BARE_METAL_ADOPTION, BARE_METAL_BILLING } from './bare-metal-server';
import { IMAGE_TEMPLATE_DOCS } from './image-template/docs';
import { IMAGE_TEMPLATE_ADOPTION } from './image-template/faces';
import { IMAGE_TEMPLATE_FIELDS } from './image-template/fields';
import { IMAGE_TEMPLATE_LOOKUPS } from './image-template/lookups';
import { imageTemplateProvider } from './image-template/provider';

/** A kind: its table and operations, and what it does beyond the lifecycle (capabilities.ts). */
export interface KindSpec extends KindCapabilities {
  fields: Fields;
  provider: RuntimeProvider;
  /** Its lookups by name (lookups/define.ts), served as the plugin's functions. */
  lookups?: Readonly<Record<string, Lookup>>;
  /** Its example and import id, for the schema and the reference docs. */
  docs: KindDocs;
  /** A billed kind: how the billing report, the audit and the budget pack price and read it. */
  billing?: BillingFace;
  /** An adoptable kind: how the audit finds its objects no stack owns, for `pulumi import`. */
  adoption?: AdoptionFace;
}

export const KINDS = {
  VirtualGuest: {
    fields: GUEST_FIELDS,
    provider: virtualGuestProvider,
    lookups: VIRTUAL_GUEST_LOOKUPS,
    docs: GUEST_DOCS,
    billing: GUEST_BILLING,
    adoption: GUEST_ADOPTION,
    ...GUEST_CAPABILITIES,
  },
  DnsRecord: {
    fields: DNS_RECORD_FIELDS,
    provider: dnsRecordProvider,
    docs: DNS_RECORD_DOCS,
    adoption: RECORD_ADOPTION,
  },
  DnsZone: {
    fields: DNS_ZONE_FIELDS,
    provider: dnsZoneProvider,
    lookups: DNS_ZONE_LOOKUPS,
    docs: DNS_ZONE_DOCS,
    adoption: ZONE_ADOPTION,
  },
  SshKey: {
    fields: SSH_KEY_FIELDS,
    provider: sshKeyProvider,
    docs: SSH_KEY_DOCS,
    adoption: SSH_KEY_ADOPTION,
  },
  SecurityGroup: {
    fields: SECURITY_GROUP_FIELDS,
    provider: securityGroupProvider,
    lookups: SECURITY_GROUP_LOOKUPS,
    docs: SECURITY_GROUP_DOCS,
    adoption: SECURITY_GROUP_ADOPTION,
  },
  PlacementGroup: {
    fields: PLACEMENT_GROUP_FIELDS,
    provider: placementGroupProvider,
    lookups: PLACEMENT_GROUP_LOOKUPS,
    docs: PLACEMENT_GROUP_DOCS,
    adoption: PLACEMENT_GROUP_ADOPTION,
  },
  Vlan: {
    fields: VLAN_FIELDS,
    provider: vlanProvider,
    lookups: VLAN_LOOKUPS,
    docs: VLAN_DOCS,
    billing: VLAN_BILLING,
    adoption: VLAN_ADOPTION,
  },
  TicketUpdate: {
    fields: TICKET_UPDATE_FIELDS,
    provider: ticketUpdateProvider,
    docs: TICKET_UPDATE_DOCS,
  },
  BlockVolume: {
    fields: BLOCK_VOLUME_FIELDS,
    provider: volumeProvider('block'),
    docs: BLOCK_VOLUME_DOCS,
    billing: volumeBilling('block'),
    adoption: volumeAdoption('block'),
  },
  FileVolume: {
    fields: FILE_VOLUME_FIELDS,
    provider: volumeProvider('file'),
    docs: FILE_VOLUME_DOCS,
    billing: volumeBilling('file'),
    adoption: volumeAdoption('file'),
  },
  BareMetalServer: {
    fields: BARE_METAL_FIELDS,
    provider: bareMetalServerProvider,
    lookups: BARE_METAL_LOOKUPS,
    docs: BARE_METAL_DOCS,
    billing: BARE_METAL_BILLING,
    adoption: BARE_METAL_ADOPTION,
    ...BARE_METAL_CAPABILITIES,
  },
  ImageTemplate: {
    fields: IMAGE_TEMPLATE_FIELDS,
    provider: imageTemplateProvider,
    lookups: IMAGE_TEMPLATE_LOOKUPS,
    docs: IMAGE_TEMPLATE_DOCS,
    adoption: IMAGE_TEMPLATE_ADOPTION,
  },
  DedicatedHost: {
    fields: DEDICATED_HOST_FIELDS,
    provider: dedicatedHostProvider,
    lookups: DEDICATED_HOST_LOOKUPS,
    docs: DEDICATED_HOST_DOCS,
    billing: DEDICATED_HOST_BILLING,
    adoption: DEDICATED_HOST_ADOPTION,
  },
} satisfies Record<string, KindSpec>;

export type ResourceKind = keyof typeof KINDS;

/** A kind's spec with its optional capabilities typed (the registry's literal type drops them). */
export const kindSpec = (kind: ResourceKind): KindSpec => KINDS[kind];

/** Every kind's provider as the front doors serve it: credentials redacted, answers encodable. */
export const PROVIDERS = Object.fromEntries(
  Object.entries(KINDS).map(([kind, spec]) => [kind, redacting(structSafe(spec.provider))]),
) as Record<ResourceKind, RuntimeProvider>;

/** Every lookup by name: the account's and each kind's, one list for every door. */
export const LOOKUPS: Readonly<Record<string, Lookup>> = {
  ...ACCOUNT_LOOKUPS,
  ...Object.assign({}, ...Object.values(KINDS).map((kind: KindSpec) => kind.lookups ?? {})),
};

export { PACKAGE, pluginToken } from './tokens';

/** The kind of a plugin type token, if it is one of ours. */
export function kindOfToken(token: string): ResourceKind | undefined {
  const kind = token.startsWith(pluginToken('')) ? kindOf(token) : undefined;
  return kind !== undefined && kind in KINDS ? (kind as ResourceKind) : undefined;
}

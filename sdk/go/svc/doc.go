// Svc cloud infrastructure with Pulumi, over the Svc XML-RPC API: VirtualGuest, DnsRecord, DnsZone, SshKey, SecurityGroup, PlacementGroup, Vlan, TicketUpdate, BlockVolume, FileVolume, BareMetalServer, ImageTemplate, DedicatedHost resources, and lookups of the account's guests, servers, zones, keys, tickets and datacenters.
package svc

// Svc infrastructure (virtual guests, SSH keys, DNS, ticket updates) for Pulumi.
package svc

// A monthly guest with an SSH key, secret user data and tags, on the provider plugin through its
// TypeScript SDK (`@pulumi-svc/svc`), read back by the typed getVirtualGuest lookup.
import * as pulumi from '@pulumi/pulumi';
import * as svc from '@pulumi-svc/svc';

const config = new pulumi.Config();

const admin = new svc.SshKey('admin', { label: 'admin', publicKey: config.require('publicKey') });

const web = new svc.VirtualGuest('web', {
  hostname: 'web',
  domain: 'example.com',
  datacenter: 'dal10',
  startCpus: 2,
  maxMemory: 2048,
  // Monthly: billed by the month from the order, to its anniversary.
  hourlyBillingFlag: false,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  sshKeyIds: [admin.keyId],
  tags: ['kinds', config.get('tag') ?? 'typescript-sdk'],
  userData: pulumi.secret('#!/bin/sh\necho hello\n'),
  // A new image or key reinstalls this guest: no second order.
  onImageChange: svc.ImageChange.Reload,
});

const found = svc.getVirtualGuestOutput({ id: web.guestId });

export const guestId = web.guestId;
export const keyId = admin.keyId;
export const userData = web.userData;
export const onImageChange = web.onImageChange;
export const foundId = found.id;
export const foundHostname = found.hostname;
export const foundCpus = found.startCpus;
export const foundHourly = found.hourlyBillingFlag;
export const foundKeyIds = found.sshKeyIds;
export const foundTags = found.tags;
export const foundMonthlyCost = found.estimatedMonthlyCost;

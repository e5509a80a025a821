/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * The default object masks of the reference Python client's managers (softlayer-python 6.2.9,
 * `SoftLayer/managers/*.py`), as that client sends them (type names in
 * this project's spelling), each sent to the emulator: every one is answered, with the modeled
 * properties filled in.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';

const MASKS = {
  /** VSManager.list_instances */
  listInstances:
    'mask[id,globalIdentifier,hostname,domain,fullyQualifiedDomainName,primaryBackendIpAddress,' +
    'primaryIpAddress,lastKnownPowerState.name,powerState,maxCpu,maxMemory,datacenter,' +
    'activeTransaction.transactionStatus[friendlyName,name],status]',
  /** VSManager.get_instance (multi-line, as the client sends it) */
  getInstance: `id,globalIdentifier,fullyQualifiedDomainName,hostname,domain,createDate,modifyDate,provisionDate,notes,dedicatedAccountHostOnlyFlag,transientGuestFlag,privateNetworkOnlyFlag,primaryBackendIpAddress,primaryIpAddress,networkComponents[id, status, speed, maxSpeed, name,
                                     macAddress, primaryIpAddress, port,
                                     primarySubnet[addressSpace],
                                     securityGroupBindings[
                                        securityGroup[id, name]]],lastKnownPowerState.name,powerState,status,maxCpu,maxMemory,datacenter,activeTransaction[id, transactionStatus[friendlyName,name]],lastTransaction[transactionStatus,modifyDate,transactionGroup[name]],lastOperatingSystemReload.id,blockDevices,blockDeviceTemplateGroup[id, name, globalIdentifier],postInstallScriptUri,operatingSystem[passwords[username,password],
                                   softwareLicense.softwareDescription[
                                       manufacturer,name,version,
                                       referenceCode]],softwareComponents[
                    passwords[username,password,notes],
                    softwareLicense[softwareDescription[
                                        manufacturer,name,version,
                                        referenceCode]]],hourlyBillingFlag,userData,billingItem[id,nextInvoiceTotalRecurringAmount,
                               package[id,keyName],
                               children[description,categoryCode,nextInvoiceTotalRecurringAmount],
                               nextInvoiceChildren[description,
                                                   categoryCode,
                                                   recurringFee,
                                                   nextInvoiceTotalRecurringAmount],
                               orderItem[id,
                                         order.userRecord[username],
                                         preset.keyName]],tagReferences[id,tag[name,id]],networkVlans[id,vlanNumber,networkSpace],dedicatedHost.id,monitoringServiceComponent,networkMonitors[queryType,lastResult,responseAction],placementGroupId`,
  /** VSManager.wait_for_ready */
  waitForReady: 'mask[id, lastOperatingSystemReload[id], activeTransaction, provisionDate]',
  /** HardwareManager.list_hardware */
  listHardware:
    '[mask[id,hostname,domain,hardwareStatusId,globalIdentifier,fullyQualifiedDomainName,' +
    'processorPhysicalCoreAmount,memoryCapacity,primaryBackendIpAddress,primaryIpAddress,datacenter],' +
    ' mask(Svc_Hardware_Server)[activeTransaction[id, transactionStatus[friendlyName,name]]]]',
  /** HardwareManager.get_hardware */
  getHardware: `id,globalIdentifier,fullyQualifiedDomainName,hostname,domain,provisionDate,hardwareStatus,bareMetalInstanceFlag,processorPhysicalCoreAmount,memoryCapacity,notes,privateNetworkOnlyFlag,primaryBackendIpAddress,primaryIpAddress,networkManagementIpAddress,userData,activeComponents[id,hardwareComponentModel[hardwareGenericComponentModel[id,hardwareComponentType[keyName]]]],datacenter,networkComponents[id, status, speed, maxSpeed, name,
                   ipmiMacAddress, ipmiIpAddress, macAddress, primaryIpAddress,
                   port, primarySubnet[id, netmask, broadcastAddress,
                                       networkIdentifier, gateway]],hardwareChassis[id,name],activeTransaction[id, transactionStatus[friendlyName,name]],operatingSystem[
                    softwareLicense[softwareDescription[manufacturer,
                                                        name,
                                                        version,
                                                        referenceCode]],
                    passwords[username,password]],softwareComponents[
                    softwareLicense[softwareDescription[manufacturer,
                                                        name,
                                                        version,
                                                        referenceCode]],
                    passwords[id,username,password]],billingItem[id,nextInvoiceTotalRecurringAmount,nextInvoiceChildren[nextInvoiceTotalRecurringAmount],orderItem.order.userRecord[username]],lastTransaction[transactionGroup],hourlyBillingFlag,tagReferences[id,tag[name,id]],networkVlans[id,vlanNumber,networkSpace, fullyQualifiedName,primarySubnets[ipAddresses]],monitoringServiceComponent,networkMonitors[queryType,lastResult,responseAction],remoteManagementAccounts[username,password]`,
  /** HardwareManager.cancel_hardware */
  cancelHardware:
    'mask[id, hourlyBillingFlag, billingItem[id], openCancellationTicket[id], activeTransaction]',
  /** TicketManager.list_tickets */
  listTickets: `mask[id, serviceProviderResourceId, title, assignedUser[firstName, lastName], priority,
                  createDate, lastEditDate, accountId, status, updateCount]`,
  /** TicketManager.get_ticket */
  getTicket: `mask[id, serviceProviderResourceId, title, assignedUser[firstName, lastName],status,
                  createDate,lastEditDate,updates[entry,editor],updateCount, priority]`,
  /** DNSManager.get_zone */
  getZone: 'mask[resourceRecords]',
  /** DNSManager.get_records */
  getRecords:
    'mask[id,expire,domainId,host,minimum,refresh,retry,mxPriority,ttl,type,data,responsiblePerson]',
  /** AccountManager.get_summary */
  accountSummary: `mask[
            nextInvoiceTotalAmount,
            pendingInvoice[invoiceTotalAmount],
            blockDeviceTemplateGroupCount,
            dedicatedHostCount,
            domainCount,
            hardwareCount,
            networkStorageCount,
            openTicketCount,
            networkVlanCount,
            subnetCount,
            userCount,
            virtualGuestCount
            ]`,
  /** AccountManager.get_billing_item */
  billingItem: `mask[
                    orderItem[id,order[id,userRecord[id,email,displayName,userStatus]]],
                    nextInvoiceTotalRecurringAmount,
                    location, hourlyFlag, children
                ]`,
  /** AccountManager.get_current_user, and the CLI's check of the current user */
  currentUser: 'mask[id,displayName,email,username]',
  currentUserKeys: 'mask[id, apiAuthenticationKeys]',
};

const h = useEmulator();
let client: EmulatorClient;
let username: string;
let guestId: number;

describe("the reference client's default masks", () => {
  before(async () => {
    username = 'masks-user';
    client = await freshAccount(h.emu, username);
    guestId = (
      await createGuest(client, {
        hostname: 'masked',
        datacenter: { name: 'dal13' },
        tagReferences: [{ tag: { name: 'web' } }],
        blockDevices: [
          { device: '0', diskImage: { capacity: 25 } },
          { device: '2', diskImage: { capacity: 100 } },
        ],
      })
    ).id;
  });

  describe("the reference client's default masks: virtual guests", () => {
    it('list_instances', async () => {
      const guests = await client.call<any[]>('Account', 'getVirtualGuests', {
        mask: MASKS.listInstances,
        filter: {
          virtualGuests: {
            id: { operation: 'orderBy', options: [{ name: 'sort', value: ['ASC'] }] },
          },
        },
      });
      assert.equal(guests.length, 1);
      const [g] = guests;
      assert.equal(g.fullyQualifiedDomainName, 'masked.example.com');
      assert.equal(g.datacenter.name, 'dal13');
      assert.deepEqual(g.powerState, { keyName: 'RUNNING', name: 'Running' });
      assert.deepEqual(g.lastKnownPowerState, { name: 'Running' });
      assert.deepEqual(g.status, { keyName: 'ACTIVE', name: 'Active' });
      assert.equal(g.activeTransaction, undefined, 'provisioned: no active transaction');
    });

    it('get_instance: networks, disks, operating system, billing, transactions', async () => {
      const g = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
        id: guestId,
        mask: MASKS.getInstance,
      });
      // Network components with their subnets; security groups are not modeled (empty).
      assert.deepEqual(
        g.networkComponents.map((n: any) => [n.port, n.primarySubnet.addressSpace]),
        [
          [0, 'PRIVATE'],
          [1, 'PUBLIC'],
        ],
      );
      for (const nic of g.networkComponents) {
        assert.deepEqual(nic.securityGroupBindings, []);
        assert.match(nic.macAddress, /^06(:[0-9a-f]{2}){5}$/);
      }
      assert.equal(g.networkComponents[1].primaryIpAddress, g.primaryIpAddress);
      assert.equal(g.networkComponents[0].primaryIpAddress, g.primaryBackendIpAddress);
      assert.deepEqual(
        g.networkVlans.map((v: any) => v.networkSpace),
        ['PRIVATE', 'PUBLIC'],
      );
      for (const vlan of g.networkVlans) assert.ok(vlan.vlanNumber > 0 && vlan.vlanNumber < 4095);
      // Disks: boot, swap, data.
      assert.deepEqual(
        g.blockDevices.map((b: any) => [b.device, b.bootableFlag]),
        [
          ['0', 1],
          ['1', 0],
          ['2', 0],
        ],
      );
      // Operating system and software: passwords are not modeled (empty).
      assert.deepEqual(g.operatingSystem.passwords, []);
      assert.equal(
        g.operatingSystem.softwareLicense.softwareDescription.referenceCode,
        'UBUNTU_24_64',
      );
      assert.equal(g.softwareComponents.length, 1);
      assert.equal(
        g.softwareComponents[0].softwareLicense.softwareDescription.manufacturer,
        'Canonical',
      );
      // Transactions.
      assert.equal(typeof g.lastTransaction.transactionGroup.name, 'string');
      assert.equal(typeof g.lastTransaction.transactionStatus.name, 'string');
      assert.equal(g.activeTransaction, undefined);
      assert.equal(g.lastOperatingSystemReload, undefined);
      // Billing item: the package, the parts of the order and who placed it.
      const bill = g.billingItem;
      assert.deepEqual(bill.package, { id: 835, keyName: 'PUBLIC_CLOUD_SERVER' });
      assert.deepEqual(
        bill.children.map((c: any) => c.categoryCode),
        ['ram', 'os', 'port_speed', 'guest_disk0', 'guest_disk1'],
      );
      assert.equal(bill.nextInvoiceChildren.length, bill.children.length);
      assert.equal(typeof bill.nextInvoiceTotalRecurringAmount, 'number');
      assert.equal(bill.orderItem.order.userRecord.username, username);
      assert.equal(bill.orderItem.preset, undefined, 'ordered without a preset');
      assert.deepEqual(
        g.tagReferences.map((r: any) => r.tag.name),
        ['web'],
      );
      // Relations the emulator does not model answer nothing.
      for (const absent of [
        'blockDeviceTemplateGroup',
        'dedicatedHost',
        'monitoringServiceComponent',
        'placementGroupId',
      ]) {
        assert.equal(g[absent], undefined, absent);
      }
      assert.deepEqual(g.networkMonitors, []);
    });

    it('wait_for_ready', async () => {
      const g = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
        id: guestId,
        mask: MASKS.waitForReady,
      });
      assert.deepEqual(Object.keys(g).sort(), ['id', 'provisionDate']);
    });
  });

  describe("the reference client's default masks: hardware, tickets, DNS, account", () => {
    it('list_hardware, get_hardware and cancel_hardware', async () => {
      const servers = await h.demo.call<any[]>('Account', 'getHardware', {
        mask: MASKS.listHardware,
      });
      assert.ok(servers.length >= 2);
      assert.ok(
        servers.every((s) => s.hardwareStatusId === 5 && typeof s.datacenter.name === 'string'),
      );
      const server = await h.demo.call<Record<string, any>>('Hardware_Server', 'getObject', {
        id: servers[0].id,
        mask: MASKS.getHardware,
      });
      assert.equal(server.hostname, servers[0].hostname);
      assert.deepEqual(server.hardwareStatus, { id: 5, status: 'ACTIVE' });
      assert.deepEqual(
        server.networkVlans.map((v: any) => v.networkSpace),
        ['PRIVATE', 'PUBLIC'],
      );
      assert.ok(
        server.networkVlans.every((v: any) =>
          v.fullyQualifiedName.startsWith(server.datacenter.name),
        ),
      );
      assert.deepEqual(server.remoteManagementAccounts, []);
      assert.deepEqual(server.activeComponents, []);
      const billing = await h.demo.call<Record<string, any>>('Hardware_Server', 'getObject', {
        id: servers[0].id,
        mask: MASKS.cancelHardware,
      });
      assert.deepEqual(billing, { id: servers[0].id });
    });

    it('list_tickets and get_ticket', async () => {
      for (const method of ['getTickets', 'getOpenTickets', 'getClosedTickets']) {
        const tickets = await h.demo.call<any[]>('Account', method, { mask: MASKS.listTickets });
        assert.ok(tickets.length > 0, method);
        for (const t of tickets) {
          assert.equal(typeof t.updateCount, 'number');
          assert.match(t.serviceProviderResourceId, /^CS\d+$/);
          assert.deepEqual(Object.keys(t.assignedUser).sort(), ['firstName', 'lastName']);
        }
      }
      const [first] = await h.demo.call<any[]>('Account', 'getTickets', { mask: 'id', limit: 1 });
      const ticket = await h.demo.call<Record<string, any>>('Ticket', 'getObject', {
        id: first.id,
        mask: MASKS.getTicket,
      });
      assert.equal(ticket.updates.length, ticket.updateCount);
      const byUser = ticket.updates.find((u: any) => u.editor);
      assert.equal(byUser.editor.username, h.emu.accounts.demo.username);
    });

    it('get_zone and get_records, with the SOA timers of records that have them', async () => {
      const [zone] = await h.demo.call<any[]>('Account', 'getDomains', { mask: 'id' });
      const full = await h.demo.call<Record<string, any>>('Dns_Domain', 'getObject', {
        id: zone.id,
        mask: MASKS.getZone,
      });
      assert.ok(full.resourceRecords.length > 0);
      const soa = { expire: 604800, minimum: 3600, refresh: 3600, retry: 300 };
      const created = await h.demo.call<Record<string, any>>(
        'Dns_Domain_ResourceRecord',
        'createObject',
        {
          args: [
            {
              domainId: zone.id,
              host: 'timers',
              type: 'txt',
              data: 'x',
              ttl: 900,
              responsiblePerson: 'hostmaster.example.com.',
              ...soa,
            },
          ],
        },
      );
      const records = await h.demo.call<any[]>('Dns_Domain', 'getResourceRecords', {
        id: zone.id,
        mask: MASKS.getRecords,
        filter: {
          resourceRecords: {
            id: { operation: 'orderBy', options: [{ name: 'sort', value: ['ASC'] }] },
            host: { operation: '_= timers' },
            type: { operation: '_= txt' },
          },
        },
      });
      assert.deepEqual(records, [
        {
          id: created.id,
          domainId: zone.id,
          host: 'timers',
          ttl: 900,
          type: 'txt',
          data: 'x',
          responsiblePerson: 'hostmaster.example.com.',
          ...soa,
        },
      ]);
      const { soaResourceRecord } = await h.demo.call<Record<string, any>>(
        'Dns_Domain',
        'getObject',
        {
          id: zone.id,
          mask: 'soaResourceRecord[type, responsiblePerson, expire, minimum, refresh, retry]',
        },
      );
      assert.deepEqual(soaResourceRecord, {
        type: 'soa',
        responsiblePerson: 'root.example.com.',
        ...soa,
      });
      await h.demo.call('Dns_Domain_ResourceRecord', 'deleteObject', { id: created.id });
    });

    it('get_summary counts what the account has, and 0 for what the emulator does not model', async () => {
      const summary = await client.call<Record<string, any>>('Account', 'getObject', {
        mask: MASKS.accountSummary,
      });
      assert.equal(summary.virtualGuestCount, 1);
      assert.equal(summary.networkVlanCount, 2, 'a public and a private VLAN in dal13');
      assert.equal(summary.subnetCount, 2);
      assert.equal(summary.userCount, 1);
      for (const zero of [
        'blockDeviceTemplateGroupCount',
        'dedicatedHostCount',
        'domainCount',
        'hardwareCount',
        'networkStorageCount',
        'openTicketCount',
      ])
        assert.equal(summary[zero], 0, zero);
      assert.equal(summary.nextInvoiceTotalAmount, undefined);
      assert.equal(summary.pendingInvoice, undefined);
    });

    it('get_billing_item and the current user', async () => {
      const { billingItem } = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
        id: guestId,
        mask: 'billingItem.id',
      });
      const item = await client.call<Record<string, any>>('Billing_Item', 'getObject', {
        id: billingItem.id,
        mask: MASKS.billingItem,
      });
      assert.equal(item.location.name, 'dal13');
      assert.equal(item.hourlyFlag, true);
      assert.equal(item.orderItem.order.userRecord.userStatus.keyName, 'ACTIVE');
      assert.equal(item.children.length, 5);
      const user = await client.call<Record<string, any>>('Account', 'getCurrentUser', {
        mask: MASKS.currentUser,
      });
      assert.equal(user.username, username);
      const keys = await client.call<Record<string, any>>('Account', 'getCurrentUser', {
        mask: MASKS.currentUserKeys,
      });
      assert.equal(keys.apiAuthenticationKeys.length, 1);
    });
  });
});

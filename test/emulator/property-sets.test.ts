/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
/**
 * Every type the emulator serves carries the real API's property set (emulator/types/
 * sldn-properties.json): no more, no fewer, relations pointing at the API's own types. A
 * property the emulator does not model answers nothing (null, an empty list, a count of 0), so
 * any valid mask or filter works; a name the type does not have still faults.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import '../../emulator/services/registry';
import { catalogProperties, definedTypes, typeDef } from '../../emulator/schema';
import properties from '../../emulator/sldn-properties.json';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';
import type { EmulatorClient } from '../support/emulator-client';

/** Where the emulator knowingly differs from the API reference, and why. */
const EXTRA_PROPERTIES: Record<string, string[]> = {
  // The reference page of the SOA record type omits the host and data every record has.
  Svc_Dns_Domain_ResourceRecord_SoaType: ['host', 'data'],
};
const OTHER_TARGETS: Record<string, string> = {
  // The API declares the abstract Svc_User_Interface; customers' entries carry the customer.
  'Svc_Ticket_Update.editor': 'Svc_User_Customer',
};

const catalogTypes = Object.keys(properties.types);
type CatalogProperty = NonNullable<ReturnType<typeof catalogProperties>>[number];

describe('property sets', () => {
  it('covers the types the issue names and everything their relations reach', () => {
    for (const name of [
      'Svc_Account',
      'Svc_Virtual_Guest',
      'Svc_Virtual_Guest_Network_Component',
      'Svc_Network_Vlan',
      'Svc_Network_Subnet',
      'Svc_Virtual_Guest_Block_Device',
      'Svc_Billing_Item',
      'Svc_Software_Component_OperatingSystem',
      'Svc_Provisioning_Version1_Transaction',
      'Svc_Ticket',
      'Svc_Ticket_Update',
      'Svc_Dns_Domain',
      'Svc_Dns_Domain_ResourceRecord',
      'Svc_Hardware_Server',
      'Svc_Security_Ssh_Key',
    ]) {
      assert.ok(catalogTypes.includes(name), name);
    }
    for (const name of catalogTypes) {
      for (const property of catalogProperties(name)!) {
        const target = property.target?.replace(/\[\]$/, '');
        if (target && /^[A-Z]/.test(target)) {
          assert.ok(catalogTypes.includes(target), `${name}.${property.name} -> ${target}`);
        }
      }
    }
  });

  it('gives every type exactly the API property set, relations with the API target types', () => {
    // Load every catalog type so catalog-only ones are checked too.
    for (const name of catalogTypes) typeDef(name);
    const defined = definedTypes();
    assert.ok(defined.length >= catalogTypes.length);
    for (const name of defined) {
      const known = catalogProperties(name);
      assert.ok(known, `${name} is a type of the API`);
      const def = typeDef(name);
      const have = [...def.locals.keys(), ...def.relations.keys(), ...def.onDemand.keys()];
      assert.equal(new Set(have).size, have.length, `${name}: each property once`);
      const expected = [...known.map((p) => p.name), ...(EXTRA_PROPERTIES[name] ?? [])];
      assert.deepEqual([...have].sort(), [...expected].sort(), name);
      for (const [key, relation] of def.relations) {
        const property: CatalogProperty = known.find((p) => p.name === key)!;
        assert.equal(property.kind, 'relational', `${name}.${key} is relational in the API`);
        assert.equal(
          relation.type,
          OTHER_TARGETS[`${name}.${key}`] ?? property.target!.replace(/\[\]$/, ''),
          `${name}.${key} target`,
        );
        assert.equal(relation.many, property.target!.endsWith('[]'), `${name}.${key} list`);
      }
    }
  });
});

describe('properties the emulator does not model', () => {
  const h = useEmulator();
  let client: EmulatorClient;
  let guestId: number;

  before(async () => {
    client = await freshAccount(h.emu);
    guestId = (await createGuest(client, { hostname: 'unmodeled' })).id;
  });

  it('answer null, an empty list or a count, whatever the mask asks below them', async () => {
    const got = await client.call<Record<string, any>>('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: [
        'id',
        'dedicatedHost[id, name, datacenter[name]]',
        'placementGroupId',
        'securityScanRequests[id, status[name]]',
        'networkMonitors[queryType, lastResult, responseAction]',
        'accountOwnedPoolFlag',
        'securityScanRequestCount',
        'tagReferenceCount',
        'blockDeviceCount',
        'networkComponents[id, securityGroupBindings[securityGroup[id, name]]]',
      ].join(','),
    });
    assert.deepEqual(got, {
      id: guestId,
      securityScanRequests: [],
      networkMonitors: [],
      securityScanRequestCount: 0,
      tagReferenceCount: 0,
      blockDeviceCount: 2,
      networkComponents: [
        { id: got.networkComponents[0].id, securityGroupBindings: [] },
        { id: got.networkComponents[1].id, securityGroupBindings: [] },
      ],
    });
  });

  it('have getter methods like every other property', async () => {
    assert.deepEqual(
      await client.call('Virtual_Guest', 'getSecurityScanRequests', { id: guestId }),
      [],
    );
    assert.equal(await client.call('Virtual_Guest', 'getDedicatedHost', { id: guestId }), null);
    assert.equal(await client.call('Virtual_Guest', 'getNetworkMonitorCount', { id: guestId }), 0);
    assert.equal(await client.call('Account', 'getNetworkStorageCount'), 0);
  });

  it('can be filtered on: they behave as null', async () => {
    const filter = (leaf: Record<string, unknown>) => ({ virtualGuests: leaf });
    const ids = async (f: Record<string, unknown>) =>
      (await client.call<any[]>('Account', 'getVirtualGuests', { mask: 'id', filter: f })).map(
        (g) => g.id,
      );
    assert.deepEqual(await ids(filter({ placementGroupId: { operation: 'is null' } })), [guestId]);
    assert.deepEqual(await ids(filter({ placementGroupId: { operation: 'not null' } })), []);
    assert.deepEqual(await ids(filter({ dedicatedHost: { name: { operation: 'is null' } } })), [
      guestId,
    ]);
    assert.deepEqual(await ids(filter({ dedicatedHost: { name: { operation: 'x' } } })), []);
  });

  it('are told apart from names the type does not have, at any depth', async () => {
    for (const [mask, type] of [
      ['dedicatedHost.nmae', 'Svc_Virtual_DedicatedHost'],
      ['networkComponents.primarySubnet.addressSpaec', 'Svc_Network_Subnet'],
      ['billingItem.orderItem.order.userRecord.usernme', 'Svc_User_Customer'],
      ['hostnam', 'Svc_Virtual_Guest'],
    ] as const) {
      const raw = await client.callRaw('Virtual_Guest', 'getObject', { id: guestId, mask });
      assert.equal(raw.fault?.faultCode, 'Svc_Exception_Public', mask);
      assert.match(raw.fault!.faultString, new RegExp(`not valid for '${type}'`), mask);
    }
    const plain = await client.callRaw('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'placementGroupId.id',
    });
    assert.match(plain.fault!.faultString, /'placementGroupId' is not relational/);
    const badFilter = await client.callRaw('Account', 'getVirtualGuests', {
      filter: { virtualGuests: { dedicatedHost: { nmae: { operation: 'x' } } } },
    });
    assert.match(badFilter.fault!.faultString, /'nmae' not valid for 'Svc_Virtual_DedicatedHost'/);
  });

  it('accept type casts to another known type and refuse unknown ones', async () => {
    const hardware = await h.demo.call<any[]>('Account', 'getHardware', {
      mask: '[mask[id, hostname], mask(Svc_Hardware_Server)[activeTransaction[id], hardwareStatus]]',
    });
    assert.ok(hardware.length > 0);
    for (const server of hardware)
      assert.deepEqual(Object.keys(server).sort(), ['hardwareStatus', 'hostname', 'id']);
    const unknown = await h.demo.callRaw('Account', 'getHardware', {
      mask: 'mask(Svc_Hardware_Banana)[id]',
    });
    assert.match(unknown.fault!.faultString, /'Svc_Hardware_Banana' is not a known type/);
  });
});

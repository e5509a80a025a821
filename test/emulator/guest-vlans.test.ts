/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { freshAccount, guestTemplate, useEmulator } from '../support/emulator-harness';
import { VLAN_ITEMS, VLAN_PACKAGE } from '../../emulator/services/product-package/vlan-items';

const h = useEmulator();

type Row = Record<string, any>;

/** The account's VLAN of `space` in `datacenter` (the account lists those it has guests on). */
async function vlanOf(client: EmulatorClient, datacenter: string, space: string): Promise<Row> {
  await client.call('Virtual_Guest', 'createObject', {
    args: [guestTemplate({ hostname: `on-${datacenter}`, datacenter: { name: datacenter } })],
  });
  const vlans = await client.call<Row[]>('Account', 'getNetworkVlans', {
    mask: 'id,networkSpace,primarySubnetId,datacenter.name',
  });
  const vlan = vlans.find((v) => v.datacenter.name === datacenter && v.networkSpace === space);
  assert.ok(vlan, `a ${space} VLAN in ${datacenter}`);
  return vlan;
}

const onVlans = (pub?: Row, priv?: Row) => ({
  ...(pub ? { primaryNetworkComponent: { networkVlan: pub } } : {}),
  ...(priv ? { primaryBackendNetworkComponent: { networkVlan: priv } } : {}),
});

/** A VLAN of `space` ordered through Product_Order in `datacenter`, as `slcli vlan create` orders one. */
async function orderedVlan(client: EmulatorClient, datacenter: string, space: string) {
  const price = VLAN_ITEMS.find((i) => i.space === space)!.price.id;
  const receipt = await client.call<Row>('Product_Order', 'placeOrder', {
    args: [
      {
        complexType: 'Svc_Container_Product_Order_Network_Vlan',
        packageId: VLAN_PACKAGE.id,
        location: datacenter,
        prices: [{ id: price }],
        name: `${space.toLowerCase()}-${datacenter}`,
      },
    ],
  });
  const vlans = await client.call<Row[]>('Account', 'getNetworkVlans', {
    mask: 'id,networkSpace,primarySubnetId,datacenter.name,billingItem.id',
  });
  const vlan = vlans.find(
    (v) => v.billingItem && v.datacenter.name === datacenter && v.networkSpace === space,
  );
  assert.ok(vlan && receipt.orderId, `an ordered ${space} VLAN in ${datacenter}`);
  return vlan;
}

const faultOf = async (client: EmulatorClient, overrides: Row) =>
  (await client.callRaw('Virtual_Guest', 'createObject', { args: [guestTemplate(overrides)] }))
    .fault?.faultString ?? 'no fault';

describe('Virtual_Guest ordered on chosen VLANs (primary[Backend]NetworkComponent.networkVlan)', () => {
  it('puts the interfaces on the VLANs and subnet named', async () => {
    const client = await freshAccount(h.emu);
    const pub = await vlanOf(client, 'dal10', 'PUBLIC');
    const priv = await vlanOf(client, 'dal10', 'PRIVATE');
    const guest = await client.call<Row>('Virtual_Guest', 'createObject', {
      args: [
        guestTemplate(
          onVlans({ id: pub.id, primarySubnet: { id: pub.primarySubnetId } }, { id: priv.id }),
        ),
      ],
      mask: 'id,primaryNetworkComponent[networkVlan.id,primarySubnet.id],primaryBackendNetworkComponent.networkVlan.id',
    });
    assert.equal(guest.primaryNetworkComponent.networkVlan.id, pub.id);
    assert.equal(guest.primaryNetworkComponent.primarySubnet.id, pub.primarySubnetId);
    assert.equal(guest.primaryBackendNetworkComponent.networkVlan.id, priv.id);
  });

  it('refuses a VLAN of another datacenter, space or account, a subnet off its VLAN, a public VLAN without a public interface', async () => {
    const client = await freshAccount(h.emu);
    const other = await freshAccount(h.emu);
    const far = await vlanOf(client, 'dal12', 'PRIVATE');
    const pub = await vlanOf(client, 'dal10', 'PUBLIC');
    const priv = await vlanOf(client, 'dal10', 'PRIVATE');
    const theirs = await vlanOf(other, 'dal10', 'PRIVATE');
    const cases: [Row, RegExp][] = [
      [
        onVlans(undefined, { id: far.id }),
        /networkVlan\.id: VLAN \d+ is in dal12; the guest is ordered in dal10/,
      ],
      [onVlans({ id: priv.id }), /is a PRIVATE VLAN; this interface is PUBLIC/],
      [onVlans(undefined, { id: theirs.id }), /VLAN \d+ does not exist on this account/],
      [
        onVlans({ id: pub.id, primarySubnet: { id: priv.primarySubnetId } }),
        /is not a subnet of VLAN/,
      ],
      [{ ...onVlans({ id: pub.id }), privateNetworkOnlyFlag: true }, /has no public interface/],
    ];
    for (const [overrides, message] of cases)
      assert.match(await faultOf(client, overrides), message, JSON.stringify(overrides));
    const guests = await client.call<Row[]>('Account', 'getVirtualGuests', { mask: 'hostname' });
    assert.ok(
      guests.every((g) => g.hostname.startsWith('on-')),
      'nothing ordered but the guests that show the VLANs',
    );
  });

  it('puts a guest on VLANs the account ordered, with addresses of their subnets, and refuses one elsewhere or of the other space', async () => {
    const client = await freshAccount(h.emu);
    const priv = await orderedVlan(client, 'dal10', 'PRIVATE');
    const pub = await orderedVlan(client, 'dal10', 'PUBLIC');
    const far = await orderedVlan(client, 'dal12', 'PRIVATE');
    assert.match(
      await faultOf(client, onVlans(undefined, { id: far.id })),
      new RegExp(`VLAN ${far.id} is in dal12; the guest is ordered in dal10`),
    );
    assert.match(
      await faultOf(client, onVlans({ id: priv.id })),
      /is a PRIVATE VLAN; this interface is PUBLIC/,
    );
    const nic = 'networkVlan.id,primarySubnet[id,networkVlanId,networkIdentifier],primaryIpAddress';
    const guest = await client.call<Row>('Virtual_Guest', 'createObject', {
      args: [guestTemplate(onVlans({ id: pub.id }, { id: priv.id }))],
      mask: `id,primaryNetworkComponent[${nic}],primaryBackendNetworkComponent[${nic}]`,
    });
    for (const [component, vlan] of [
      [guest.primaryNetworkComponent, pub],
      [guest.primaryBackendNetworkComponent, priv],
    ] as const) {
      assert.equal(component.networkVlan.id, vlan.id);
      assert.equal(component.primarySubnet.id, vlan.primarySubnetId);
      assert.equal(component.primarySubnet.networkVlanId, vlan.id);
    }
    const read = await client.call<Row>('Virtual_Guest', 'getObject', {
      id: guest.id,
      mask: 'primaryBackendIpAddress,primaryBackendNetworkComponent.primarySubnet.networkIdentifier',
    });
    const network = read.primaryBackendNetworkComponent.primarySubnet.networkIdentifier;
    assert.equal(
      read.primaryBackendIpAddress.split('.').slice(0, 2).join('.'),
      network.split('.').slice(0, 2).join('.'),
      "the guest's private address is in its VLAN's subnet",
    );
    const onVlan = await client.call<Row>('Network_Vlan', 'getObject', {
      id: priv.id,
      mask: 'virtualGuests.id,subnets.id',
    });
    assert.deepEqual(
      onVlan.virtualGuests.map((g: Row) => g.id),
      [guest.id],
    );
    assert.deepEqual(
      await client.call('Network_Vlan', 'getCancelFailureReasons', { id: priv.id }),
      ['1 virtual guest(s) still on the VLAN'],
    );
  });
});

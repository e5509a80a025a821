/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { freshAccount, guestTemplate, useEmulator } from '../support/emulator-harness';

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
});

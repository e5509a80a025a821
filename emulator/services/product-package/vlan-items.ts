/**
 * The package that sells VLANs, as the reference client orders one (softlayer-python
 * `slcli vlan create`: package `NETWORK_VLAN`, item `PUBLIC_NETWORK_VLAN` or
 * `PRIVATE_NETWORK_VLAN`, complexType `..._Network_Vlan`) and terraform-provider-ibm's
 * `ibm_network_vlan` finds it (`<PUBLIC|PRIVATE>_NETWORK_VLAN` among the package's items): one
 * item per network space, each a monthly fee. Nothing here is stored.
 */
import type { Space } from '../network/model';
import type { ItemView, PackageView, PriceView } from './model';

export const VLAN_PACKAGE: PackageView = {
  id: 1098,
  keyName: 'NETWORK_VLAN',
  name: 'Network Vlan',
  description: 'Network Vlan',
};

export const VLAN_CATEGORY = 'network_vlan';
export const VLAN_CATEGORIES: Readonly<Record<string, { id: number; name: string }>> = {
  [VLAN_CATEGORY]: { id: 113, name: 'Network Vlan' },
};

/** A VLAN item: the network space it makes a VLAN on. */
export interface VlanItem extends ItemView {
  space: Space;
}

const vlanItem = (space: Space, id: number, priceId: number, hourly: number): VlanItem => ({
  id,
  keyName: `${space}_NETWORK_VLAN`,
  description: `${space === 'PUBLIC' ? 'Public' : 'Private'} Network Vlan`,
  capacity: 0,
  units: '',
  category: VLAN_CATEGORY,
  categories: [VLAN_CATEGORY],
  // Billed by the month: $30.00 public, $20.00 private (the hourly figure is the month / 730).
  price: {
    id: priceId,
    hourly,
    description: `${space === 'PUBLIC' ? 'Public' : 'Private'} Network Vlan`,
    categoryCode: VLAN_CATEGORY,
  },
  space,
});

export const VLAN_ITEMS: readonly VlanItem[] = [
  vlanItem('PUBLIC', 9_109_801, 2_071, 0.0411),
  vlanItem('PRIVATE', 9_109_802, 2_072, 0.0274),
];

export const VLAN_PRICES: readonly PriceView[] = VLAN_ITEMS.map((item) => ({
  item,
  price: item.price,
  categories: item.categories,
}));

export const vlanItemByPrice = (priceId: number) => VLAN_ITEMS.find((i) => i.price.id === priceId);

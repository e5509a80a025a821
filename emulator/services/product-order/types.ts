/**
 * Svc_Product_Item_Price with its item and categories: the prices a guest may be upgraded to
 * (`Virtual_Guest.getUpgradeItemPrices`), each priced for the guest's datacenter.
 */
import { money, monthlyFromHourly } from '../../catalog';
import { defineType, definePlainType } from '../../schema';
import type { UpgradePriceView } from '../virtual-guest/model';

const CATEGORIES: Record<string, { id: number; name: string }> = {
  guest_core: { id: 80, name: 'Computing Instance' },
  ram: { id: 3, name: 'RAM' },
  port_speed: { id: 26, name: 'Uplink Port Speeds' },
  guest_disk0: { id: 81, name: 'First Disk' },
  guest_disk1: { id: 82, name: 'Second Disk' },
  guest_disk2: { id: 92, name: 'Third Disk' },
  guest_disk3: { id: 93, name: 'Fourth Disk' },
  guest_disk4: { id: 116, name: 'Fifth Disk' },
};

/** The catalog item behind a price: the default price's id (a location's price adds 100,000s). */
const itemId = (p: UpgradePriceView) => 9_000_000 + (p.price.id % 100_000);

definePlainType('Svc_Product_Item_Category', ['id', 'categoryCode', 'name']);

defineType<UpgradePriceView>('Svc_Product_Item', {
  locals: {
    id: itemId,
    description: (p) => p.price.description,
    capacity: (p) => p.capacity,
    units: (p) => p.units,
    keyName: (p) => p.price.description.toUpperCase().replace(/[^A-Z0-9]+/g, '_'),
  },
});

defineType<UpgradePriceView>('Svc_Product_Item_Price', {
  locals: {
    id: (p) => p.price.id,
    itemId,
    hourlyRecurringFee: (p) => money(p.price.hourly, 4),
    recurringFee: (p) => money(monthlyFromHourly(p.price.hourly), 2),
    locationGroupId: (p) => p.price.locationGroupId ?? null,
    laborFee: () => '0',
    oneTimeFee: () => '0',
    setupFee: () => '0',
    currentPriceFlag: () => null,
  },
  relations: {
    item: { type: 'Svc_Product_Item', get: (p) => p },
    categories: {
      type: 'Svc_Product_Item_Category',
      many: true,
      get: (p) => p.categories.map((code) => ({ categoryCode: code, ...CATEGORIES[code] })),
    },
  },
});

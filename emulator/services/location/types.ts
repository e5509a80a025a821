/** Svc_Location / Svc_Location_Datacenter (one model), their pricing groups and regions. */
import { DATACENTERS, priceGroupOf, type Datacenter, type PriceGroup } from '../../catalog';
import { defineType, definePlainType } from '../../schema';
import { REGIONS, type RegionView } from '../product-package/model';

const ACTIVE = { id: 2, status: 'Active' };

defineType<Datacenter>(['Svc_Location', 'Svc_Location_Datacenter'], {
  locals: {
    id: (d) => d.id,
    name: (d) => d.name,
    longName: (d) => d.longName,
    statusId: () => ACTIVE.id,
  },
  relations: {
    locationStatus: { type: 'Svc_Location_Status', get: () => ACTIVE },
    priceGroups: {
      type: 'Svc_Location_Group',
      many: true,
      get: (d) => {
        const group = priceGroupOf(d);
        return group ? [group] : [];
      },
    },
    regions: {
      type: 'Svc_Location_Region',
      many: true,
      get: (d) => REGIONS.filter((r) => r.datacenter === d),
    },
  },
});

definePlainType('Svc_Location_Status', ['id', 'status']);
/** A region (one per datacenter): where the product packages sell. */
defineType<RegionView>('Svc_Location_Region', {
  locals: {
    keyname: (r) => r.keyname,
    description: (r) => r.description,
    sortOrder: (r) => r.sortOrder,
  },
  relations: {
    location: { type: 'Svc_Location_Region_Location', get: (r) => r },
    locations: { type: 'Svc_Location_Region_Location', many: true, get: (r) => [r] },
  },
});

defineType<RegionView>('Svc_Location_Region_Location', {
  locals: { locationId: (r) => r.datacenter.id },
  relations: {
    location: { type: 'Svc_Location', get: (r) => r.datacenter },
    region: { type: 'Svc_Location_Region', get: (r) => r },
  },
});
definePlainType('Svc_Location_Group_Type', ['name']);

/** Pricing location groups (`Location Group 2`, ...): the datacenters where their prices apply. */
defineType<PriceGroup>(['Svc_Location_Group', 'Svc_Location_Group_Pricing'], {
  locals: {
    id: (g) => g.id,
    name: (g) => g.name,
    description: (g) => g.description,
    locationGroupTypeId: () => 82,
  },
  relations: {
    locationGroupType: { type: 'Svc_Location_Group_Type', get: () => ({ name: 'PRICING' }) },
    locations: {
      type: 'Svc_Location',
      many: true,
      get: (g) => DATACENTERS.filter((d) => d.priceGroupId === g.id),
    },
  },
});

/** Svc_Location / Svc_Location_Datacenter (one model), their pricing groups and regions. */
import { DATACENTERS, priceGroupOf, type Datacenter, type PriceGroup } from '../../catalog';
import { defineType, definePlainType } from '../../schema';

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
      get: (d) => [{ keyname: d.region, description: `${d.name.toUpperCase()} - ${d.longName}` }],
    },
  },
});

definePlainType('Svc_Location_Status', ['id', 'status']);
definePlainType('Svc_Location_Region', ['keyname', 'description', 'sortOrder']);
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

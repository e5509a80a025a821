/**
 * The listing query both emulator benchmarks time: a filter through relations with an ordering,
 * and a mask that adds relational properties.
 */
export const GUEST_FILTER = {
  virtualGuests: {
    datacenter: { name: { operation: 'wdc07' } },
    maxMemory: { operation: '>= 2048' },
    tagReferences: {
      tag: { name: { operation: 'in', options: [{ name: 'data', value: ['env:prod'] }] } },
    },
    id: { operation: 'orderBy', options: [{ name: 'sort', value: ['DESC'] }] },
  },
};

export const GUEST_MASK =
  'mask[id,hostname,domain,maxMemory,primaryIpAddress,datacenter.name,tagReferences.tag.name,powerState.keyName]';

import { DedicatedHostManager, type DedicatedHost } from '../../managers';
import {
  ID,
  INTEGER,
  STRING,
  defineLookups,
  listOf,
  lookup,
  objectType,
  prop,
} from '../../lookups/define';

/** A host with what a `DedicatedHost` resource outputs and what its guests leave free. */
export interface DedicatedHostResult {
  id: number;
  name: string;
  datacenter: string;
  cpuCount: number;
  memoryGb: number;
  diskGb: number;
  freeCpuCount: number;
  freeMemoryGb: number;
  freeDiskGb: number;
  guestIds: number[];
}

const RESULT = objectType<DedicatedHostResult>({
  name: 'DedicatedHostResult',
  description:
    'A dedicated host with the fields a `DedicatedHost` resource outputs and the capacity its guests leave free.',
  properties: {
    id: prop(ID, "The host's id (its `hostId`).", { required: true }),
    freeCpuCount: prop(INTEGER, 'The cores no guest on the host uses.', { required: true }),
    freeMemoryGb: prop(INTEGER, 'The memory (GB) no guest on the host uses.', { required: true }),
    freeDiskGb: prop(INTEGER, 'The disk (GB) no guest on the host uses.', { required: true }),
    guestIds: prop(listOf(ID), 'The ids of the guests on the host.', { required: true }),
  },
  fromKind: {
    kind: 'DedicatedHost',
    fields: ['name', 'datacenter', 'cpuCount', 'memoryGb', 'diskGb'],
  },
});

const result = (h: DedicatedHost): DedicatedHostResult => ({
  id: h.id,
  name: h.name ?? '',
  datacenter: h.datacenter?.name ?? '',
  cpuCount: h.cpuCount ?? 0,
  memoryGb: h.memoryCapacity ?? 0,
  diskGb: h.diskCapacity ?? 0,
  freeCpuCount: h.allocationStatus?.cpuAvailable ?? 0,
  freeMemoryGb: h.allocationStatus?.memoryAvailable ?? 0,
  freeDiskGb: h.allocationStatus?.diskAvailable ?? 0,
  guestIds: (h.guests ?? []).map((g) => g.id),
});

/** The lookups of DedicatedHost (registered with the kind in kinds/index.ts). */
export const DEDICATED_HOST_LOOKUPS = defineLookups({
  getDedicatedHosts: lookup({
    description:
      "The account's dedicated hosts with their size and free capacity, all or those of one name or datacenter.",
    inputs: {
      name: prop(STRING, 'Only the hosts of this name.'),
      datacenter: prop(STRING, 'Only the hosts in this datacenter, e.g. `dal10`.'),
    },
    result: listOf(RESULT),
    example: {
      title: 'The hosts in dal10',
      name: 'dal10Hosts',
      args: { datacenter: 'dal10' },
      exports: ['items'],
    },
    check: (a, failures) => {
      failures.string('name', a.name, { maxLength: 63 });
      failures.string('datacenter', a.datacenter, {
        maxLength: 20,
        pattern: /^[a-z]{3}[0-9]{2}$/,
        patternRule: 'a datacenter short name such as dal10',
      });
    },
    call: async (client, { name, datacenter }) =>
      (await new DedicatedHostManager(client).listHosts())
        .filter((h) => !h.billingItem?.cancellationDate)
        .filter((h) => name === undefined || h.name === name)
        .filter((h) => datacenter === undefined || h.datacenter?.name === datacenter)
        .map(result),
  }),
});

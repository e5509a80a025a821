import { isKnown } from '../../framework/unknown';
import type { CreateObjectOptions } from '../../managers';

/** What the account may order, flattened for validation (prices come from pricing.ts). */
export interface Catalog {
  cpus: number[];
  memory: number[];
  os: string[];
  datacenters: string[];
  nicSpeeds: number[];
  /** The flavors' key names (`B1_2X8X25`), sorted. */
  flavors: string[];
  /** Disk sizes (GB) by position: the boot disk (device 0), then the data disks (devices 2-5). */
  disks: number[][];
}

/** Position of a disk device: 0 is the boot disk, 1 is swap, 2.. are data disks 1... */
const position = (device: string) => (device === '0' ? 0 : Number(device) - 1);

/** The device of the disk at `at`, the other way round. */
export const diskDevice = (at: number) => (at === 0 ? '0' : String(at + 1));

export function toCatalog(options: CreateObjectOptions): Catalog {
  const unique = <T>(values: T[]) => [...new Set(values)];
  const numbers = (values: unknown[]) =>
    unique(values.filter((v): v is number => typeof v === 'number')).sort((a, b) => a - b);
  const disks: number[][] = [];
  for (const option of options.blockDevices ?? []) {
    for (const device of option.template.blockDevices ?? []) {
      const at = position(String(device.device));
      const gb = device.diskImage?.capacity;
      if (!Number.isInteger(at) || at < 0 || typeof gb !== 'number') continue;
      disks[at] = numbers([...(disks[at] ?? []), gb]);
    }
  }
  return {
    cpus: numbers(options.processors.map((o) => o.template.startCpus)),
    memory: numbers(options.memory.map((o) => o.template.maxMemory)),
    os: unique(options.operatingSystems.map((o) => o.template.operatingSystemReferenceCode)).sort(),
    datacenters: unique(options.datacenters.map((o) => o.template.datacenter.name)).sort(),
    nicSpeeds: numbers(
      options.networkComponents.map((o) => o.template.networkComponents[0]?.maxSpeed),
    ),
    disks: disks.filter((sizes) => sizes !== undefined),
    flavors: unique((options.flavors ?? []).map((f) => f.flavor.keyName)).sort(),
  };
}

/**
 * A flavor's size, from its key name as the API writes it (`B1_2X8X25`: 2 cores, 8 GB of memory,
 * a 25 GB boot disk); undefined for a name of another form.
 */
export function flavorSize(
  keyName: string,
): { cpus: number; memoryMb: number; diskGb: number } | undefined {
  const match = /_(\d+)X(\d+)X(\d+)$/.exec(keyName);
  if (!match) return undefined;
  const [cpus, gb, diskGb] = match.slice(1).map(Number);
  return { cpus, memoryMb: gb * 1024, diskGb };
}

/** The fields a guest's size is given by: a flavor, or cores, memory and disks. */
interface Sized {
  flavorKeyName?: unknown;
  startCpus?: unknown;
  maxMemory?: unknown;
  disks?: unknown;
}

/**
 * The inputs with their flavor's size in place (its cores, memory and boot disk; the later disks
 * kept), as what is priced and placed; as they are without a flavor, or one of another form.
 */
export function withFlavorSize<T extends Sized>(inputs: T): T {
  const name = inputs.flavorKeyName;
  const size = typeof name === 'string' && isKnown(name) ? flavorSize(name) : undefined;
  if (!size) return inputs;
  const later = Array.isArray(inputs.disks) ? (inputs.disks as unknown[]).slice(1) : [];
  return {
    ...inputs,
    startCpus: size.cpus,
    maxMemory: size.memoryMb,
    disks: [size.diskGb, ...later],
  };
}

let cached: { at: number; catalog: Promise<Catalog> } | undefined;
const CACHE_MS = 5 * 60_000;

/** The catalog, fetched once per provider process (every check and create needs it). */
export function catalogFrom(fetch: () => Promise<CreateObjectOptions>): Promise<Catalog> {
  if (!cached || Date.now() - cached.at > CACHE_MS) {
    const catalog = fetch().then(toCatalog);
    cached = { at: Date.now(), catalog };
    catalog.catch(() => (cached = undefined));
  }
  return cached.catalog;
}

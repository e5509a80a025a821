import type { CreateObjectOptions, PricedOption } from '../../managers';

/** What the account may order, flattened for validation and pricing. */
export interface Catalog {
  cpus: number[];
  memory: number[];
  os: string[];
  datacenters: string[];
  nicSpeeds: number[];
  price(order: PricedOrder): Price;
}

export interface PricedOrder {
  startCpus: number;
  maxMemory: number;
  operatingSystemReferenceCode: string;
  networkSpeed?: number;
  hourlyBillingFlag: boolean;
}

/** The inputs a price depends on. */
export const PRICED_FIELDS = [
  'startCpus',
  'maxMemory',
  'operatingSystemReferenceCode',
  'networkSpeed',
  'hourlyBillingFlag',
] as const satisfies readonly (keyof PricedOrder)[];

export interface Price {
  /** Hourly cost; for monthly guests the monthly fee spread over 730 hours. */
  hourly: number;
  monthly: number;
}

const HOURS_PER_MONTH = 730;

function fee(
  option: PricedOption<unknown> | undefined,
  field: 'hourlyRecurringFee' | 'recurringFee',
): number {
  const value = Number(option?.itemPrice?.[field] ?? 0);
  return Number.isFinite(value) ? value : 0;
}

export function toCatalog(options: CreateObjectOptions): Catalog {
  const byCpus = new Map(options.processors.map((o) => [o.template.startCpus, o]));
  const byMemory = new Map(options.memory.map((o) => [o.template.maxMemory, o]));
  const byOs = new Map(
    options.operatingSystems.map((o) => [o.template.operatingSystemReferenceCode, o]),
  );
  const bySpeed = new Map(
    options.networkComponents.map((o) => [o.template.networkComponents[0]?.maxSpeed, o]),
  );
  const unique = <T>(values: T[]) => [...new Set(values)];
  return {
    cpus: unique([...byCpus.keys()]).sort((a, b) => a - b),
    memory: unique([...byMemory.keys()]).sort((a, b) => a - b),
    os: unique([...byOs.keys()]).sort(),
    datacenters: unique(options.datacenters.map((o) => o.template.datacenter.name)).sort(),
    nicSpeeds: unique([...bySpeed.keys()].filter((s): s is number => typeof s === 'number')).sort(
      (a, b) => a - b,
    ),
    price(order) {
      const parts = [
        byCpus.get(order.startCpus),
        byMemory.get(order.maxMemory),
        byOs.get(order.operatingSystemReferenceCode),
        order.networkSpeed === undefined ? undefined : bySpeed.get(order.networkSpeed),
      ];
      const sum = (field: 'hourlyRecurringFee' | 'recurringFee') =>
        parts.reduce((total, part) => total + fee(part, field), 0);
      const monthly = round(sum('recurringFee'));
      const hourly = order.hourlyBillingFlag
        ? round(sum('hourlyRecurringFee'))
        : round(monthly / HOURS_PER_MONTH);
      return { hourly, monthly };
    },
  };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

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

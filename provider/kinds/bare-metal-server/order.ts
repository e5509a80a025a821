import { type HardwareManager, type HardwareOptions, type HardwareOrder } from '../../managers';
import { configKey } from '../../framework/settings';
import type { Failures } from '../../framework/failures';
import type { InputsOf, StateOf } from '../../framework/fields';
import { containsUnknown, isUnknown } from '../../framework/unknown';
import { HOURS_PER_MONTH } from '../faces';
import type { BareMetalFields } from './fields';
import { portsOf, reloadedBy, replacedBy } from './changes';

/**
 * A server's order from its inputs, and every input checked against the bare-metal package
 * before anything is billed: the preset (and whether it bills by the hour), the OS and the port
 * speed against the package's items, the datacenter against the API's, each VLAN against the
 * account's (its space and datacenter), then the whole order by `verifyOrder`, whose price it
 * answers. Each failure names the field, the value and what the API allows.
 */

export type Inputs = InputsOf<BareMetalFields>;
export type State = StateOf<BareMetalFields>;

/** The inputs the price depends on: one unknown in a preview leaves the server unpriced. */
export const PRICED_FIELDS = [
  'preset',
  'operatingSystemReferenceCode',
  'datacenter',
  'networkSpeed',
  'redundantNetwork',
  'hourlyBilling',
] as const;

export interface Cost {
  estimatedHourlyCost: number;
  estimatedMonthlyCost: number;
}

/** What a server bills: by the hour, or monthly (its hourly figure then a month's 730th part). */
export function costOf(hourly: boolean, perHour: unknown, perMonth: unknown): Cost {
  const monthly = Number(perMonth ?? 0);
  return {
    estimatedHourlyCost: hourly
      ? Number(perHour ?? 0)
      : Math.round((monthly / HOURS_PER_MONTH) * 10_000) / 10_000,
    estimatedMonthlyCost: monthly,
  };
}

const known = <T>(value: T) => (isUnknown(value) ? undefined : value);

/** The order of one server; values not known yet (a preview) are left out of it. */
export function orderOf(inputs: Partial<Inputs>, token: string): HardwareOrder {
  const keys = known(inputs.sshKeyIds);
  return {
    preset: String(inputs.preset),
    os: String(inputs.operatingSystemReferenceCode),
    portSpeed: Number(inputs.networkSpeed),
    redundant: inputs.redundantNetwork === true,
    datacenter: String(inputs.datacenter),
    hourly: inputs.hourlyBilling !== false,
    hostname: String(known(inputs.hostname) ?? 'preview'),
    domain: String(known(inputs.domain) ?? 'example.com'),
    userData: known(inputs.userData),
    publicVlanId: known(inputs.publicVlanId),
    privateVlanId: known(inputs.privateVlanId),
    sshKeyIds: Array.isArray(keys) && !containsUnknown(keys) ? keys : [],
    tags: [
      ...(Array.isArray(inputs.tags) && !containsUnknown(inputs.tags) ? inputs.tags : []),
      token,
    ],
  };
}

const money = (value: unknown, digits: number) =>
  typeof value === 'number' ? `$${value.toFixed(digits)}` : '$(unpriced)';

/** `$0.8600/hour ($627.80/month)`, hourly or monthly. */
export const describeCost = (v: Partial<State>) =>
  `${v.hourlyBilling === false ? 'monthly' : 'hourly'}, ${money(v.estimatedHourlyCost, 4)}/hour (${money(v.estimatedMonthlyCost, 2)}/month)`;

/** `S1270_32GB_1X1TBSATA_NORAID, UBUNTU_LATEST, 1000 Mbps (redundant) in dal10`. */
export const describeOrder = (v: Partial<Inputs>) =>
  `${v.preset}, ${v.operatingSystemReferenceCode}, ${v.networkSpeed} Mbps${v.redundantNetwork ? ' redundant' : ''} in ${v.datacenter}`;

const listed = (values: Iterable<unknown>) => [...values].join(', ');

/** The preset, the billing, the OS and the port speed against what the package sells. */
function checkOffered(inputs: Inputs, options: HardwareOptions, failures: Failures): void {
  const preset = options.presets.find((p) => p.keyName === inputs.preset);
  if (!preset)
    failures.add(
      'preset',
      `preset ${JSON.stringify(inputs.preset)} is not one the bare-metal package sells: one of ${listed(options.presets.map((p) => p.keyName))}`,
    );
  else if (inputs.hourlyBilling !== false && preset.totalMinimumHourlyFee === undefined) {
    const hourly = options.presets.filter((p) => p.totalMinimumHourlyFee !== undefined);
    failures.add(
      'hourlyBilling',
      `hourlyBilling: preset ${preset.keyName} is billed monthly only: set hourlyBilling: false, or take a preset billed by the hour (${listed(hourly.map((p) => p.keyName))})`,
    );
  }
  if (!options.operatingSystems.has(inputs.operatingSystemReferenceCode))
    failures.add(
      'operatingSystemReferenceCode',
      `operatingSystemReferenceCode ${JSON.stringify(inputs.operatingSystemReferenceCode)} is not an operating system the bare-metal package sells: one of ${listed(options.operatingSystems.keys())}`,
    );
  const ports = inputs.redundantNetwork ? options.redundantPortSpeeds : options.portSpeeds;
  if (!ports.has(inputs.networkSpeed))
    failures.add(
      'networkSpeed',
      `networkSpeed ${inputs.networkSpeed} is not a ${inputs.redundantNetwork ? 'redundant port speed (redundantNetwork)' : 'port speed'} the bare-metal package sells: one of ${listed([...ports.keys()].sort((a, b) => a - b))} (Mbps)`,
    );
}

/** Each VLAN given: one of the account's, of its uplink's space, in the server's datacenter. */
async function checkVlans(manager: HardwareManager, inputs: Inputs, failures: Failures) {
  const uplinks = [
    ['publicVlanId', 'PUBLIC'],
    ['privateVlanId', 'PRIVATE'],
  ] as const;
  for (const [field, space] of uplinks) {
    const id = inputs[field];
    if (id === undefined || isUnknown(id)) continue;
    const vlan = await manager.findVlan(id);
    if (!vlan) failures.add(field, `${field} ${id}: the account has no VLAN ${id}`);
    else if (vlan.networkSpace !== space || vlan.datacenter?.name !== inputs.datacenter)
      failures.add(
        field,
        `${field} ${id} is a ${String(vlan.networkSpace).toLowerCase()} VLAN in ${vlan.datacenter?.name}: it must be one of the account's ${space.toLowerCase()} VLANs in ${inputs.datacenter}`,
      );
  }
}

/** The field a refusal of `verifyOrder` is about, from what it names. */
function fieldOfRefusal(message: string): string {
  const fields: [RegExp, string][] = [
    [/ssh/i, 'sshKeyIds'],
    [/primaryBackendNetworkComponent/, 'privateVlanId'],
    [/primaryNetworkComponent|vlan/i, 'publicVlanId'],
    [/location|datacenter/i, 'datacenter'],
    [/hostname/i, 'hostname'],
    [/domain/i, 'domain'],
    [/userData/i, 'userData'],
    [/tag/i, 'tags'],
    [/monthly only|hourly/i, 'hourlyBilling'],
  ];
  return fields.find(([pattern]) => pattern.test(message))?.[1] ?? 'preset';
}

/**
 * The order a server's bill is: the inputs, but for a server that stays (nothing replaces it) the
 * speed its ports were ordered at, whatever speed they are set to run at in place.
 */
function billedOrder(inputs: Inputs, olds: Partial<State>): Inputs {
  const ports = portsOf(olds);
  return ports !== undefined && replacedBy(olds, inputs).length === 0
    ? { ...inputs, networkSpeed: ports }
    : inputs;
}

/**
 * Checks the order and prices it (undefined: a failure was added, or a priced input is not known
 * yet). A reload keeps the server's bill, so it cannot move to an OS priced otherwise.
 */
export async function checkOrder(
  manager: HardwareManager,
  inputs: Inputs,
  olds: Partial<State>,
  token: string,
  failures: Failures,
): Promise<(Cost & { maxNetworkSpeed: number }) | undefined> {
  if (containsUnknown(PRICED_FIELDS.map((f) => inputs[f]))) return undefined;
  let options: HardwareOptions;
  try {
    options = await manager.createOptions();
  } catch (err) {
    failures.add(
      configKey('endpointUrl'),
      `cannot read what the bare-metal package sells: ${(err as Error).message}`,
    );
    return undefined;
  }
  const billed = billedOrder(inputs, olds);
  checkOffered(billed, options, failures);
  const datacenters = await manager.datacenters();
  if (!datacenters.includes(inputs.datacenter))
    failures.add(
      'datacenter',
      `datacenter ${JSON.stringify(inputs.datacenter)} is not a datacenter of the API: one of ${listed(datacenters)}`,
    );
  await checkVlans(manager, inputs, failures);
  if (failures.list.length > 0) return undefined;
  let cost: Cost;
  try {
    const answer = await manager.verify(await manager.orderContainer(orderOf(billed, token)));
    cost = costOf(
      inputs.hourlyBilling,
      answer.postTaxRecurringHourly,
      answer.postTaxRecurringMonthly,
    );
  } catch (err) {
    const message = (err as Error).message;
    const field = fieldOfRefusal(message);
    failures.add(field, `${field}: the API refuses this order (verifyOrder): ${message}`);
    return undefined;
  }
  const os = olds.operatingSystemReferenceCode;
  if (
    reloadedBy(olds, inputs).includes('operatingSystemReferenceCode') &&
    olds.estimatedHourlyCost !== undefined &&
    Math.abs(olds.estimatedHourlyCost - cost.estimatedHourlyCost) > 1e-9
  )
    failures.add(
      'operatingSystemReferenceCode',
      `operatingSystemReferenceCode ${os} -> ${inputs.operatingSystemReferenceCode} changes the price (${money(olds.estimatedHourlyCost, 4)}/hour -> ${money(cost.estimatedHourlyCost, 4)}/hour), and onImageChange: reload keeps the server's bill; set onImageChange: replace to order a new server at the new price`,
    );
  return { ...cost, maxNetworkSpeed: billed.networkSpeed };
}

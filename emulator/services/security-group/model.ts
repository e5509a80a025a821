/**
 * Security groups: named lists of rules (direction, ethertype, protocol, ports, a remote CIDR or
 * group) bound to guests' network components. Rules change at once; a binding does not: the API
 * answers `attachNetworkComponents` and `detachNetworkComponents` with a request id and applies
 * the change later. Here a binding record carries the instant it takes effect (`boundAt`) and,
 * once detached, the instant it ends (`unboundAt`), both `now + provisioningDelayMs`: pure
 * functions of the record and the clock, as a guest's provisioning is.
 */
import { isIP } from 'node:net';
import { publicFault } from '../../errors';
import { table, type RecordsOf, type Store, type Tables, type WriteOp } from '../../store';
import { badValue, isStruct, notOffered, present, readInt, readString } from '../../validators';
import type { AuthedContext } from '../context';
import { networkComponents, type NicView, type Space } from '../network/model';

export interface SecurityGroupRec {
  id: number;
  accountId: number;
  name?: string;
  description?: string;
  createDate: number;
  modifyDate: number;
}

export interface RuleFields {
  direction: 'ingress' | 'egress';
  ethertype: 'IPv4' | 'IPv6';
  protocol?: 'tcp' | 'udp' | 'icmp';
  portRangeMin?: number;
  portRangeMax?: number;
  remoteIp?: string;
  remoteGroupId?: number;
}

export interface SecurityGroupRuleRec extends RuleFields {
  id: number;
  accountId: number;
  securityGroupId: number;
  createDate: number;
  modifyDate: number;
}

export interface SecurityGroupBindingRec {
  id: number;
  accountId: number;
  securityGroupId: number;
  guestId: number;
  networkComponentId: number;
  /** The attach takes effect at this instant (the order's or the request's). */
  boundAt: number;
  /** Detached: the binding ends at this instant. */
  unboundAt?: number;
}

export const tables = {
  securityGroups: table<SecurityGroupRec>(640001, ['accountId']),
  securityGroupRules: table<SecurityGroupRuleRec>(650001, ['securityGroupId', 'accountId']),
  securityGroupBindings: table<SecurityGroupBindingRec>(660001, ['securityGroupId', 'guestId']),
};

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

/** The API's limits: rules in a group, groups on one network component. */
export const MAX_RULES = 50;
export const MAX_GROUPS_PER_COMPONENT = 5;

const DIRECTIONS = ['ingress', 'egress'] as const;
const ETHERTYPES = ['IPv4', 'IPv6'] as const;
const PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;
/** Properties a rule may carry (ids and dates are echoed back by clients that read them). */
const RULE_PROPERTIES = new Set([
  ...['direction', 'ethertype', 'protocol', 'portRangeMin', 'portRangeMax'],
  ...['remoteIp', 'remoteGroupId', 'id', 'securityGroupId', 'createDate', 'modifyDate'],
  'complexType',
]);

// ---------------------------------------------------------------------------------------------
// Rules

const oneOf = <T extends string>(
  value: unknown,
  field: string,
  options: readonly T[],
): T | undefined => {
  if (!present(value) || value === '') return undefined;
  const text = readString(value, field).trim();
  const found = options.find((o) => o.toLowerCase() === text.toLowerCase());
  if (!found) throw notOffered(field, value, options);
  return found;
};

const optionalInt = (value: unknown, field: string) =>
  present(value) && value !== '' ? readInt(value, field) : undefined;

/** A rule as the API checks it: `field` names the entry (`rules[2]`) in every fault. */
export function readRule(
  ctx: AuthedContext,
  value: unknown,
  field: string,
  base?: RuleFields,
): RuleFields {
  if (!isStruct(value)) throw badValue(field, value, 'Expected a Svc_Network_SecurityGroup_Rule.');
  for (const key of Object.keys(value)) {
    if (!RULE_PROPERTIES.has(key))
      throw publicFault(`Property '${key}' not valid for 'Svc_Network_SecurityGroup_Rule'.`);
  }
  const pick = (key: keyof RuleFields) => (key in value ? value[key] : base?.[key]);
  const direction = oneOf(pick('direction'), `${field}.direction`, DIRECTIONS);
  if (!direction)
    throw publicFault(`Property '${field}.direction' must be set: ingress or egress.`);
  const rule: RuleFields = {
    direction,
    ethertype: oneOf(pick('ethertype'), `${field}.ethertype`, ETHERTYPES) ?? 'IPv4',
    protocol: oneOf(pick('protocol'), `${field}.protocol`, PROTOCOLS),
    portRangeMin: optionalInt(pick('portRangeMin'), `${field}.portRangeMin`),
    portRangeMax: optionalInt(pick('portRangeMax'), `${field}.portRangeMax`),
    remoteIp:
      present(pick('remoteIp')) && pick('remoteIp') !== '' ? String(pick('remoteIp')) : undefined,
    remoteGroupId: optionalInt(pick('remoteGroupId'), `${field}.remoteGroupId`),
  };
  checkPorts(rule, field);
  checkRemote(ctx, rule, field);
  return rule;
}

function checkPorts(rule: RuleFields, field: string): void {
  const { protocol, portRangeMin: min, portRangeMax: max } = rule;
  if (min === undefined && max === undefined) return;
  if (!protocol)
    throw badValue(
      `${field}.portRangeMin`,
      min ?? max,
      'Ports need a protocol (tcp, udp or icmp).',
    );
  const top = protocol === 'icmp' ? 255 : 65535;
  const bottom = protocol === 'icmp' ? 0 : 1;
  for (const [name, port] of [
    ['portRangeMin', min],
    ['portRangeMax', max],
  ] as const) {
    if (port !== undefined && (port < bottom || port > top))
      throw badValue(
        `${field}.${name}`,
        port,
        protocol === 'icmp'
          ? 'For icmp, portRangeMin is the ICMP type and portRangeMax the code, each 0 to 255.'
          : 'A port is 1 to 65535.',
      );
  }
  if (protocol !== 'icmp' && min !== undefined && max !== undefined && min > max)
    throw badValue(`${field}.portRangeMax`, max, `It must not be below portRangeMin (${min}).`);
}

function checkRemote(ctx: AuthedContext, rule: RuleFields, field: string): void {
  if (rule.remoteIp !== undefined && rule.remoteGroupId !== undefined)
    throw publicFault(`${field}: give remoteIp or remoteGroupId, not both.`);
  if (rule.remoteIp !== undefined) {
    const [address, bits, extra] = rule.remoteIp.trim().split('/');
    const version = isIP(address);
    const width = version === 6 ? 128 : 32;
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= width);
    if (version === 0 || !prefixOk || extra !== undefined)
      throw badValue(`${field}.remoteIp`, rule.remoteIp, 'Expected an IP address or a CIDR.');
    if ((version === 6) !== (rule.ethertype === 'IPv6'))
      throw badValue(
        `${field}.remoteIp`,
        rule.remoteIp,
        `The address is IPv${version} but the rule's ethertype is ${rule.ethertype}.`,
      );
    rule.remoteIp = rule.remoteIp.trim();
  }
  if (rule.remoteGroupId !== undefined) {
    const group = ctx.store.get('securityGroups', rule.remoteGroupId);
    if (!group || group.accountId !== ctx.account.id)
      throw publicFault(
        `${field}.remoteGroupId: security group ${rule.remoteGroupId} does not exist on this account.`,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Bindings

/** Bound at `now`: attached and not yet detached. */
export const isBound = (b: SecurityGroupBindingRec, now: number) =>
  b.boundAt <= now && (b.unboundAt === undefined || b.unboundAt > now);

/** Attached, being attached or being detached: anything but a finished detach. */
export const isPresent = (b: SecurityGroupBindingRec, now: number) =>
  b.unboundAt === undefined || b.unboundAt > now;

export const bindingsOfGroup = (store: Store, groupId: number, now: number) =>
  store.by('securityGroupBindings', 'securityGroupId', groupId).filter((b) => isPresent(b, now));

/** The network component of the caller's account with this id, with its guest. */
export function findComponent(ctx: AuthedContext, id: number): NicView | undefined {
  for (const guest of ctx.store.by('guests', 'accountId', ctx.account.id)) {
    const nic = networkComponents(guest).find((n) => n.ip.componentId === id);
    if (nic) return nic;
  }
  return undefined;
}

/** Faults unless each id is a security group of the caller's account. */
export function checkSecurityGroupIds(
  ctx: AuthedContext,
  ids: readonly number[],
  field: string,
): void {
  if (ids.length > MAX_GROUPS_PER_COMPONENT)
    throw publicFault(
      `${field}: at most ${MAX_GROUPS_PER_COMPONENT} security groups may be bound to one interface.`,
    );
  for (const id of ids) {
    const group = ctx.store.get('securityGroups', id);
    if (!group || group.accountId !== ctx.account.id)
      throw publicFault(`${field}: security group ${id} does not exist on this account.`);
  }
}

/** The bindings a guest is ordered with, in force once it is provisioned. */
export function orderedBindingOps(
  store: Store,
  guest: Tables['guests'],
  groups: Readonly<Record<Space, readonly number[]>>,
): WriteOp[] {
  return networkComponents(guest).flatMap((nic) =>
    groups[nic.space].map((securityGroupId): WriteOp => ({
      put: 'securityGroupBindings',
      record: {
        id: store.nextId('securityGroupBindings'),
        accountId: guest.accountId,
        securityGroupId,
        guestId: guest.id,
        networkComponentId: nic.ip.componentId,
        boundAt: guest.readyAt,
      },
    })),
  );
}

/** A guest gone: its bindings go with it. */
export const guestBindingsGoneOps = (store: Store, guestId: number): WriteOp[] =>
  store
    .by('securityGroupBindings', 'guestId', guestId)
    .map((b): WriteOp => ({ del: 'securityGroupBindings', id: b.id }));

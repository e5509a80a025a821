import { isIP } from 'node:net';
import { types, type Bag, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import type { Failures } from '../../framework/failures';
import { isKnown } from '../../framework/unknown';

/**
 * A security group rule's fields (a `SecurityGroup`'s `rules` entries), checked one rule at a
 * time (rules.ts names each failure `rules[i].field`). The schema's `SecurityGroupRule` type and
 * the program's argument type are derived from this table.
 */

export const DIRECTIONS = ['ingress', 'egress'] as const;
export const ETHERTYPES = ['IPv4', 'IPv6'] as const;
export const PROTOCOLS = ['tcp', 'udp', 'icmp'] as const;

const given = (value: unknown) => value !== undefined && value !== null;

function checkPort(failures: Failures, name: string, value: unknown, inputs: Bag): void {
  if (!given(value)) return;
  if (!given(inputs.protocol)) {
    failures.add(name, `${name} needs a protocol (tcp, udp or icmp)`);
    return;
  }
  const icmp = inputs.protocol === 'icmp';
  if (!failures.integer(name, value, icmp ? { min: 0, max: 255 } : { min: 1, max: 65_535 })) return;
  const min = inputs.portRangeMin;
  if (name === 'portRangeMax' && !icmp && typeof min === 'number' && (value as number) < min)
    failures.add(name, `portRangeMax ${String(value)} must not be below portRangeMin ${min}`);
  if (name === 'portRangeMax' && !icmp && !given(min))
    failures.add(name, 'portRangeMax needs portRangeMin too');
}

function checkRemoteIp(failures: Failures, name: string, value: unknown, inputs: Bag): void {
  if (!given(value)) return;
  if (given(inputs.remoteGroupId)) {
    failures.add(name, 'set remoteIp or remoteGroupId, not both');
    return;
  }
  if (!failures.string(name, value, { maxLength: 43 }) || !isKnown(inputs.ethertype)) return;
  const [address, bits, extra] = (value as string).split('/');
  const version = isIP(address);
  const width = version === 6 ? 128 : 32;
  if (
    version === 0 ||
    extra !== undefined ||
    (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= width))
  )
    failures.add(name, `remoteIp ${JSON.stringify(value)} must be an IP address or a CIDR`);
  else if (`IPv${version}` !== inputs.ethertype)
    failures.add(
      name,
      `remoteIp ${String(value)} is IPv${version}, the rule's ethertype ${String(inputs.ethertype)}`,
    );
}

export const SECURITY_GROUP_RULE_FIELDS = {
  /** `ingress` (traffic to the guest) or `egress` (traffic from it). */
  direction: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.custom(
      (failures, name, value) =>
        failures.string(name, value, { required: true }) &&
        failures.oneOf(name, value as string, DIRECTIONS, 'ingress or egress'),
      DIRECTIONS.join(', '),
    ),
    oneOf: {
      name: 'SecurityGroupRuleDirection',
      values: DIRECTIONS,
      meanings: { ingress: 'Traffic into the guest.', egress: 'Traffic out of the guest.' },
    },
  },
  /** `IPv4` (the default) or `IPv6`. */
  ethertype: {
    type: types.string,
    input: 'optional',
    output: true,
    default: 'IPv4',
    rule: rules.custom(
      (failures, name, value) => failures.oneOf(name, value as string, ETHERTYPES, 'IPv4 or IPv6'),
      ETHERTYPES.join(', '),
    ),
    oneOf: {
      name: 'SecurityGroupRuleEthertype',
      values: ETHERTYPES,
      meanings: { IPv4: 'IPv4 addresses and traffic.', IPv6: 'IPv6 addresses and traffic.' },
    },
  },
  /** `tcp`, `udp` or `icmp`; unset: every protocol. */
  protocol: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.custom((failures, name, value) => {
      if (given(value)) failures.oneOf(name, value as string, PROTOCOLS, 'tcp, udp or icmp');
    }, PROTOCOLS.join(', ')),
    oneOf: {
      name: 'SecurityGroupRuleProtocol',
      values: PROTOCOLS,
      meanings: {
        tcp: "TCP, on the rule's ports.",
        udp: "UDP, on the rule's ports.",
        icmp: 'ICMP (ping).',
      },
    },
  },
  /** The lowest port (tcp, udp), or the ICMP type (icmp). */
  portRangeMin: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.custom(checkPort, '1-65,535 (icmp: a type, 0-255); needs protocol'),
  },
  /** The highest port (tcp, udp), or the ICMP code (icmp). */
  portRangeMax: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.custom(checkPort, 'portRangeMin-65,535 (icmp: a code, 0-255)'),
  },
  /** The address or CIDR the rule admits (ingress) or reaches (egress), of the rule's ethertype. */
  remoteIp: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.custom(checkRemoteIp, 'an address or CIDR; not with remoteGroupId'),
  },
  /** Another security group (its id) whose members the rule admits or reaches. */
  remoteGroupId: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.custom((failures, name, value) => {
      if (given(value)) failures.integer(name, value, { min: 1 });
    }, 'a security group id'),
  },
} satisfies Fields;

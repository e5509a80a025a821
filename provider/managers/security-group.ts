import type { Client } from '../client';
import { isNotFound } from '../client/errors';
import { unlessNotFound } from './not-found';

/** A rule of a security group as the API takes it (`Svc_Network_SecurityGroup_Rule`). */
export interface SecurityGroupRuleSpec {
  direction: 'ingress' | 'egress';
  ethertype?: 'IPv4' | 'IPv6';
  protocol?: 'tcp' | 'udp' | 'icmp';
  /** The lowest port (tcp, udp) or the ICMP type. */
  portRangeMin?: number;
  /** The highest port (tcp, udp) or the ICMP code. */
  portRangeMax?: number;
  /** An address or CIDR the rule admits (or reaches). */
  remoteIp?: string;
  /** Another security group whose members the rule admits (or reaches). */
  remoteGroupId?: number;
}

export interface SecurityGroupRule extends SecurityGroupRuleSpec {
  id: number;
}

/** A binding in force: the group applies to a guest's network component. */
export interface SecurityGroupBinding {
  networkComponentId: number;
  networkComponent?: { id: number; port?: number; guest?: { id: number; hostname?: string } };
}

/** `Svc_Network_SecurityGroup`: a named list of rules, bound to guests' network components. */
export interface SecurityGroup {
  id: number;
  name?: string;
  description?: string;
  createDate?: string;
  rules?: SecurityGroupRule[];
  networkComponentBindings?: SecurityGroupBinding[];
}

const RULE_MASK =
  'id,direction,ethertype,protocol,portRangeMin,portRangeMax,remoteIp,remoteGroupId';
export const SECURITY_GROUP_MASK =
  `id,name,description,createDate,rules[${RULE_MASK}],` +
  'networkComponentBindings[networkComponentId,networkComponent[id,port,guest[id,hostname]]]';

const SERVICE = 'Network_SecurityGroup';

/**
 * The account's security groups: list, read, create, rename, delete; rules added, edited and
 * removed in place; guests' network components bound and unbound (asynchronous on the API: the
 * binding shows in `networkComponentBindings` once it is in force).
 */
export class SecurityGroupManager {
  constructor(private readonly client: Client) {}

  async listGroups(mask = SECURITY_GROUP_MASK): Promise<SecurityGroup[]> {
    return (await this.client.call('Account', 'getSecurityGroups', { mask })) as SecurityGroup[];
  }

  async getGroup(id: number): Promise<SecurityGroup> {
    return (await this.client.call(SERVICE, 'getObject', {
      id,
      mask: SECURITY_GROUP_MASK,
    })) as SecurityGroup;
  }

  /** The group, or undefined when it does not exist (or belongs to another account). */
  findGroup(id: number): Promise<SecurityGroup | undefined> {
    return unlessNotFound(this.getGroup(id));
  }

  /** Creates the group, without rules. A write: the client never repeats it on its own. */
  async createGroup(spec: { name: string; description?: string }): Promise<SecurityGroup> {
    return (await this.client.call(SERVICE, 'createObject', {
      args: [{ name: spec.name, ...(spec.description ? { description: spec.description } : {}) }],
      mask: SECURITY_GROUP_MASK,
    })) as SecurityGroup;
  }

  /** Changes the name and description; `description: ''` clears it. */
  async editGroup(id: number, changes: { name?: string; description?: string }): Promise<void> {
    await this.client.call(SERVICE, 'editObject', { id, args: [changes] });
  }

  /** Deletes the group; one that is already gone counts as deleted. */
  async deleteGroup(id: number): Promise<void> {
    try {
      await this.client.call(SERVICE, 'deleteObject', { id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async addRules(id: number, rules: readonly SecurityGroupRuleSpec[]): Promise<void> {
    await this.client.call(SERVICE, 'addRules', { id, args: [rules] });
  }

  /** Each rule (by its `id`) takes the fields given. */
  async editRules(id: number, rules: readonly SecurityGroupRule[]): Promise<void> {
    await this.client.call(SERVICE, 'editRules', { id, args: [rules] });
  }

  async removeRules(id: number, ruleIds: readonly number[]): Promise<void> {
    await this.client.call(SERVICE, 'removeRules', { id, args: [ruleIds] });
  }

  /** Asks for the group to be bound to the components; in force later (see `getGroup`). */
  async attach(id: number, componentIds: readonly number[]): Promise<void> {
    await this.client.call(SERVICE, 'attachNetworkComponents', { id, args: [componentIds] });
  }

  async detach(id: number, componentIds: readonly number[]): Promise<void> {
    await this.client.call(SERVICE, 'detachNetworkComponents', { id, args: [componentIds] });
  }
}

/**
 * Svc_Network_SecurityGroup with its rules and its bindings to guests' network components
 * (Svc_Virtual_Network_SecurityGroup_NetworkComponentBinding); the account lists its groups, and
 * a network component its bindings. A binding shows once it is in force (see model.ts).
 */
import { formatApiDate } from '../../dates';
import { defineType, extendType, sameAccount, type ViewContext } from '../../schema';
import type { AccountRec } from '../account/model';
import { networkComponents, type NicView } from '../network/model';
import {
  isBound,
  type SecurityGroupBindingRec,
  type SecurityGroupRec,
  type SecurityGroupRuleRec,
} from './model';

const boundTo = (groupId: number, ctx: ViewContext) =>
  ctx.store
    .by('securityGroupBindings', 'securityGroupId', groupId)
    .filter((b) => isBound(b, ctx.now));

defineType<SecurityGroupRec>('Svc_Network_SecurityGroup', {
  locals: {
    id: (g) => g.id,
    name: (g) => g.name,
    description: (g) => g.description,
    createDate: (g) => formatApiDate(g.createDate),
    modifyDate: (g) => formatApiDate(g.modifyDate),
  },
  relations: {
    account: { type: 'Svc_Account', get: (g, ctx) => ctx.store.get('accounts', g.accountId) },
    rules: {
      type: 'Svc_Network_SecurityGroup_Rule',
      many: true,
      get: (g, ctx) => ctx.store.by('securityGroupRules', 'securityGroupId', g.id),
    },
    networkComponentBindings: {
      type: 'Svc_Virtual_Network_SecurityGroup_NetworkComponentBinding',
      many: true,
      get: (g, ctx) => boundTo(g.id, ctx),
    },
  },
  onDemand: {
    ruleCount: (g, ctx) => ctx.store.countBy('securityGroupRules', 'securityGroupId', g.id),
    networkComponentBindingCount: (g, ctx) => boundTo(g.id, ctx).length,
  },
});

defineType<SecurityGroupRuleRec>('Svc_Network_SecurityGroup_Rule', {
  locals: {
    id: (r) => r.id,
    securityGroupId: (r) => r.securityGroupId,
    direction: (r) => r.direction,
    ethertype: (r) => r.ethertype,
    protocol: (r) => r.protocol,
    portRangeMin: (r) => r.portRangeMin,
    portRangeMax: (r) => r.portRangeMax,
    remoteIp: (r) => r.remoteIp,
    remoteGroupId: (r) => r.remoteGroupId,
    createDate: (r) => formatApiDate(r.createDate),
    modifyDate: (r) => formatApiDate(r.modifyDate),
  },
  relations: {
    securityGroup: {
      type: 'Svc_Network_SecurityGroup',
      get: (r, ctx) => ctx.store.get('securityGroups', r.securityGroupId),
    },
    remoteGroup: {
      type: 'Svc_Network_SecurityGroup',
      get: (r, ctx) =>
        r.remoteGroupId === undefined
          ? undefined
          : sameAccount(ctx.store.get('securityGroups', r.remoteGroupId), ctx),
    },
  },
});

/** The component a binding names, while its guest exists. */
const componentOf = (b: SecurityGroupBindingRec, ctx: ViewContext): NicView | undefined => {
  const guest = sameAccount(ctx.store.get('guests', b.guestId), ctx);
  return guest && networkComponents(guest).find((n) => n.ip.componentId === b.networkComponentId);
};

defineType<SecurityGroupBindingRec>('Svc_Virtual_Network_SecurityGroup_NetworkComponentBinding', {
  locals: {
    id: (b) => b.id,
    securityGroupId: (b) => b.securityGroupId,
    networkComponentId: (b) => b.networkComponentId,
  },
  relations: {
    securityGroup: {
      type: 'Svc_Network_SecurityGroup',
      get: (b, ctx) => ctx.store.get('securityGroups', b.securityGroupId),
    },
    networkComponent: { type: 'Svc_Virtual_Guest_Network_Component', get: componentOf },
  },
});

extendType<AccountRec>('Svc_Account', {
  relations: {
    securityGroups: {
      type: 'Svc_Network_SecurityGroup',
      many: true,
      get: (a, ctx) => ctx.store.by('securityGroups', 'accountId', a.id),
    },
  },
  onDemand: {
    securityGroupCount: (a, ctx) => ctx.store.countBy('securityGroups', 'accountId', a.id),
  },
});

extendType<NicView>('Svc_Virtual_Guest_Network_Component', {
  relations: {
    securityGroupBindings: {
      type: 'Svc_Virtual_Network_SecurityGroup_NetworkComponentBinding',
      many: true,
      get: (n, ctx) =>
        ctx.store
          .by('securityGroupBindings', 'guestId', n.guest.id)
          .filter((b) => b.networkComponentId === n.ip.componentId && isBound(b, ctx.now)),
    },
  },
});

/**
 * Svc_Virtual_PlacementGroup and its rule; the account lists its groups, and a guest names the
 * group it was ordered into.
 */
import { formatApiDate } from '../../dates';
import { defineType, extendType, sameAccount } from '../../schema';
import type { AccountRec } from '../account/model';
import type { GuestRec } from '../virtual-guest/model';
import { RULES, guestsIn, routerById, type PlacementGroupRec, type PlacementRule } from './model';

defineType<PlacementGroupRec>('Svc_Virtual_PlacementGroup', {
  locals: {
    id: (g) => g.id,
    accountId: (g) => g.accountId,
    name: (g) => g.name,
    backendRouterId: (g) => g.backendRouterId,
    ruleId: (g) => g.ruleId,
    createDate: (g) => formatApiDate(g.createDate),
    modifyDate: (g) => formatApiDate(g.modifyDate),
  },
  relations: {
    account: { type: 'Svc_Account', get: (g, ctx) => ctx.store.get('accounts', g.accountId) },
    backendRouter: {
      type: 'Svc_Hardware_Router_Backend',
      get: (g) => routerById(g.backendRouterId),
    },
    rule: {
      type: 'Svc_Virtual_PlacementGroup_Rule',
      get: (g) => RULES.find((r) => r.id === g.ruleId),
    },
    guests: { type: 'Svc_Virtual_Guest', many: true, get: (g, ctx) => guestsIn(ctx, g) },
  },
  onDemand: { guestCount: (g, ctx) => guestsIn(ctx, g).length },
});

defineType<PlacementRule>('Svc_Virtual_PlacementGroup_Rule', {
  locals: { id: (r) => r.id, keyName: (r) => r.keyName, name: (r) => r.name },
});

extendType<AccountRec>('Svc_Account', {
  relations: {
    placementGroups: {
      type: 'Svc_Virtual_PlacementGroup',
      many: true,
      get: (a, ctx) => ctx.store.by('placementGroups', 'accountId', a.id),
    },
  },
  onDemand: {
    placementGroupCount: (a, ctx) => ctx.store.countBy('placementGroups', 'accountId', a.id),
  },
});

extendType<GuestRec>('Svc_Virtual_Guest', {
  locals: { placementGroupId: (g) => g.placementGroupId },
  relations: {
    placementGroup: {
      type: 'Svc_Virtual_PlacementGroup',
      get: (g, ctx) =>
        g.placementGroupId === undefined
          ? undefined
          : sameAccount(ctx.store.get('placementGroups', g.placementGroupId), ctx),
    },
  },
});

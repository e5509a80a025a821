/** Svc_Account: always the caller's own account (another account's id finds nothing). */
import { objectNotFound } from '../errors';
import { typeDef } from '../schema';
import { list, one, requireId, type AuthedContext } from './context';
import { defineService, type MethodDef } from './registry';

const loadAccount = (ctx: AuthedContext) => {
  if (ctx.rawId !== undefined && ctx.rawId !== null && requireId(ctx) !== ctx.account.id) {
    throw objectNotFound(ctx.rawId);
  }
  return ctx.account;
};

/** A subset collection whose filter may also be rooted at the full collection's name. */
function subset(property: string, alsoRoot: string): MethodDef {
  return {
    handler: (ctx) => {
      const relation = typeDef('Svc_Account').relations.get(property)!;
      const items = relation.get(loadAccount(ctx), ctx) as unknown[];
      return list(ctx, relation.type, items, [property, alsoRoot]);
    },
  };
}

defineService({
  name: 'Account',
  load: loadAccount,
  methods: {
    getCurrentUser: { handler: (ctx) => one(ctx, 'Svc_User_Customer', ctx.user) },
    getHourlyVirtualGuests: subset('hourlyVirtualGuests', 'virtualGuests'),
    getMonthlyVirtualGuests: subset('monthlyVirtualGuests', 'virtualGuests'),
    getOpenTickets: subset('openTickets', 'tickets'),
    getClosedTickets: subset('closedTickets', 'tickets'),
  },
});

/**
 * Svc_Account (always the caller's own account: another account's id finds nothing) and
 * Svc_User_Customer (users of the caller's account, and password login with portal tokens).
 */
import { checkPasswordLogin, newTokenHash } from '../../auth';
import { objectNotFound } from '../../errors';
import { typeDef } from '../../schema';
import { expectArgs, list, ok, one, owned, requireId, type AuthedContext } from '../context';
import { serviceFolder, type MethodDef } from '../service';
import { tables, type TokenRec } from './model';
import './types';

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

const getPortalLoginToken: MethodDef = {
  access: 'none',
  handler: async (ctx) => {
    expectArgs(ctx, ['username', 'password', 'securityQuestionId', 'securityQuestionAnswer'], 2);
    const [username, password, questionId, answer] = ctx.args;
    const user = checkPasswordLogin(ctx.store, username, password, questionId, answer);
    const token: TokenRec = {
      id: ctx.store.nextId('tokens'),
      userId: user.id,
      hash: newTokenHash(),
      createDate: ctx.now,
    };
    await ctx.store.write([{ put: 'tokens', record: token }]);
    return ok({ userId: user.id, hash: token.hash });
  },
};

export const account = serviceFolder({
  tables,
  services: {
    Account: {
      load: loadAccount,
      methods: {
        getCurrentUser: { handler: (ctx) => one(ctx, 'Svc_User_Customer', ctx.user) },
        getHourlyVirtualGuests: subset('hourlyVirtualGuests', 'virtualGuests'),
        getMonthlyVirtualGuests: subset('monthlyVirtualGuests', 'virtualGuests'),
        getOpenTickets: subset('openTickets', 'tickets'),
        getClosedTickets: subset('closedTickets', 'tickets'),
      },
    },
    User_Customer: {
      load: (ctx: AuthedContext) => {
        if (ctx.rawId === undefined || ctx.rawId === null) return ctx.user;
        const id = requireId(ctx);
        return owned(ctx, ctx.store.get('users', id), id);
      },
      methods: { getPortalLoginToken },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    account: typeof account;
  }
}

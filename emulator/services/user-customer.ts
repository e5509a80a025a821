/** Svc_User_Customer: users of the caller's account, and password login (portal tokens). */
import { checkPasswordLogin, newTokenHash } from '../auth';
import type { TokenRec } from '../records';
import { expectArgs, ok, owned, requireId, type AuthedContext } from './context';
import { defineService } from './registry';

defineService({
  name: 'User_Customer',
  load: (ctx: AuthedContext) => {
    if (ctx.rawId === undefined || ctx.rawId === null) return ctx.user;
    const id = requireId(ctx);
    return owned(ctx, ctx.store.get('users', id), id);
  },
  methods: {
    getPortalLoginToken: {
      access: 'none',
      handler: async (ctx) => {
        expectArgs(
          ctx,
          ['username', 'password', 'securityQuestionId', 'securityQuestionAnswer'],
          2,
        );
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
    },
  },
});

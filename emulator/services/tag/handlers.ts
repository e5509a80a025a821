/**
 * Svc_Tag: the account's tags (kept by virtual-guest/, which tags guests), those attached to
 * something and those that are not, a tag's references, and a tag by name.
 */
import { expectArgs, list, ownedById, stringArg, type AuthedContext } from '../context';
import { serviceFolder, type MethodDef } from '../service';
import { tagReferencesOf } from '../virtual-guest/types';

const accountTags = (ctx: AuthedContext) => ctx.store.by('tags', 'accountId', ctx.account.id);

/** The account's tags with (`attached`) or without references. */
const tagsFor = (attached: boolean): MethodDef => ({
  handler: (ctx) => {
    expectArgs(ctx, []);
    const tags = accountTags(ctx).filter((t) => tagReferencesOf(t, ctx).length > 0 === attached);
    return list(ctx, 'Svc_Tag', tags, null);
  },
});

export const tag = serviceFolder({
  tables: {},
  services: {
    Tag: {
      load: ownedById((ctx, id) => ctx.store.get('tags', id)),
      methods: {
        getAttachedTagsForCurrentUser: tagsFor(true),
        getUnattachedTagsForCurrentUser: tagsFor(false),
        getTagByTagName: {
          handler: (ctx) => {
            expectArgs(ctx, ['tagList']);
            const names = stringArg(ctx, 0, 'tagList')
              .split(',')
              .map((n) => n.trim().toLowerCase());
            const tags = accountTags(ctx).filter((t) => names.includes(t.name.toLowerCase()));
            return list(ctx, 'Svc_Tag', tags, null);
          },
        },
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    tag: typeof tag;
  }
}

/**
 * Svc_Product_Package (the packages that sell guests: `getAllObjects` with filters such as
 * `{keyName: {operation: 'CLOUD_SERVER'}}`, then `getItems`, `getItemPrices`, `getActivePresets`,
 * `getRegions`, ... as relation getters of the package) and Svc_Product_Package_Preset. All of it
 * derived from the catalog (see ./model.ts); nothing is stored.
 */
import { objectNotFound } from '../../errors';
import { parseMaskString } from '../../query/mask';
import { expectArgs, list, requireId, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { ALL_PACKAGES, anyPackageById, itemsOf, presetById } from './model';
import './types';

function loadBy<T>(find: (id: number) => T | undefined) {
  return (ctx: AuthedContext): T => {
    const id = requireId(ctx);
    const found = find(id);
    if (!found) throw objectNotFound(id);
    return found;
  };
}

const loadPackage = loadBy(anyPackageById);
const ITEM_DEFAULT = parseMaskString('mask[prices, itemCategory]');

export const productPackage = serviceFolder({
  tables: {},
  services: {
    Product_Package: {
      load: loadPackage,
      methods: {
        getAllObjects: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return list(ctx, 'Svc_Product_Package', ALL_PACKAGES, null);
          },
        },
        // Without a mask the API answers items with their prices (reference clients read them).
        getItems: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            const items = itemsOf(loadPackage(ctx));
            return list({ ...ctx, mask: ctx.mask ?? ITEM_DEFAULT }, 'Svc_Product_Item', items, [
              'items',
            ]);
          },
        },
      },
    },
    Product_Package_Preset: { load: loadBy(presetById), methods: {} },
  },
});

declare module '../service' {
  interface ServiceFolders {
    productPackage: typeof productPackage;
  }
}

import { KINDS, type KindSpec } from '../kinds/index';
import { ACCOUNT_LOOKUPS } from './account';
import type { Lookup } from './define';

/** Every lookup by name: the account's and each kind's (kinds/index.ts), one list for every door. */
export const LOOKUPS: Readonly<Record<string, Lookup>> = {
  ...ACCOUNT_LOOKUPS,
  ...Object.assign({}, ...Object.values(KINDS).map((kind: KindSpec) => kind.lookups ?? {})),
};

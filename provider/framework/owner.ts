import { AccountManager } from '../managers';
import type { Connection } from './connection';

/**
 * The account that owns what a resource manages. The API answers "not found" alike for an object
 * that is gone and for one that belongs to another account, so a resource records the account its
 * object was made in (`accountId` in its outputs), and nothing concludes "gone", or deletes, or
 * edits, with the credentials of another account.
 */

const accounts = new WeakMap<Connection, Promise<number>>();

/**
 * The id of the account the configured credentials sign in to: asked once per connection, unless
 * an object this connection read or made says it first (`seen.accountId`: an order's answer, or a
 * guest of the account's own listing, is of that account), which saves the call.
 */
export function accountIdOf(c: Connection, seen?: { accountId?: number }): Promise<number> {
  let id = accounts.get(c);
  if (!id && typeof seen?.accountId === 'number') {
    id = Promise.resolve(seen.accountId);
    accounts.set(c, id);
  }
  if (!id) {
    id = c
      .use(AccountManager)
      .getAccount('id')
      .then((account) => Number(account.id));
    id.catch(() => accounts.delete(c));
    accounts.set(c, id);
  }
  return id;
}

export type OwnedAction = 'refresh' | 'update' | 'delete';

const CONSEQUENCE: Record<OwnedAction, string> = {
  refresh:
    'to these credentials a live object of another account looks exactly like a deleted one, so refreshing with them could drop it from the stack while it keeps running',
  update: 'these credentials cannot change it',
  delete:
    'to these credentials it looks already gone, so the stack would forget it while it keeps running',
};

/**
 * Checks that the configured credentials are those of the account recorded in `props.accountId`
 * (states written before it was recorded are taken as they are) and returns the current account.
 */
export async function requireOwner(
  c: Connection,
  props: Record<string, unknown>,
  what: string,
  action: OwnedAction,
): Promise<number> {
  const current = await accountIdOf(c);
  const recorded = props.accountId;
  if (recorded !== undefined && recorded !== null && Number(recorded) !== current) {
    throw new Error(
      `refusing to ${action} ${what}: it belongs to account ${String(recorded)}, but the configured credentials (svc:username / svc:apiKey, SVC_USERNAME / SVC_API_KEY) sign in to account ${current}; ${CONSEQUENCE[action]}. Run it again with credentials of account ${String(recorded)}.`,
    );
  }
  return current;
}

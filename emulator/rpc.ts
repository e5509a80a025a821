/**
 * One API call after decoding: read the headers, find the method, authenticate the caller,
 * parse the mask, run the handler. Everything that can go wrong becomes an ApiFault.
 */
import { authenticate } from './auth';
import { parseMaskString, maskFromStruct, type Mask } from './query/mask';
import type { Store } from './store';
import type { AuthedContext, CallResult, Settings } from './services/context';
import { ORDER_OWNERS, resolveMethod } from './services/registry';
import { sweepReclaimed } from './services/virtual-guest/model';
import { readHeaders, splitParams, type CallHeaders } from './wire';

export interface PreparedCall {
  service: string;
  method: string;
  headers: CallHeaders;
  args: unknown[];
  /** Who the call claims to be, for rate limiting (before authentication). */
  caller: string;
}

/** `service` is the name without `Svc_`; faults -32602 on a malformed headers struct. */
export function prepareCall(
  service: string,
  method: string,
  params: unknown[],
  remote: string,
): PreparedCall {
  const { headers: raw, args } = splitParams(params);
  const headers = readHeaders(`Svc_${service}`, raw);
  const auth = headers.authenticate;
  const caller =
    auth?.kind === 'apiKey'
      ? `user:${auth.username}`
      : auth?.kind === 'token'
        ? `id:${auth.userId}`
        : `ip:${remote}`;
  return { service, method, headers, args, caller };
}

export async function executeCall(
  store: Store,
  settings: Settings,
  call: PreparedCall,
  basicAuth: string | undefined,
): Promise<CallResult> {
  const def = resolveMethod(call.service, call.method);
  await sweepReclaimed(store, Date.now());
  const access = def.access ?? 'user';
  const given = call.headers.authenticate !== undefined || basicAuth !== undefined;
  const user =
    access === 'user' || (access === 'optional' && given)
      ? authenticate(store, call.headers.authenticate, basicAuth)
      : null;
  const account = user ? (store.get('accounts', user.accountId) ?? null) : null;
  const mask = readMask(call.headers.mask);
  // Methods with access 'none'/'optional' never read ctx.user/ctx.account when they are null.
  const ctx = {
    store,
    now: Date.now(),
    accountId: account?.id ?? 0,
    user,
    account,
    service: call.service,
    method: call.method,
    args: call.args,
    rawId: call.headers.id,
    mask,
    filter: call.headers.filter,
    limit: call.headers.limit,
    offset: call.headers.offset,
    settings,
    orderOwners: ORDER_OWNERS,
  } as AuthedContext;
  return def.handler(ctx);
}

function readMask(mask: CallHeaders['mask']): Mask | undefined {
  if (mask === undefined) return undefined;
  if (typeof mask === 'string') return mask.trim() === '' ? undefined : parseMaskString(mask);
  return { root: maskFromStruct(mask), filtered: false };
}

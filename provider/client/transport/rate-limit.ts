import pThrottle from 'p-throttle';
import type { Transport } from './call';

/**
 * At most `perSecond` calls of `send` in any one-second window (p-throttle's strict mode: a
 * sliding window, so no fixed second of the server's count can see more). The API answers a
 * rate-limit fault past its account-wide limit; a client that stays below it never has to back
 * off. Calls over the rate wait their turn; `undefined` means no limit.
 */
export function rateLimited<A extends unknown[], R>(
  send: (...args: A) => Promise<R>,
  perSecond: number | undefined,
): (...args: A) => Promise<R> {
  if (perSecond === undefined) return send;
  // Below one call per second: one call per 1/rate seconds.
  const [limit, interval] = perSecond >= 1 ? [Math.floor(perSecond), 1000] : [1, 1000 / perSecond];
  return pThrottle({ limit, interval, strict: true })(send);
}

/** The rate-limit stage: `next` at most `perSecond` times a second (see `rateLimited`). */
export function withRateLimit(next: Transport, perSecond: number | undefined): Transport {
  return rateLimited(next, perSecond);
}

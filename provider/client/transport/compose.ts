import { withEncoding, type Transport } from './call';
import { withDebug, type DebugHooks } from './debug';
import { sendHttp } from './http';
import { withRateLimit } from './rate-limit';
import { withRetry, type RetryOptions } from './retry';

export interface TransportOptions extends DebugHooks {
  retry: RetryOptions;
  /** Calls per second sent at most for the account from this machine (undefined: no limit). */
  maxCallsPerSecond?: number;
  /** Whose limit it is: the slots are shared by every client of the same endpoint and username. */
  account: { endpointUrl: string; username?: string };
}

/**
 * A client's transport: encode once, then retry around the debug hooks around the rate limit
 * around HTTP (which decodes). Each attempt is thus reported with its number, and takes its turn
 * under the rate limit; the duration the hooks see includes that wait.
 */
export function composeTransport(options: TransportOptions): Transport {
  const limited = withRateLimit(sendHttp, options.maxCallsPerSecond, options.account);
  return withEncoding(withRetry(withDebug(limited, options), options.retry));
}

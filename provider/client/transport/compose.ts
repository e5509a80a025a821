import { withEncoding, type Transport } from './call';
import { withDebug, type DebugHooks } from './debug';
import { sendHttp } from './http';
import { withRateLimit } from './rate-limit';
import { withRetry, type RetryOptions } from './retry';

export interface TransportOptions extends DebugHooks {
  retry: RetryOptions;
  /** Calls per second sent at most (undefined: no limit). */
  maxCallsPerSecond?: number;
}

/**
 * A client's transport: encode once, then retry around the debug hooks around the rate limit
 * around HTTP (which decodes). Each attempt is thus reported with its number, and takes its turn
 * under the rate limit; the duration the hooks see includes that wait.
 */
export function composeTransport(options: TransportOptions): Transport {
  const limited = withRateLimit(sendHttp, options.maxCallsPerSecond);
  return withEncoding(withRetry(withDebug(limited, options), options.retry));
}

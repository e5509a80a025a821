import type { RpcCall, RpcResult, Transport } from './call';

/** How one attempt went: its result, or the error it failed with. */
export type Outcome =
  { result: RpcResult; error?: undefined } | { result?: undefined; error: unknown };

/**
 * The timing stage: `next`, with `report` told each attempt's outcome and how long it took
 * (rate-limit waits included when the limit is below this stage).
 */
export function withTiming(
  next: Transport,
  report: (call: RpcCall, durationMs: number, outcome: Outcome) => void,
): Transport {
  return async (call) => {
    const started = performance.now();
    try {
      const result = await next(call);
      report(call, performance.now() - started, { result });
      return result;
    } catch (error) {
      report(call, performance.now() - started, { error });
      throw error;
    }
  };
}
